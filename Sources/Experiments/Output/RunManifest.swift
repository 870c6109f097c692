import Foundation

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
    public func identity(events: Bool, apps: Bool = false) throws(InputFileError) -> RunIdentity {
        RunIdentity(version: BGBenchVersion.current, specName: name, specHash: SHA256.hex(source.serialized()),
                    dataHash: try ContentHashes.data(of: world), seed: seed, events: events, apps: apps)
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
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n >= 0 else { throw InputFileError(file: path, line: nil, message: "cannot read (\(InputText.errnoText()))") }
                    if n == 0 { break }
                    h.update(chunk[0..<n])
                }
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

    func json() -> JSONValue {
        .object([
            ("version", .string(identity.version)),
            ("spec_name", .string(identity.specName)),
            ("spec_hash", .string(identity.specHash)),
            ("data_hash", .string(identity.dataHash)),
            ("runs_sha256", .string(hashes.runs)),
            ("seed", .number(Double(identity.seed))),
            ("events", .bool(identity.events)),
        ] + (identity.apps ? [("apps", JSONValue.bool(true))] : []) + [
            ("shard_index", .number(Double(shard.index))),
            ("shard_count", .number(Double(shard.count))),
            ("first_item", .number(Double(items.lowerBound))),
            ("end_item", .number(Double(items.upperBound))),
            ("total_items", .number(Double(totalItems))),
            ("spec_path", .string(specPath)),
        ] + (provenance?.jsonFields ?? [])
          + (decisionProcesses.map { [("decision_processes", $0.json())] } ?? []) + [
            ("spec", spec),
        ])
    }

    static func read(directory: String) throws(InputFileError) -> ShardMarker? {
        let path = (directory as NSString).appendingPathComponent("shard.json")
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text = try InputText.read(path)
        do {
            let node = JSONNode(try JSONParser.parse(text))
            let f = try node.object(knownKeys: ["version", "spec_name", "spec_hash", "data_hash", "runs_sha256", "seed", "events", "shard_index",
                                                "shard_count", "first_item", "end_item", "total_items", "spec_path", "spec",
                                                "executable", "registry", "apps", "decision_processes"])
            func need(_ k: String) throws(SpecError) -> JSONNode {
                guard let v = f[k] else { throw node.error("missing \"\(k)\"") }
                return v
            }
            let identity = RunIdentity(
                version: try need("version").string(), specName: try need("spec_name").string(),
                specHash: try need("spec_hash").string(), dataHash: try need("data_hash").string(), seed: UInt64(try need("seed").int(in: 0...Int.max)),
                events: try need("events").bool(), apps: try f["apps"]?.bool() ?? false)
            let count = try need("shard_count").int(in: 1...1_000_000)
            let index = try need("shard_index").int(in: 0...(count - 1))
            let first = try need("first_item").int(in: 0...Int.max), end = try need("end_item").int(in: first...Int.max)
            return ShardMarker(identity: identity, shard: Shard(index: index, count: count), items: first..<end,
                               totalItems: try need("total_items").int(in: 0...Int.max), spec: try need("spec").value,
                               specPath: try need("spec_path").string(), provenance: RunProvenance(json: node.value),
                               hashes: ContentHashes(spec: identity.specHash, data: identity.dataHash,
                                                     runs: try need("runs_sha256").string()),
                               decisionProcesses: try DecisionProcessProvenance.read(f["decision_processes"]))
        } catch let e as JSONSyntaxError {
            throw InputFileError(file: path, line: e.line, message: e.message)
        } catch let e as SpecError {
            throw InputFileError(file: path, line: nil, message: "\(e.path): \(e.message)")
        } catch {
            throw InputFileError(file: path, line: nil, message: "\(error)")
        }
    }
}
