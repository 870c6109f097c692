import Foundation

/// The actions behind `bgbench run`, `merge`, `report` and `validate`, with
/// arguments already parsed. The CLI only parses and prints.
public enum ExperimentCommands {
    /// Options of `bgbench run`.
    public struct RunOptions: Sendable {
        public var specPath: String
        public var out: String?
        public var threads: Int
        public var shard: Shard?
        public var events: Bool
        /// Called with (done, total) as work items finish (from worker threads).
        public var progress: @Sendable (Int, Int) -> Void
        /// Polled by workers; true stops the run without writing anything.
        public var shouldStop: @Sendable () -> Bool

        public init(specPath: String, out: String? = nil, threads: Int, shard: Shard? = nil, events: Bool = false,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                    shouldStop: @escaping @Sendable () -> Bool = { false }) {
            self.specPath = specPath; self.out = out; self.threads = threads; self.shard = shard
            self.events = events; self.progress = progress; self.shouldStop = shouldStop
        }
    }

    public enum RunResult: Sendable, Equatable {
        case completed(directory: String, runs: Int, wallSeconds: Double)
        /// `--shard` found the shard already complete for this spec: nothing recomputed.
        case skipped(directory: String)
        case interrupted
    }

    /// The spec's runner after every check that needs the world (trace set
    /// values, app names, the memory estimate): what `run` simulates and
    /// `validate` describes, so the two accept exactly the same inputs.
    public static func prepare(_ spec: ExperimentSpec, threads: Int) throws -> Runner {
        let runner = try Runner(spec: spec)
        do { try WorldChecks.check(spec, traceSet: runner.traceSet, threads: threads) } catch {
            var e = error
            e.file = spec.file
            throw e
        }
        return runner
    }

    /// Default output directory for a spec: `Reports/<name>`.
    public static func defaultOutput(for spec: ExperimentSpec) -> String { "Reports/\(spec.name)" }

    public static func run(_ o: RunOptions) throws -> RunResult {
        let spec = try ExperimentSpec.load(path: o.specPath)
        let out = o.out ?? defaultOutput(for: spec)
        let identity = spec.identity(events: o.events)
        if let shard = o.shard, let marker = try ShardMarker.read(directory: out),
           marker.identity == identity, marker.shard == shard {
            return .skipped(directory: out)
        }
        let runner = try prepare(spec, threads: o.threads)
        let start = Date()
        guard let output = runner.run(shard: o.shard ?? .whole, threads: o.threads, events: o.events,
                                      shouldStop: o.shouldStop, progress: o.progress)
        else { return .interrupted }
        let wall = Date().timeIntervalSince(start)
        if let shard = o.shard {
            let marker = ShardMarker(identity: identity, shard: shard, items: shard.items(of: runner.itemCount),
                                     totalItems: runner.itemCount, spec: spec.source, specPath: o.specPath)
            try RunDirectory.writeShard(results: output.results, wakes: output.wakesByHour, events: output.events,
                                        marker: marker, to: out)
        } else {
            try RunDirectory.writeFull(results: output.results, wakes: output.wakesByHour, events: output.events,
                                       spec: spec, specPath: o.specPath, to: out)
            try RunDirectory.writeManifest(spec: spec, specPath: o.specPath, threads: o.threads, shards: [.whole],
                                           wallSeconds: wall, runs: output.results.rowCount, to: out)
        }
        return .completed(directory: out, runs: output.results.rowCount, wallSeconds: wall)
    }

