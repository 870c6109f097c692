import Foundation

/// What identifies an experiment's results: the merge refuses to combine
/// shards whose identity differs (another spec, seed or bgbench version).
public struct RunIdentity: Sendable, Equatable {
    public var version: String
    public var specName: String
    /// FNV-1a of the spec's canonical serialization (keys in file order).
    public var specHash: String
    public var seed: UInt64
    public var events: Bool
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
    public func identity(events: Bool) -> RunIdentity {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in source.serialized().utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return RunIdentity(version: BGBenchVersion.current, specName: name,
                           specHash: String(repeating: "0", count: 16 - hex.count) + hex,
                           seed: seed, events: events)
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

    func json() -> JSONValue {
        .object([
            ("version", .string(identity.version)),
            ("spec_name", .string(identity.specName)),
            ("spec_hash", .string(identity.specHash)),
            ("seed", .number(Double(identity.seed))),
            ("events", .bool(identity.events)),
            ("shard_index", .number(Double(shard.index))),
            ("shard_count", .number(Double(shard.count))),
            ("first_item", .number(Double(items.lowerBound))),
            ("end_item", .number(Double(items.upperBound))),
            ("total_items", .number(Double(totalItems))),
            ("spec_path", .string(specPath)),
            ("spec", spec),
        ])
    }

    static func read(directory: String) throws(InputFileError) -> ShardMarker? {
        let path = (directory as NSString).appendingPathComponent("shard.json")
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text = try InputText.read(path)
        do {
            let node = JSONNode(try JSONParser.parse(text))
            let f = try node.object(knownKeys: ["version", "spec_name", "spec_hash", "seed", "events", "shard_index",
                                                "shard_count", "first_item", "end_item", "total_items", "spec_path", "spec"])
            func need(_ k: String) throws(SpecError) -> JSONNode {
                guard let v = f[k] else { throw node.error("missing \"\(k)\"") }
                return v
            }
            let identity = RunIdentity(
                version: try need("version").string(), specName: try need("spec_name").string(),
                specHash: try need("spec_hash").string(), seed: UInt64(try need("seed").int(in: 0...Int.max)),
                events: try need("events").bool())
            let count = try need("shard_count").int(in: 1...1_000_000)
            let index = try need("shard_index").int(in: 0...(count - 1))
            let first = try need("first_item").int(in: 0...Int.max), end = try need("end_item").int(in: first...Int.max)
            return ShardMarker(identity: identity, shard: Shard(index: index, count: count), items: first..<end,
                               totalItems: try need("total_items").int(in: 0...Int.max), spec: try need("spec").value,
                               specPath: try need("spec_path").string())
        } catch let e as JSONSyntaxError {
            throw InputFileError(file: path, line: e.line, message: e.message)
        } catch let e as SpecError {
            throw InputFileError(file: path, line: nil, message: "\(e.path): \(e.message)")
        } catch {
            throw InputFileError(file: path, line: nil, message: "\(error)")
        }
    }
}
