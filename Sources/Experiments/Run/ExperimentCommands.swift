import Foundation
import Policies

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

    /// Default output directory for a spec: `Reports/<name>`.
    public static func defaultOutput(for spec: ExperimentSpec) -> String { "Reports/\(spec.name)" }

    /// Runs a spec with `tool`'s policies; the result names `tool`.
    public static func run(_ o: RunOptions, tool: ExperimentTool) throws -> RunResult {
        let spec = try ExperimentSpec.load(path: o.specPath, registry: tool.registry)
        let provenance = RunProvenance(tool)
        let out = o.out ?? defaultOutput(for: spec)
        let identity = spec.identity(events: o.events)
        if let shard = o.shard, let marker = try ShardMarker.read(directory: out),
           marker.identity == identity, marker.shard == shard {
            return .skipped(directory: out)
        }
        let runner = try Runner(spec: spec)
        let start = Date()
        guard let output = runner.run(shard: o.shard ?? .whole, threads: o.threads, events: o.events,
                                      shouldStop: o.shouldStop, progress: o.progress)
        else {
            // A failed policy stopped the run: its error, not "interrupted".
            if let failure = runner.policyFailure { throw failure }
            return .interrupted
        }
        let wall = Date().timeIntervalSince(start)
        if let shard = o.shard {
            let marker = ShardMarker(identity: identity, shard: shard, items: shard.items(of: runner.itemCount),
                                     totalItems: runner.itemCount, spec: spec.source, specPath: o.specPath,
                                     provenance: provenance)
            try RunDirectory.writeShard(results: output.results, wakes: output.wakesByHour, events: output.events,
                                        marker: marker, to: out)
        } else {
            try RunDirectory.writeFull(results: output.results, wakes: output.wakesByHour, events: output.events,
                                       spec: spec, specPath: o.specPath, producedBy: provenance, to: out)
            try RunDirectory.writeManifest(spec: spec, specPath: o.specPath, producedBy: provenance,
                                           threads: o.threads, shards: [.whole],
                                           wallSeconds: wall, runs: output.results.rowCount, to: out)
        }
        return .completed(directory: out, runs: output.results.rowCount, wallSeconds: wall)
    }

    /// Why a set of shard directories cannot be merged.
    public struct MergeError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Combines complete shards into exactly the files an unsharded run
    /// writes. The spec is read with `tool`'s policies; the result names the
    /// executable and registry that ran the shards (all must agree).
    public static func merge(shardDirectories: [String], out: String, specPath: String? = nil,
                             tool: ExperimentTool) throws -> Int {
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
            if let a = m.provenance, let b = first.provenance, a.registryFingerprint != b.registryFingerprint {
                throw MergeError(message: "inconsistent shards: \(dir) was run by \(a.executable) with policy registry \(a.registryFingerprint), \(markers[0].dir) by \(b.executable) with \(b.registryFingerprint); run all shards with the same executable")
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
        let spec = try ExperimentSpec.parse(first.spec.serialized(), registry: tool.registry)
        let provenance = first.provenance ?? RunProvenance(tool)
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
        try RunDirectory.writeFull(results: merged, wakes: wakes, events: events, spec: spec, specPath: path,
                                   producedBy: provenance, to: out)
        try RunDirectory.writeManifest(spec: spec, specPath: path, producedBy: provenance, threads: 0, shards: markers.map(\.marker.shard).sorted { $0.index < $1.index },
                                       wallSeconds: 0, runs: merged.rowCount, to: out)
        return merged.rowCount
    }
}

extension ExperimentCommands {
    /// Re-renders `summary.csv`, `comparison.csv`, `report.md` and the plot
    /// of a finished run directory from its `runs.csv` and `manifest.json`
    /// (e.g. after changing the report code), without simulating anything.
    /// The spec is read with `tool`'s policies; the report keeps naming the
    /// executable and registry the manifest records.
    public static func report(directory: String, tool: ExperimentTool) throws {
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
        let provenance = RunProvenance(json: manifest) ?? RunProvenance(tool)
        var spec: ExperimentSpec
        do { spec = try ExperimentSpec.parse(source.serialized(), registry: tool.registry) } catch {
            var e = error
            e.file = manifestPath
            if provenance.registryFingerprint != tool.registry.fingerprint {
                e.message += " (this run was made by \(provenance.executable) with policy registry \(provenance.registryFingerprint); re-render it with that executable)"
            }
            throw e
        }
        spec.file = specPath
        let results = try ResultFiles.readRuns(path: (directory as NSString).appendingPathComponent("runs.csv"),
                                               configurations: spec.configurations.map(\.label),
                                               knownMetrics: Runner.metrics)
        let wakes = try WakesByHour.read(path: (directory as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                         configurations: spec.configurations.map(\.label))
        let eventsPath = (directory as NSString).appendingPathComponent("events.csv")
        try RunDirectory.writeFull(results: results, wakes: wakes, events: nil, spec: spec, specPath: specPath,
                                   producedBy: provenance, to: directory,
                                   eventsPresent: FileManager.default.fileExists(atPath: eventsPath))
    }

    /// Checks a spec against `registry`'s policies without running it;
    /// returns a one-paragraph description.
    public static func validate(specPath: String, registry: PolicyRegistry) throws -> String {
        let spec = try ExperimentSpec.load(path: specPath, registry: registry)
        let users: String
        switch spec.world {
        case let .generated(u, d, _): users = "\(u) users × \(d) days"
        case let .traces(dir):
            _ = try Runner(spec: spec)  // reads the trace set strictly
            users = "trace set \(dir)"
        }
        return "\(specPath): valid. \(spec.configurations.count) configurations (\(spec.configurations.map(\.label).joined(separator: "; "))) × \(users) × \(spec.replications) replication(s); baseline \(spec.configurations[spec.baseline].label)."
    }
}
