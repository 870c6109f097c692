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

    /// Runs a spec with `tool`'s policies; the result names `tool`.
    public static func run(_ o: RunOptions, tool: ExperimentTool) throws -> RunResult {
        let spec = try ExperimentSpec.load(path: o.specPath, registry: tool.registry)
        let provenance = RunProvenance(tool)
        let out = o.out ?? defaultOutput(for: spec)
        // Every check first, so `run` fails exactly where `validate` does.
        let runner = try prepare(spec, threads: o.threads)
        let identity = try spec.identity(events: o.events)
        if let shard = o.shard, let marker = try? ShardMarker.read(directory: out),
           marker.identity == identity, marker.shard == shard {
            return .skipped(directory: out)
        }
        // The spec itself is an input too: `--out` may be inside its
        // directory, but never a directory holding it (`--force` would delete it).
        var inputs: [String] = [o.specPath]
        if case let .traces(dir) = spec.world { inputs.append(dir) }
        let stage = try StagedDirectory(target: out, force: o.force, inputs: inputs)
        do {
            let start = Date()
            guard let output = try runner.run(shard: o.shard ?? .whole, threads: o.threads,
                                              eventsPath: o.events ? stage.file("events.csv") : nil,
                                              shouldStop: o.shouldStop, progress: o.progress)
            else {
                stage.abort()
                // A failed policy stopped the run: its error, not "interrupted".
                if let failure = runner.policyFailure { throw failure }
                return .interrupted
            }
            let wall = Date().timeIntervalSince(start)
            if let shard = o.shard {
                let marker = ShardMarker(identity: identity, shard: shard, items: shard.items(of: runner.itemCount),
                                         totalItems: runner.itemCount, spec: spec.source, specPath: o.specPath,
                                         provenance: provenance,
                                         hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash, runs: ""))
                try RunDirectory.writeShard(results: output.results, wakes: output.wakesByHour, marker: marker, to: stage.path)
            } else {
                let runsHash = try RunDirectory.writeFull(results: output.results, wakes: output.wakesByHour,
                                                          hasEvents: o.events, spec: spec, specPath: o.specPath,
                                                          producedBy: provenance, to: stage.path)
                try RunDirectory.writeManifest(spec: spec, specPath: o.specPath, producedBy: provenance,
                                               threads: o.threads, shards: [.whole],
                                               wallSeconds: wall, runs: output.results.rowCount,
                                               hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash,
                                                                     runs: runsHash ?? ""),
                                               to: stage.path)
            }
            try stage.commit()
            return .completed(directory: out, runs: output.results.rowCount, wallSeconds: wall)
        } catch {
            stage.abort()
            throw error
        }
    }

    /// Why a set of shard directories cannot be merged.
    public struct MergeError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Combines complete shards into exactly the files an unsharded run
    /// writes, after checking that they come from one spec, one world, one
    /// bgbench version and one policy registry, that no runs.csv was edited
    /// since its shard wrote it, and that every (configuration, replication,
    /// user) is there once. The spec is read with `tool`'s policies; the
    /// result names the executable and registry that ran the shards.
    public static func merge(shardDirectories: [String], out: String, specPath: String? = nil,
                             force: Bool = false, tool: ExperimentTool) throws -> Int {
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
                if m.identity.specHash != first.identity.specHash { why.append("spec \(m.identity.specName) (sha256 \(m.identity.specHash.prefix(16))…) vs \(first.identity.specName) (sha256 \(first.identity.specHash.prefix(16))…)") }
                if m.identity.dataHash != first.identity.dataHash { why.append("the trace data or generator parameters differ (sha256 \(m.identity.dataHash.prefix(16))… vs \(first.identity.dataHash.prefix(16))…)") }
                if m.identity.seed != first.identity.seed { why.append("seed \(m.identity.seed) vs \(first.identity.seed)") }
                if m.identity.events != first.identity.events { why.append("--events on one and not the other") }
                throw MergeError(message: "inconsistent shards: \(dir) differs from \(markers[0].dir): \(why.joined(separator: "; ")); all shards must come from the same spec, data, seed and bgbench version")
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
        var wakes = WakesByHour(configurations: labels)
        for i in 0..<n {
            let dir = byIndex[i]!
            let runsPath = (dir as NSString).appendingPathComponent("runs.csv")
            let hash = try ContentHashes.file(runsPath)
            guard hash == byIndex[i].flatMap({ d in markers.first { $0.dir == d }?.marker.hashes.runs }) else {
                throw MergeError(message: "\(runsPath): its SHA-256 is not the one its shard.json recorded; the file was edited or truncated after the shard ran; re-run that shard")
            }
            let part = try ResultFiles.readRuns(path: runsPath, configurations: labels, knownMetrics: Runner.metrics)
            guard part.metrics.map(\.name) == Runner.metrics.map(\.name) else {
                throw MergeError(message: "\(runsPath) has other metric columns than this bgbench writes")
            }
            for r in 0..<part.rowCount { merged.append(part.keys[r], Array(part.row(r))) }
            wakes.add(try WakesByHour.read(path: (dir as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                           configurations: labels))
        }
        if let problem = RunsCheck.problem(merged, items: first.totalItems) {
            throw MergeError(message: "the shards do not hold each run exactly once: \(problem)")
        }
        let stage = try StagedDirectory(target: out, force: force, inputs: shardDirectories)
        do {
            if first.identity.events {
                try concatenateEvents((0..<n).map { byIndex[$0]! }, to: stage.file("events.csv"))
            }
            let path = specPath ?? first.specPath
            let runsHash = try RunDirectory.writeFull(results: merged, wakes: wakes, hasEvents: first.identity.events,
                                                      spec: spec, specPath: path, producedBy: provenance, to: stage.path)
            try RunDirectory.writeManifest(spec: spec, specPath: path, producedBy: provenance, threads: 0,
                                           shards: markers.map(\.marker.shard).sorted { $0.index < $1.index },
                                           wallSeconds: 0, runs: merged.rowCount,
                                           hashes: ContentHashes(spec: first.identity.specHash, data: first.identity.dataHash,
                                                                 runs: runsHash ?? ""),
                                           to: stage.path)
            try stage.commit()
        } catch {
            stage.abort()
            throw error
        }
        return merged.rowCount
    }

    /// The shards' `events.csv` files one after the other, the header once,
    /// copied in blocks (never a whole file in memory).
    static func concatenateEvents(_ dirs: [String], to path: String) throws {
        var out = try OutputStreamFile(path: path)
        for (i, dir) in dirs.enumerated() {
            let source = (dir as NSString).appendingPathComponent("events.csv")
            let fd = open(source, O_RDONLY)
            guard fd >= 0 else {
                throw MergeError(message: "\(source): cannot open (\(InputText.errnoText())), but the shards were run with --events")
            }
            defer { close(fd) }
            var skippingHeader = i > 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw InputFileError(file: source, line: nil, message: "cannot read (\(InputText.errnoText()))") }
                if n == 0 { break }
                var start = 0
                if skippingHeader {
                    guard let nl = chunk[0..<n].firstIndex(of: UInt8(ascii: "\n")) else { continue }
                    start = nl + 1
                    skippingHeader = false
                }
                out.append(bytes: chunk[start..<n])
            }
        }
        try out.close()
    }
}

