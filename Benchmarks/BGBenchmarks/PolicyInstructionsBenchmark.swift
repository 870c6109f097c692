// What each configuration of the default suite costs per simulated event
// in instructions, against greedy: the figure the speed targets of
// Docs/Performance.md are stated in, and one that does not depend on the
// machine's neighbours (CPU time on a shared machine does). Each
// configuration is run alone, on one thread, on the default world cut to
// 40 users × 7 days (`--days` for another length: the default suite's
// own is 14), as its own `bgbench run` process under `valgrind
// --tool=cachegrind --cache-sim=no`, which counts every instruction the
// process executes. One op = one simulated event (`simulated_events` in
// the run's manifest).
//
// Two figures per configuration. The whole process's count charges each
// configuration for generating its users (which a suite does once for all
// its configurations), and model-bound for their models too: the same
// charge whatever the policy does, so it weighs most where a policy causes
// few events (never, the oracles, the learning policies). The row's figure
// takes that world off, as `policy-cost` does with CPU time: the
// instructions of generating the same users (and, for a configuration
// that knows the model, their models) in a process that does nothing
// else (`BGBenchmarks --generate-world`, less the same process generating
// none). What is left is start-up, the simulator and the policy.
//
// Slow (about 3 minutes for all 24 configurations, each under valgrind),
// so it runs only when named: `make bench-instructions` or
// `BGBenchmarks --filter policy-instructions`. It needs `valgrind` and
// the release `bgbench` next to this executable (the make target builds
// and installs both).
import Experiments
import Foundation
import Traces

extension BenchmarkFamily {
    static let policyInstructions = BenchmarkFamily(
        name: "policy-instructions",
        summary: "one simulated event of a configuration (default suite's configurations alone, 1 thread, default world, 40 users × 7 days or --days), instructions (valgrind), the world's generation taken off",
        candidateTitle: "instr/event", baselineTitle: "greedy instr/event", runsByDefault: false
    ) {
        selectedSizes([40]).flatMap { users -> [Measurement] in
            let suite = defaultSuite(users: users, days: instructionDays)
            let json = defaultSuiteJSON(users: users, days: instructionDays)
            let counter = InstructionCounter()
            defer { try? FileManager.default.removeItem(at: counter.directory) }
            let startUp = counter.count(generating: .none, users: users)
            let traces = counter.count(generating: .traces, users: users) - startUp
            let models = counter.count(generating: .models, users: users) - startUp
            let runs = suite.configurations.map { counter.count(oneConfiguration: $0, of: json) }
            func world(_ c: Int) -> Int { traces + (suite.knowsModel(suite.configurations[c]) ? models : 0) }
            func perEvent(_ c: Int) -> Double { Double(runs[c].instructions - world(c)) / Double(max(1, runs[c].events)) }
            guard let g = suite.configurations.firstIndex(where: { $0.label == "greedy" }) else {
                fatalError("the default suite has no greedy configuration: update PolicyInstructionsBenchmark")
            }
            let greedy = perEvent(g), greedyWhole = Double(runs[g].instructions) / Double(runs[g].events)
            let rows = suite.configurations.indices.map { c in
                let whole = Double(runs[c].instructions) / Double(max(1, runs[c].events))
                let note = String(format: "%@: %.2f × greedy (%.0f M instructions, %.0f M of them the world, %d events; whole process %.2f × greedy)",
                                  suite.configurations[c].label, perEvent(c) / greedy, Double(runs[c].instructions) / 1e6,
                                  Double(world(c)) / 1e6, runs[c].events, whole / greedyWhole)
                return Measurement(benchmark: "policy-instructions-\(suite.configurations[c].label)", n: users,
                                   operations: runs[c].events, nsPerOp: perEvent(c), baselineNsPerOp: greedy,
                                   bytesPerEvent: nil, note: note)
            }
            // A family of several configurations (a policy's grid) also as
            // one row, as `policy-cost` reports it: its instructions over
            // its events, the world taken off each run.
            var families: [(name: String, members: [Int])] = []
            for c in suite.configurations.indices {
                let name = suite.configurations[c].family
                if let f = families.firstIndex(where: { $0.name == name }) { families[f].members.append(c) } else {
                    families.append((name, [c]))
                }
            }
            let familyRows = families.filter { $0.members.count > 1 }.map { family in
                let instructions = family.members.reduce(0) { $0 + runs[$1].instructions - world($1) }
                let events = family.members.reduce(0) { $0 + runs[$1].events }
                let perEvent = Double(instructions) / Double(max(1, events))
                let note = String(format: "%@ (%d configurations, every one's events): %.2f × greedy",
                                  family.name, family.members.count, perEvent / greedy)
                return Measurement(benchmark: "policy-instructions-family-\(family.name)", n: users, operations: events,
                                   nsPerOp: perEvent, baselineNsPerOp: greedy, bytesPerEvent: nil, note: note)
            }
            return rows + familyRows
        }
    }
}

/// Days of the world `policy-instructions` simulates (`--days`).
nonisolated(unsafe) var instructionDays = 7

