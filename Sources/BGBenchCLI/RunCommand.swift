import Dispatch
import Experiments
import Foundation
import Policies
import Synchronization

struct RunCommand: Command {
    static let path = ["run"]
    static let overview = "Run an experiment: every policy configuration on every simulated user."
    static let usage = "bgbench run <spec> [--out <dir>] [--force] [--threads <n>] [--shard <i>/<n>] [--events] [--events-users <ids>] [--apps] [--quiet]"
    static let arguments = [("<spec>", "Experiment file (JSON; schema in Docs/ExperimentSpec.md).")]
    static let options = [
        ("--out <dir>", "Output directory (default: Reports/<spec name>). Written in a staging directory beside it and moved into place at the end; never inside the trace set."),
        ("--force", "Replace an existing output directory (whole: no old file is kept). Without it an existing one is refused."),
        ("--threads <n>", "Worker threads (default: all cores). Results are identical for any value."),
        ("--shard <i>/<n>", "Run only shard i of n (0 <= i < n) and write a partial result for 'bgbench merge'. A shard already complete in <dir> is skipped."),
        ("--events", "Also write events.csv: every launch, content update, task run and state change. Large: about 6.7 MB per user-day on the default suite (24 configurations, about 280 kB per user-day each), so 100 users x 14 days is about 9.4 GB; use --events-users to log a sample."),
        ("--events-users <ids>", "With --events (implied): log only these user ids, as ranges and ids separated by commas, e.g. 0-9 or 0-4,17,40-49. Their rows are byte for byte those of a log of every user. An id beyond the run's users (0 to population.users - 1, or the trace set's ids) is refused (exit 64)."),
        ("--apps", "Also write apps.csv: per (configuration, replication, user, app) launches, fresh launches, runs, energy and bytes (Docs/Outputs.md)."),
        ("--quiet", "No progress on stderr (progress is shown only when stderr is a terminal)."),
    ]

    let spec: String, out: String?, threads: Int, shard: Shard?, events: Bool, apps: Bool, quiet: Bool, force: Bool
    let eventUsers: UserSelection?

    init(parsing args: inout ArgumentList) throws(UsageError) {
        out = try args.option("--out")
        threads = try args.intOption("--threads", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        shard = try args.option("--shard", expects: "i/n with 0 <= i < n, e.g. 0/4", Shard.init(parsing:))
        eventUsers = try args.option("--events-users", expects: "user ids as ranges and ids separated by commas (0 <= A <= B), e.g. 0-9 or 0-4,17",
                                     UserSelection.init(parsing:))
        events = try args.flag("--events") || eventUsers != nil
        apps = try args.flag("--apps")
        force = try args.flag("--force")
        quiet = try args.flag("--quiet", "-q")
        let rest = try args.positionals()
        guard rest.count == 1 else { throw UsageError(rest.isEmpty ? "missing <spec>" : "expected one spec file, got \(rest.count) arguments") }
        spec = rest[0]
    }

    func run(tool: ExperimentTool) throws {
        let stop = Interrupt.shared
        let progress = ProgressReporter(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        var options = ExperimentCommands.RunOptions(
            specPath: spec, out: out, threads: threads, shard: shard, events: events, force: force,
            progress: { progress.update(done: $0, total: $1) },
            shouldStop: { stop.isSet })
        options.apps = apps
        options.eventUsers = eventUsers
        let result = try ExperimentCommands.run(options, tool: tool)
        progress.finish()
        switch result {
        case let .completed(dir, runs, cost):
            if !quiet {
                let what = shard.map { "shard \($0) (\(runs) runs)" } ?? "\(runs) runs"
                print("wrote \(what) to \(dir) in \(String(format: "%.1f", cost.wallSeconds)) s on \(threads) thread\(threads == 1 ? "" : "s") (\(String(format: "%.1f", cost.cpuSeconds)) s CPU)")
            }
        case let .skipped(dir):
            print("shard \(shard!) already complete in \(dir) for this spec; skipped")
        case .interrupted:
            throw CommandFailure.interrupted()
        }
    }
}

/// SIGINT (Ctrl-C) and SIGTERM stop every command promptly, whatever it is
/// doing (simulating, writing, merging, generating traces, rendering a
/// report): the handler, on its own thread, removes every staging directory
/// of the process (``StagedDirectory/removeAllStaging()``: a commit in
/// progress finishes first, so a result is either whole or absent), kills
/// the `external` policy's decision processes (``LiveDecisionProcesses``)
/// and exits with 130 (SIGINT) or 143 (SIGTERM). The flag lets a run's workers
/// stop taking work in the meantime.
final class Interrupt: Sendable {
    private let flag = Atomic<Bool>(false)
    private nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    var isSet: Bool { flag.load(ordering: .relaxed) }

    /// Installed once, by `BGBenchCLI.main`, before any command runs.
    static let shared = Interrupt()

    static func install() {
        // A serial queue of its own gets a thread even while the workers
        // (concurrentPerform) occupy every core.
        let queue = DispatchQueue(label: "bgbench.signals", qos: .userInteractive)
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                shared.flag.store(true, ordering: .relaxed)
                StagedDirectory.removeAllStaging()
                LiveDecisionProcesses.killAll()
                let name = sig == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"
                FileHandle.standardError.write(Data("\nError: \(name); no output was written\n".utf8))
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// `done/total runs, rate, ETA` on one stderr line, at most 4 times a second.
final class ProgressReporter: Sendable {
    private let enabled: Bool
    private let start = Date()
    private let lastPrint = Mutex<Double>(0)

    init(enabled: Bool) { self.enabled = enabled }

    func update(done: Int, total: Int) {
        guard enabled else { return }
        let t = Date().timeIntervalSince(start)
        let due = lastPrint.withLock { last -> Bool in
            guard t - last >= 0.25 || done == total else { return false }
            last = t
            return true
        }
        guard due else { return }
        let rate = Double(done) / max(t, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let line = String(format: "\r%d/%d users done, %.1f users/s, ETA %.0f s   ", done, total, rate, eta)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
