import Foundation
import Traces

/// What identifies an experiment's results: the merge refuses to combine
/// shards whose identity differs (another spec, seed or bgbench version).
public struct RunIdentity: Sendable, Equatable {
    public var version: String
    public var specName: String
    /// SHA-256 of the spec's canonical serialization (keys in file order).
    public var specHash: String
    /// SHA-256 of the world: the trace set's files, or the generator's parameters.
    public var dataHash: String
    public var seed: UInt64
    public var events: Bool
    /// `apps.csv` written (`--apps`).
    public var apps: Bool = false
    /// The users `events.csv` logs (`--events-users`, canonical form); nil: all.
    public var eventUsers: String? = nil
}

public enum BGBenchVersion {
    /// Bumped with every change that can alter results.
    public static let current = "0.1.0"

    /// The Swift compiler this binary was built with.
    public static var toolchain: String {
        #if compiler(>=6.4)
        "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        "Swift 6.3"
        #elseif compiler(>=6.2)
        "Swift 6.2"
        #elseif compiler(>=6.1)
        "Swift 6.1"
        #else
        "Swift 6.0"
        #endif
    }
}

extension ExperimentSpec {
    public func identity(events: Bool, apps: Bool = false, eventUsers: UserSelection? = nil) throws(InputFileError) -> RunIdentity {
        RunIdentity(version: BGBenchVersion.current, specName: name, specHash: SHA256.hex(source.serialized()),
                    dataHash: try ContentHashes.data(of: world), seed: seed, events: events, apps: apps,
                    eventUsers: events ? eventUsers?.description : nil)
    }
}

/// The content hashes (SHA-256, hex) a result records: of the spec, of the
/// world it ran on and of its `runs.csv`. `report` recomputes the last
/// before rendering; `merge` requires equal spec and data hashes across
/// shards and checks each shard's `runs.csv` against its own.
public struct ContentHashes: Sendable, Equatable {
    public var spec: String
    public var data: String
    public var runs: String

    func json() -> JSONValue {
        .object([("spec_sha256", .string(spec)), ("data_sha256", .string(data)), ("runs_sha256", .string(runs))])
    }

    /// The hash of a world. A trace set: every regular, non-hidden file of
    /// the directory in name order, each as its name, a NUL, its length in
    /// decimal, a NUL and its bytes. A generated world: the users, days and
    /// the generator parameters as decoded (every default filled in), so two
    /// spellings of the same parameters hash alike.
    public static func data(of world: ExperimentSpec.World) throws(InputFileError) -> String {
        var h = SHA256()
        switch world {
        case let .generated(users, days, parameters):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = (try? encoder.encode(parameters)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            h.update("generated users=\(users) days=\(days) generator=\(json)")
        case let .traces(directory):
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.sorted() } catch {
                throw InputFileError(file: directory, line: nil, message: "cannot list the trace set (\(error.localizedDescription))")
            }
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                let fd = open(path, O_RDONLY)
                guard fd >= 0 else { throw InputFileError(file: path, line: nil, message: "cannot open (\(InputText.errnoText()))") }
                defer { close(fd) }
                h.update(name.utf8)
                h.update([0])
                h.update(String(info.st_size).utf8)
                h.update([0])
                try InputText.forEachBlock(of: fd, path: path) { h.update($0) }
            }
        }
        return h.hexDigest
    }

    /// SHA-256 of a file's bytes.
    public static func file(_ path: String) throws(InputFileError) -> String {
        SHA256.hex(try InputText.read(path))
    }
}

/// `shard.json`: written last into a shard's directory, so its presence
/// means the shard finished. Holds the identity, the shard, and the spec
/// itself so that `merge` can render the report without the spec file.
struct ShardMarker: Equatable {
    var identity: RunIdentity
    var shard: Shard
    var items: Range<Int>
    var totalItems: Int
    var spec: JSONValue
    /// The spec path as given to `run`, repeated in the merged report.
    var specPath: String
    /// The executable and registry that ran the shard (nil: an older marker).
    var provenance: RunProvenance?
    /// Spec, data and this shard's runs.csv (filled in when it is written).
    var hashes: ContentHashes
    /// What its `external` configurations ran (nil: none, or an older marker).
    var decisionProcesses: DecisionProcessProvenance? = nil
    /// Every CSV file the shard carries, by name, with its rows and SHA-256
    /// (filled in when they are written): what `merge` verifies and what
    /// makes the shard directory complete.
    var files: [(name: String, digest: FileDigest)] = []

    static func == (a: ShardMarker, b: ShardMarker) -> Bool {
        a.identity == b.identity && a.shard == b.shard && a.items == b.items && a.totalItems == b.totalItems
            && a.spec == b.spec && a.specPath == b.specPath && a.provenance == b.provenance && a.hashes == b.hashes
            && a.files.map(\.name) == b.files.map(\.name) && a.files.map(\.digest) == b.files.map(\.digest)
            && a.decisionProcesses == b.decisionProcesses
    }