extension ExperimentCommands {
    /// Re-renders `summary.csv`, `comparison.csv`, `report.md` and the plot
    /// of a finished run directory from its `runs.csv` and `manifest.json`
    /// (e.g. after changing the report code), without simulating anything.
    ///
    /// `runs.csv` is checked first against the manifest (its SHA-256, and
    /// every run present exactly once); the directory is then rebuilt in a
    /// staging directory (the kept files linked, not copied) and swapped in
    /// whole, so an interrupted report leaves the old one intact. The spec
    /// is read with `tool`'s policies; the report keeps naming the
    /// executable and registry the manifest records.
    public static func report(directory: String, tool: ExperimentTool) throws {
        let manifestPath = (directory as NSString).appendingPathComponent("manifest.json")
        let text: String
        do { text = try InputText.read(manifestPath) } catch {
            throw MergeError(message: "\(error); is \(directory) the output of 'bgbench run' or 'bgbench merge'?")
        }
        let manifest: JSONValue
        do { manifest = try JSONParser.parse(text) } catch {
            throw InputFileError(file: manifestPath, line: error.line, message: error.message)
        }
        guard let source = manifest["spec"], case let .string(specPath)? = manifest["spec_path"],
              case let .number(runs)? = manifest["runs"],
              case let .string(runsHash)? = manifest["hashes"]?["runs_sha256"] else {
            throw InputFileError(file: manifestPath, line: nil, message: "expected \"spec\", \"spec_path\", \"runs\" and \"hashes\".\"runs_sha256\" (a manifest from an older bgbench has no hashes: run again)")
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
        let runsPath = (directory as NSString).appendingPathComponent("runs.csv")
        guard try ContentHashes.file(runsPath) == runsHash else {
            throw MergeError(message: "\(runsPath): its SHA-256 is not the one manifest.json recorded; runs.csv was edited, truncated or replaced after the run; run again rather than report from it")
        }
        let results = try ResultFiles.readRuns(path: runsPath, configurations: spec.configurations.map(\.label),
                                               knownMetrics: Runner.metrics)
        let labels = spec.configurations.map(\.label)
        if let problem = RunsCheck.problem(results, items: labels.isEmpty ? 0 : Int(runs) / labels.count) {
            throw MergeError(message: "\(runsPath): \(problem)")
        }
        let wakes = try WakesByHour.read(path: (directory as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                         configurations: labels)
        let eventsPresent = FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("events.csv"))
        let stage = try StagedDirectory(target: directory, force: true)
        do {
            // Everything but the re-rendered files is kept (linked, so a large events.csv is not copied).
            let rendered: Set<String> = ["summary.csv", "comparison.csv", "efficiency.csv", "wakes_by_hour.csv",
                                         "freshness_vs_energy.svg", "wakes_by_hour.svg", "report.md"]
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for kept in entries.sorted() where !rendered.contains(kept) {
                let from = (directory as NSString).appendingPathComponent(kept)
                if link(from, stage.file(kept)) != 0 {
                    let reason = InputText.errnoText()
                    do { try FileManager.default.copyItem(atPath: from, toPath: stage.file(kept)) } catch {
                        throw OutputError(path: stage.file(kept), message: "cannot link or copy \(from) (\(reason))")
                    }
                }
            }
            try RunDirectory.writeFull(results: results, wakes: wakes, hasEvents: eventsPresent, spec: spec,
                                       specPath: specPath, producedBy: provenance, to: stage.path, writeRuns: false)
            try stage.commit()
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
        let users: String
        switch spec.world {
        case let .generated(u, d, _): users = "\(u) users × \(d) days"
        case let .traces(dir): users = "trace set \(dir) (\(runner.users) users × \(runner.traceSet!.days) days)"
        }
        return "\(specPath): valid. \(spec.configurations.count) configurations (\(spec.configurations.map(\.label).joined(separator: "; "))) × \(users) × \(spec.replications) replication(s); baseline \(spec.configurations[spec.baseline].label)."
    }
}
