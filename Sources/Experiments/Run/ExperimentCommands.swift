import Foundation
import Policies

/// The actions behind `bgbench run`, `merge`, `report` and `validate` (merge
/// and report in their own files), with
/// arguments already parsed. The CLI only parses and prints.
public enum ExperimentCommands {
    /// Options of `bgbench run`.
    public struct RunOptions: Sendable {
        public var specPath: String
        public var out: String?
        public var threads: Int
        public var shard: Shard?
        public var events: Bool
        /// Also write `apps.csv` (per-app metrics, `--apps`).
        public var apps: Bool = false
        /// With `events`: log only these users (`--events-users`); nil: all.
        public var eventUsers: UserSelection?
        /// Replace an existing result directory at `out` (whole).
        public var force: Bool
        /// Called with (done, total) as work items finish (from worker threads).
        public var progress: @Sendable (Int, Int) -> Void
        /// Polled by workers; true stops the run without writing anything.
        public var shouldStop: @Sendable () -> Bool

        public init(specPath: String, out: String? = nil, threads: Int, shard: Shard? = nil, events: Bool = false,
                    force: Bool = false,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                    shouldStop: @escaping @Sendable () -> Bool = { false }) {
            self.specPath = specPath; self.out = out; self.threads = threads; self.shard = shard
            self.events = events; self.force = force; self.progress = progress; self.shouldStop = shouldStop
        }
    }

    public enum RunResult: Sendable, Equatable {
        case completed(directory: String, runs: Int, cost: RunCost)
        /// `--shard` found the shard already complete for this spec: nothing recomputed.
        case skipped(directory: String)
        case interrupted
    }

    /// The spec's runner after every check that needs the world (trace set
    /// values, app names, the memory estimate): what `run` simulates and
    /// `validate` describes, so the two accept exactly the same inputs.
    public static func prepare(_ spec: ExperimentSpec, threads: Int) throws -> Runner {
        let runner = try Runner(spec: spec)
        do { try WorldChecks.check(spec, traceHeader: runner.traceHeader, threads: threads) } catch {
            var e = error
            e.file = spec.file
            throw e
        }
        try DecisionProcessProvenance.checkHandshakes(spec)
        return runner
    }

    /// Default output directory for a spec: `Reports/<name>`.
    public static func defaultOutput(for spec: ExperimentSpec) -> String { "Reports/\(spec.name)" }