    /// Why a set of shard directories cannot be merged.
    public struct MergeError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Combines complete shards into exactly the files an unsharded run writes.
    public static func merge(shardDirectories: [String], out: String, specPath: String? = nil) throws -> Int {
        guard !shardDirectories.isEmpty else { throw MergeError(message: "no shard directories given") }
        var markers: [(dir: String, marker: ShardMarker)] = []
        var missing: [String] = []
        for dir in shardDirectories {
            if let m = try ShardMarker.read(directory: dir) { markers.append((dir, m)) } else { missing.append(dir) }
        }
        if !missing.isEmpty {
            throw MergeError(message: "incomplete shard set: no shard.json (not run, failed or still running) in \(missing.joined(separator: ", ")); re-run those shards (Benchmarks/slurm/resubmit.sh) and merge again")
        }
        let first = markers[0].marker
        for (dir, m) in markers.dropFirst() {
            if m.identity != first.identity {
                var why: [String] = []
                if m.identity.version != first.identity.version { why.append("bgbench version \(m.identity.version) vs \(first.identity.version)") }
                if m.identity.specHash != first.identity.specHash { why.append("spec \(m.identity.specName) (hash \(m.identity.specHash)) vs \(first.identity.specName) (hash \(first.identity.specHash))") }
                if m.identity.seed != first.identity.seed { why.append("seed \(m.identity.seed) vs \(first.identity.seed)") }
                if m.identity.events != first.identity.events { why.append("--events on one and not the other") }
                throw MergeError(message: "inconsistent shards: \(dir) differs from \(markers[0].dir): \(why.joined(separator: "; ")); all shards must come from the same spec, seed and bgbench version")
            }
            if m.shard.count != first.shard.count {
                throw MergeError(message: "inconsistent shards: \(dir) is shard \(m.shard) but \(markers[0].dir) is shard \(first.shard); all shards must be split the same way")
            }
        }
        let n = first.shard.count
        var byIndex: [Int: String] = [:]
        for (dir, m) in markers {
            if let other = byIndex[m.shard.index] {
                throw MergeError(message: "shard \(m.shard) appears twice: \(other) and \(dir)")
            }
            byIndex[m.shard.index] = dir
        }
        let absent = (0..<n).filter { byIndex[$0] == nil }
        guard absent.isEmpty else {
            throw MergeError(message: "incomplete shard set: shards \(absent.map { "\($0)/\(n)" }.joined(separator: ", ")) missing; give all \(n) shard directories")
        }
        let spec = try ExperimentSpec.parse(first.spec.serialized())
        let labels = spec.configurations.map(\.label)
        var merged = ResultSet(configurations: labels, metrics: Runner.metrics)
        var events: String? = first.identity.events ? "" : nil
        var wakes = WakesByHour(configurations: labels)
        for i in 0..<n {
            let dir = byIndex[i]!
            let part = try ResultFiles.readRuns(path: (dir as NSString).appendingPathComponent("runs.csv"),
                                                configurations: labels, knownMetrics: Runner.metrics)
            guard part.metrics.map(\.name) == Runner.metrics.map(\.name) else {
                throw MergeError(message: "\(dir)/runs.csv has other metric columns than this bgbench writes")
            }
            for r in 0..<part.rowCount { merged.append(part.keys[r], Array(part.row(r))) }
            wakes.add(try WakesByHour.read(path: (dir as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                           configurations: labels))
            if events != nil {
                let path = (dir as NSString).appendingPathComponent("events.csv")
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw MergeError(message: "\(path): missing or unreadable, but the shards were run with --events")
                }
                events! += i == 0 ? text : String(text.drop { $0 != "\n" }.dropFirst())
            }
        }
        let expected = first.totalItems * labels.count
        guard merged.rowCount == expected else {
            throw MergeError(message: "the shards hold \(merged.rowCount) runs, the spec needs \(expected); a runs.csv was altered or truncated")
        }
        let path = specPath ?? first.specPath
        try RunDirectory.writeFull(results: merged, wakes: wakes, events: events, spec: spec, specPath: path, to: out)
        try RunDirectory.writeManifest(spec: spec, specPath: path, threads: 0, shards: markers.map(\.marker.shard).sorted { $0.index < $1.index },
                                       wallSeconds: 0, runs: merged.rowCount, to: out)
        return merged.rowCount
    }
}

extension ExperimentCommands {
    /// Re-renders `summary.csv`, `comparison.csv`, `report.md` and the plot
    /// of a finished run directory from its `runs.csv` and `manifest.json`
    /// (e.g. after changing the report code), without simulating anything.
    public static func report(directory: String) throws {
        let manifestPath = (directory as NSString).appendingPathComponent("manifest.json")
        guard let text = try? String(contentsOfFile: manifestPath, encoding: .utf8) else {
            throw MergeError(message: "\(manifestPath): missing or unreadable; is \(directory) the output of 'bgbench run' or 'bgbench merge'?")
        }
        let manifest: JSONValue
        do { manifest = try JSONParser.parse(text) } catch {
            throw InputFileError(file: manifestPath, line: error.line, message: error.message)
        }
        guard let source = manifest["spec"], case let .string(specPath)? = manifest["spec_path"] else {
            throw InputFileError(file: manifestPath, line: nil, message: "expected \"spec\" and \"spec_path\" keys")
        }
        var spec: ExperimentSpec
        do { spec = try ExperimentSpec.parse(source.serialized()) } catch {
            var e = error
            e.file = manifestPath
            throw e
        }
        spec.file = specPath
        let results = try ResultFiles.readRuns(path: (directory as NSString).appendingPathComponent("runs.csv"),
                                               configurations: spec.configurations.map(\.label),
                                               knownMetrics: Runner.metrics)
        let wakes = try WakesByHour.read(path: (directory as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                         configurations: spec.configurations.map(\.label))
        let eventsPath = (directory as NSString).appendingPathComponent("events.csv")
        try RunDirectory.writeFull(results: results, wakes: wakes, events: nil, spec: spec, specPath: specPath, to: directory,
                                   eventsPresent: FileManager.default.fileExists(atPath: eventsPath))
    }

    /// Checks a spec without running it; returns a one-paragraph description.
    public static func validate(specPath: String, threads: Int) throws -> String {
        let spec = try ExperimentSpec.load(path: specPath)
        let runner = try prepare(spec, threads: threads)
        let users: String
        switch spec.world {
        case let .generated(u, d, _): users = "\(u) users × \(d) days"
        case let .traces(dir): users = "trace set \(dir) (\(runner.users) users × \(runner.traceSet!.days) days)"
        }
        return "\(specPath): valid. \(spec.configurations.count) configurations (\(spec.configurations.map(\.label).joined(separator: "; "))) × \(users) × \(spec.replications) replication(s); baseline \(spec.configurations[spec.baseline].label)."
    }
}