/// What `BGBenchmarks --generate-world KIND USERS` generates of the default
/// suite's world (cut to USERS users × `instructionDays`), and nothing else: counted
/// under valgrind, the difference to `none` (which reads the suite too) is
/// the instructions of generating the users' traces, or their models.
enum WorldGeneration: String {
    case none, traces, models

    func generate(users: Int) -> UInt64 {
        let suite = defaultSuite(users: users, days: instructionDays)
        switch self {
        case .none: return UInt64(suite.configurations.count)
        case .traces: return generateWorld(of: suite, models: false)
        case .models: return generateWorld(of: suite, models: true)
        }
    }
}

/// `Benchmarks/suites/default.json` as a JSON value, its population cut
/// to `users` × `days` (the same cut as ``defaultSuite(users:days:)``).
private func defaultSuiteJSON(users: Int, days: Int) -> JSONValue {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("suites/default.json")
    guard let text = try? String(contentsOf: url, encoding: .utf8), let json = try? JSONParser.parse(text) else {
        fatalError("cannot read \(url.path) as JSON")
    }
    return json.replacing("population", with: .object([(key: "users", value: .number(Double(users))), (key: "days", value: .number(Double(days)))]))
}

/// Runs `bgbench` under valgrind and reads back what it counted.
private struct InstructionCounter {
    let bgbench: URL
    let directory: URL

    init() {
        bgbench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("bgbench")
        guard FileManager.default.isExecutableFile(atPath: bgbench.path) else {
            fatalError("policy-instructions needs the release bgbench at \(bgbench.path): run `make bench-instructions`")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgbench-instructions-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The instructions and events of `configuration` run alone: the suite
    /// `suite` with only that configuration (as its baseline) in it.
    func count(oneConfiguration configuration: ExperimentConfiguration, of suite: JSONValue) -> (instructions: Int, events: Int) {
        guard case let .object(policy) = configuration.policy else { fatalError("a configuration's policy is not an object") }
        let spec = suite
            .replacing("policies", with: .array([.object(policy + [(key: "label", value: .string(configuration.label))])]))
            .replacing("baseline", with: .string(configuration.label))
        let specFile = directory.appendingPathComponent("spec.json"), out = directory.appendingPathComponent("out")
        do {
            try spec.serialized(pretty: true).write(to: specFile, atomically: true, encoding: .utf8)
        } catch {
            fatalError("cannot write \(specFile.path): \(error)")
        }
        let instructions = counted(bgbench, ["run", specFile.path, "--out", out.path, "--force", "--threads", "1", "--quiet"],
                                   label: configuration.label)
        return (instructions, Self.simulatedEvents(in: out))
    }

    /// The instructions of this benchmark process generating `world` for
    /// `users` users and nothing else.
    func count(generating world: WorldGeneration, users: Int) -> Int {
        counted(URL(fileURLWithPath: CommandLine.arguments[0]), ["--days", "\(instructionDays)", "--generate-world", world.rawValue, "\(users)"],
                label: "generating \(world.rawValue)")
    }

    /// Runs `executable arguments` under cachegrind; the instructions it executed.
    private func counted(_ executable: URL, _ arguments: [String], label: String) -> Int {
        let countFile = directory.appendingPathComponent("cachegrind.out"), log = directory.appendingPathComponent("valgrind.log")
        // valgrind's own chatter (cache warnings even without the cache
        // simulation) and the program's messages go to a log shown on failure.
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let valgrind = Process()
        valgrind.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        valgrind.arguments = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=\(countFile.path)",
                              executable.path] + arguments
        valgrind.standardError = try? FileHandle(forWritingTo: log)
        do {
            try valgrind.run()
        } catch {
            fatalError("cannot start valgrind (`apt-get install valgrind`, or `make bench-instructions`): \(error)")
        }
        valgrind.waitUntilExit()
        guard valgrind.terminationStatus == 0 else {
            let messages = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            fatalError("valgrind, \(label), exited with \(valgrind.terminationStatus):\n\(messages)")
        }
        return Self.summary(of: countFile)
    }

    /// The `summary:` line of a cachegrind output file: instructions executed.
    static func summary(of file: URL) -> Int {
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("summary:") }),
              let count = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            fatalError("no summary line in \(file.path)")
        }
        return count
    }

    /// `simulated_events` of the run written to `out`.
    static func simulatedEvents(in out: URL) -> Int {
        let manifest = out.appendingPathComponent("manifest.json")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8), let json = try? JSONParser.parse(text),
              case let .number(events)? = json["simulated_events"] else {
            fatalError("no simulated_events in \(manifest.path)")
        }
        return Int(events)
    }
}

private extension JSONValue {
    /// The object with the value under `key` replaced (or appended).
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case var .object(pairs) = self else { fatalError("not a JSON object") }
        if let i = pairs.firstIndex(where: { $0.key == key }) { pairs[i].value = value } else { pairs.append((key: key, value: value)) }
        return .object(pairs)
    }
}