    /// Runs a spec with `tool`'s policies; the result names `tool`.
    public static func run(_ o: RunOptions, tool: ExperimentTool) throws -> RunResult {
        let spec = try ExperimentSpec.load(path: o.specPath, registry: tool.registry)
        let provenance = RunProvenance(tool)
        let out = o.out ?? defaultOutput(for: spec)
        // Every check first, so `run` fails exactly where `validate` does.
        let runner = try prepare(spec, threads: o.threads)
        if let users = o.eventUsers, o.events {
            try RunOptionError.checkEventUsers(users, ids: (0..<runner.users).map(runner.userID),
                                               generated: runner.traceHeader == nil)
        }
        let identity = try spec.identity(events: o.events, apps: o.apps, eventUsers: o.eventUsers)
        // A shard directory counts as complete for this spec only if every
        // file its shard.json lists is there with its recorded rows and
        // SHA-256; one that is not is re-run with --force, refused without.
        if let shard = o.shard, let marker = try? ShardMarker.read(directory: out),
           marker.identity == identity, marker.shard == shard {
            let problem: String?
            do { problem = try marker.problem(in: out) } catch { problem = "\(error)" }
            guard let problem else { return .skipped(directory: out) }
            if !o.force {
                throw OutputError(path: out, message: "holds shard \(shard) of this spec, but it is not complete: \(problem); give --force to run the shard again", refused: true)
            }
        }
        // The spec itself is an input too: `--out` may be inside its
        // directory, but never a directory holding it (`--force` would delete it).
        var inputs: [String] = [o.specPath]
        if case let .traces(dir) = spec.world { inputs.append(dir) }
        // What the decision processes are, hashed before the run (a script
        // edited during the run is not noticed).
        let decisionProcesses = try DecisionProcessProvenance.of(spec)
        let stage = try StagedDirectory(target: out, force: o.force, inputs: inputs)
        do {
            let start = Date(), usageBefore = ProcessUsage.now()
            guard let output = try runner.run(shard: o.shard ?? .whole, threads: o.threads,
                                              eventsPath: o.events ? stage.file("events.csv") : nil,
                                              eventUsers: o.eventUsers,
                                              appsPath: o.apps ? stage.file("apps.csv") : nil,
                                              digesting: o.shard != nil,
                                              shouldStop: o.shouldStop, progress: o.progress)
            else {
                stage.abort()
                // A failed policy stopped the run: its error, not "interrupted".
                if let failure = runner.policyFailure { throw failure }
                return .interrupted
            }
            let usage = ProcessUsage.now()
            let cost = RunCost(wallSeconds: Date().timeIntervalSince(start),
                               cpuSeconds: usage.cpuSeconds - usageBefore.cpuSeconds,
                               simulatedEvents: output.simulatedEvents, peakRSSBytes: usage.peakRSSBytes)
            if let shard = o.shard {
                let marker = ShardMarker(identity: identity, shard: shard, items: shard.items(of: runner.itemCount),
                                         totalItems: runner.itemCount, spec: spec.source, specPath: o.specPath,
                                         provenance: provenance,
                                         hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash, runs: ""),
                                         decisionProcesses: decisionProcesses)
                var streamed: [(name: String, digest: FileDigest)] = []
                if let d = output.eventsDigest { streamed.append(("events.csv", d)) }
                if let d = output.appsDigest { streamed.append(("apps.csv", d)) }
                try RunDirectory.writeShard(results: output.results, wakes: output.wakesByHour, marker: marker,
                                            streamed: streamed, to: stage.path)
            } else {
                let runsHash = try RunDirectory.writeFull(results: output.results, wakes: output.wakesByHour,
                                                          hasEvents: o.events, spec: spec, specPath: o.specPath,
                                                          producedBy: provenance, to: stage.path)
                try RunDirectory.writeManifest(spec: spec, specPath: o.specPath, producedBy: provenance,
                                               threads: o.threads, shards: [.whole],
                                               cost: cost, runs: output.results.rowCount,
                                               hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash,
                                                                     runs: runsHash ?? ""),
                                               to: stage.path, decisionProcesses: decisionProcesses)
            }
            try stage.commit()
            return .completed(directory: out, runs: output.results.rowCount, cost: cost)
        } catch {
            stage.abort()
            throw error
        }
    }

    /// Checks a spec against `registry`'s policies without running it (the
    /// same checks as `run`); returns a one-paragraph description.
    public static func validate(specPath: String, threads: Int, registry: PolicyRegistry) throws -> String {
        let spec = try ExperimentSpec.load(path: specPath, registry: registry)
        let runner = try prepare(spec, threads: threads)
        // Every row of a trace set, read as `run` reads it.
        try runner.checkTraceSet()
        let users: String
        switch spec.world {
        case let .generated(u, d, _): users = "\(u) users × \(d) days"
        case let .traces(dir):
            let synthesised = spec.traceSynthesis.map { "; \($0.streams.map(\.rawValue).joined(separator: ", ")) synthesised" } ?? ""
            users = "trace set \(dir) (\(runner.users) users × \(runner.traceHeader!.days) days\(synthesised))"
        }
        return "\(specPath): valid. \(spec.configurations.count) configurations (\(spec.configurations.map(\.label).joined(separator: "; "))) × \(users) × \(spec.replications) replication(s); baseline \(spec.configurations[spec.baseline].label)."
    }
}
