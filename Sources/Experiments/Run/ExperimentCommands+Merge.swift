import Foundation

/// `bgbench merge`: shards into the unsharded result, verified.
extension ExperimentCommands {
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
                if m.identity.apps != first.identity.apps { why.append("--apps on one and not the other") }
                if m.identity.eventUsers != first.identity.eventUsers {
                    why.append("--events-users \(m.identity.eventUsers ?? "(all)") vs \(first.identity.eventUsers ?? "(all)")")
                }
                throw MergeError(message: "inconsistent shards: \(dir) differs from \(markers[0].dir): \(why.joined(separator: "; ")); all shards must come from the same spec, data, seed and bgbench version")
            }
            if let a = m.provenance, let b = first.provenance, a.registryFingerprint != b.registryFingerprint {
                throw MergeError(message: "inconsistent shards: \(dir) was run by \(a.executable) with policy registry \(a.registryFingerprint), \(markers[0].dir) by \(b.executable) with \(b.registryFingerprint); run all shards with the same executable")
            }
            if let why = DecisionProcessProvenance.mismatch(m.decisionProcesses, dir, first.decisionProcesses, markers[0].dir) {
                throw MergeError(message: "inconsistent shards: different decision processes: \(why); run all shards with the same scripts and interpreter")
            }
            if m.shard.count != first.shard.count {
                throw MergeError(message: "inconsistent shards: \(dir) is shard \(m.shard) but \(markers[0].dir) is shard \(first.shard); all shards must be split the same way")
            }
        }
        let n = first.shard.count
        var byIndex: [Int: String] = [:]
        for (dir, m) in markers {
            if let other = byIndex[m.shard.index] {
                throw MergeError(message: other == dir
                    ? "the shard directory \(dir) (shard \(m.shard)) is given twice; give each shard directory once"
                    : "shard \(m.shard) appears twice: in \(other) and in \(dir); give one directory per shard")
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
        // Every file each shard carries, against its shard.json (rows and
        // SHA-256), before anything is read into the result or written.
        for (dir, m) in markers {
            if let problem = try m.problem(in: dir) {
                throw MergeError(message: "\(problem); re-run that shard (bgbench run --shard \(m.shard) --force)")
            }
        }
        var merged = ResultSet(configurations: labels, metrics: Runner.metrics(for: spec))
        var wakes = WakesByHour(configurations: labels)
        // Which shard each run came from, so a run in two shards names both.
        var source: [RunKey: String] = [:]
        for i in 0..<n {
            let dir = byIndex[i]!
            let runsPath = (dir as NSString).appendingPathComponent("runs.csv")
            let part = try ResultFiles.readRuns(path: runsPath, configurations: labels, knownMetrics: Runner.metrics(for: spec))
            guard part.metrics.map(\.name) == Runner.metrics(for: spec).map(\.name) else {
                throw MergeError(message: "\(runsPath) has other metric columns than this bgbench writes")
            }
            for r in 0..<part.rowCount {
                let key = part.keys[r]
                if let other = source.updateValue(runsPath, forKey: key) {
                    let run = "configuration \"\(labels[key.configuration])\", replication \(key.replication), user \(key.user)"
                    throw MergeError(message: other == runsPath
                        ? "\(runsPath): \(run) appears more than once in this shard"
                        : "\(run) appears more than once: in \(other) and in \(runsPath); each run belongs to one shard")
                }
                merged.append(key, Array(part.row(r)))
            }
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
            if first.identity.apps {
                try concatenateEvents((0..<n).map { byIndex[$0]! }, to: stage.file("apps.csv"),
                                      file: "apps.csv", flag: "--apps")
            }
            let path = specPath ?? first.specPath
            let runsHash = try RunDirectory.writeFull(results: merged, wakes: wakes, hasEvents: first.identity.events,
                                                      spec: spec, specPath: path, producedBy: provenance, to: stage.path)
            try RunDirectory.writeManifest(spec: spec, specPath: path, producedBy: provenance, threads: 0,
                                           shards: markers.map(\.marker.shard).sorted { $0.index < $1.index },
                                           cost: .none, runs: merged.rowCount,
                                           hashes: ContentHashes(spec: first.identity.specHash, data: first.identity.dataHash,
                                                                 runs: runsHash ?? ""),
                                           to: stage.path, decisionProcesses: first.decisionProcesses)
            try stage.commit()
        } catch {
            stage.abort()
            throw error
        }
        return merged.rowCount
    }

    /// The shards' `events.csv` files one after the other, the header once,
    /// copied in blocks (never a whole file in memory).
    /// (`file`: `apps.csv` the same way.)
    static func concatenateEvents(_ dirs: [String], to path: String, file: String = "events.csv",
                                  flag: String = "--events") throws {
        var out = try OutputStreamFile(path: path)
        for (i, dir) in dirs.enumerated() {
            let source = (dir as NSString).appendingPathComponent(file)
            let fd = open(source, O_RDONLY)
            guard fd >= 0 else {
                throw MergeError(message: "\(source): cannot open (\(InputText.errnoText())), but the shards were run with \(flag)")
            }
            defer { close(fd) }
            var skippingHeader = i > 0
            try InputText.forEachBlock(of: fd, path: source) { block in
                var start = block.startIndex
                if skippingHeader {
                    guard let nl = block.firstIndex(of: UInt8(ascii: "\n")) else { return }
                    start = nl + 1
                    skippingHeader = false
                }
                out.append(bytes: block[start...])
            }
        }
        try out.close()
    }
}