    /// nil when every file `files` lists is in `directory` with its
    /// recorded rows and SHA-256; otherwise the first problem, naming the file.
    func problem(in directory: String) throws(InputFileError) -> String? {
        for (name, digest) in files {
            let path = (directory as NSString).appendingPathComponent(name)
            if let why = try digest.mismatch(path: path, recordedIn: "its shard.json") { return why }
        }
        return nil
    }

    func json() -> JSONValue {
        var options: [(String, JSONValue)] = []
        if identity.apps { options.append(("apps", .bool(true))) }
        if let users = identity.eventUsers { options.append(("events_users", .string(users))) }
        let head: [(String, JSONValue)] = [
            ("version", .string(identity.version)),
            ("spec_name", .string(identity.specName)),
            ("spec_hash", .string(identity.specHash)),
            ("data_hash", .string(identity.dataHash)),
            ("runs_sha256", .string(hashes.runs)),
            ("seed", .number(Double(identity.seed))),
            ("events", .bool(identity.events)),
        ]
        let shardFields: [(String, JSONValue)] = [
            ("shard_index", .number(Double(shard.index))),
            ("shard_count", .number(Double(shard.count))),
            ("first_item", .number(Double(items.lowerBound))),
            ("end_item", .number(Double(items.upperBound))),
            ("total_items", .number(Double(totalItems))),
            ("spec_path", .string(specPath)),
            ("files", .object(files.map { ($0.name, $0.digest.json()) })),
        ]
        let tail: [(String, JSONValue)] = (provenance?.jsonFields ?? [])
            + (decisionProcesses.map { [("decision_processes", $0.json())] } ?? []) + [("spec", spec)]
        return .object(head + options + shardFields + tail)
    }

    /// The CSV files a shard directory may carry.
    static let carried = ["runs.csv", "wakes_by_hour.csv", "events.csv", "apps.csv"]

    /// The files a shard run with `--events` / `--apps` as given carries.
    static func carried(events: Bool, apps: Bool) -> [String] {
        carried.filter { ($0 != "events.csv" || events) && ($0 != "apps.csv" || apps) }
    }

    static func read(directory: String) throws(InputFileError) -> ShardMarker? {
        let path = (directory as NSString).appendingPathComponent("shard.json")
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text = try InputText.read(path)
        do {
            let node = JSONNode(try JSONParser.parse(text))
            let f = try node.object(knownKeys: ["version", "spec_name", "spec_hash", "data_hash", "runs_sha256", "seed", "events", "shard_index",
                                                "shard_count", "first_item", "end_item", "total_items", "spec_path", "spec",
                                                "executable", "registry", "apps", "events_users", "files", "decision_processes"])
            func need(_ k: String) throws(SpecError) -> JSONNode {
                guard let v = f[k] else { throw node.error("missing \"\(k)\"") }
                return v
            }
            let identity = RunIdentity(
                version: try need("version").string(), specName: try need("spec_name").string(),
                specHash: try need("spec_hash").string(), dataHash: try need("data_hash").string(), seed: UInt64(try need("seed").int(in: 0...Int.max)),
                events: try need("events").bool(), apps: try f["apps"]?.bool() ?? false,
                eventUsers: try f["events_users"]?.string())
            let count = try need("shard_count").int(in: 1...1_000_000)
            let index = try need("shard_index").int(in: 0...(count - 1))
            let first = try need("first_item").int(in: 0...Int.max), end = try need("end_item").int(in: first...Int.max)
            // Every CSV the shard carries, each with its data rows and SHA-256.
            let filesNode = try need("files")
            var files: [(name: String, digest: FileDigest)] = []
            let listed = try filesNode.object(knownKeys: ShardMarker.carried)
            for name in ShardMarker.carried {
                guard let entry = listed[name] else { continue }
                let e = try entry.object(knownKeys: ["rows", "sha256"])
                guard let rows = e["rows"], let sha = e["sha256"] else { throw entry.error("expected \"rows\" and \"sha256\"") }
                files.append((name, FileDigest(rows: try rows.int(in: 0...Int.max), sha256: try sha.string())))
            }
            let expected = ShardMarker.carried(events: identity.events, apps: identity.apps)
            guard files.map(\.name) == expected else {
                throw filesNode.error("expected an entry for each of \(expected.joined(separator: ", ")) (what a shard run with these options carries)")
            }
            var marker = ShardMarker(identity: identity, shard: Shard(index: index, count: count), items: first..<end,
                                     totalItems: try need("total_items").int(in: 0...Int.max), spec: try need("spec").value,
                                     specPath: try need("spec_path").string(), provenance: RunProvenance(json: node.value),
                                     hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash,
                                                           runs: try need("runs_sha256").string()),
                                     decisionProcesses: try DecisionProcessProvenance.read(f["decision_processes"]))
            guard files[0].digest.sha256 == marker.hashes.runs else {
                throw node.error("\"runs_sha256\" and \"files\".\"runs.csv\" record different SHA-256s")
            }
            marker.files = files
            return marker
        } catch let e as JSONSyntaxError {
            throw InputFileError(file: path, line: e.line, message: e.message)
        } catch let e as SpecError {
            throw InputFileError(file: path, line: nil, message: "\(e.path): \(e.message)")
        } catch {
            throw InputFileError(file: path, line: nil, message: "\(error)")
        }
    }
}
