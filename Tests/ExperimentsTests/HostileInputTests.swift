import Foundation
import TestSupport
import XCTest
@testable import Experiments
import Traces

/// Hostile inputs, mutated at random from a fixed seed: specs (values,
/// types, keys, raw bytes), trace sets (CSV fields and lines) and CLI
/// argument lists, each run through the built `bgbench` as a child process
/// with a timeout. For every input: no crash (a signal or a trap), no hang,
/// and either a valid run or a clear error with the right exit code — and
/// nothing left behind in the output's parent directory. `validate` and
/// `run` must agree on every spec.
final class HostileInputTests: XCTestCase {
    static let baseSpec = #"""
    {"name": "h", "seed": 5, "replications": 1,
     "population": {"users": 2, "days": 1, "generator": {"usage": {"habitRegularity": 0.5, "sessionsPerDayMedian": 30},
                    "power": {"batteryCapacityWh": 10, "chargingWatts": 7}, "network": {"outingMeanHours": 2}}},
     "device": {"refreshBudget": "30s", "batteryCapacityWh": 12, "chargingWatts": 10,
                "energy": {"cpuWatts": 1, "wakeJoules": 0.05},
                "apps": {"news": {"forgetProbability": 0.1, "refresh": {"cpuSeconds": 0.5, "bytesDown": 1000}}}},
     "policies": [{"name": "never"}, {"name": "fixed-interval", "params": {"interval": ["30m", "2h"]}},
                  {"name": "coalescing", "params": {"window": "10m"}, "base": {"name": "greedy"}}],
     "baseline": "never"}
    """#


    static let hostileNumbers: [JSONValue] = [.number(-1), .number(0), .number(1e308), .number(-1e308), .number(1e-300),
                                              .number(1.5), .number(999_999_999_999), .number(-3), .number(1e20)]
    static let hostileStrings: [JSONValue] = [.string(""), .string(".."), .string("a\nb"), .string("0s"), .string("-5m"),
                                              .string("1e300h"), .string(String(repeating: "x", count: 300)),
                                              .string("../x"), .string("\u{7}"), .string("9999999999d"), .string("1us")]

    /// Paths (object keys and array indices) of every value in the tree.
    static func paths(_ v: JSONValue, _ prefix: [String] = []) -> [[String]] {
        switch v {
        case let .object(pairs): return [prefix] + pairs.flatMap { paths($0.value, prefix + [$0.key]) }
        case let .array(items): return [prefix] + items.indices.flatMap { paths(items[$0], prefix + ["\($0)"]) }
        default: return [prefix]
        }
    }

    /// `v` with `change` applied to the value at `path` (`nil` from `change` deletes it).
    static func edit(_ v: JSONValue, at path: ArraySlice<String>, _ change: (JSONValue) -> JSONValue?) -> JSONValue? {
        guard let head = path.first else { return change(v) }
        switch v {
        case let .object(pairs):
            var out: [(key: String, value: JSONValue)] = []
            for p in pairs {
                if p.key == head { if let e = edit(p.value, at: path.dropFirst(), change) { out.append((p.key, e)) } } else { out.append(p) }
            }
            return .object(out)
        case let .array(items):
            var out: [JSONValue] = []
            for (i, item) in items.enumerated() {
                if "\(i)" == head { if let e = edit(item, at: path.dropFirst(), change) { out.append(e) } } else { out.append(item) }
            }
            return .array(out)
        default: return v
        }
    }

    /// One random change at a random place of the tree, mostly to a leaf
    /// value (the root is never replaced whole: a non-object spec is one case).
    static func mutate(_ v: JSONValue, _ rng: inout TestRandom) -> JSONValue {
        let all = paths(v).filter { !$0.isEmpty }
        let path = rng.pick(all)
        var r = rng
        let result = edit(v, at: path[...]) { old in
            switch r.below(10) {
            case 0: return nil
            case 1:
                if case let .object(pairs) = old { return .object(pairs + [(key: "bogus", value: .number(1))]) }
                if case let .array(items) = old, let first = items.first { return .array(items + [first]) }
                return .array([old, old])
            case 2: return r.pick([.null, .bool(true), .array([]), .object([])])
            case 3, 4, 5:
                return r.pick(hostileNumbers)
            default:
                if case .string = old { return r.pick(hostileStrings) }
                return r.pick(hostileNumbers + hostileStrings)
            }
        } ?? v
        rng = r
        return result
    }

    struct Outcome { var status: Int32; var stderr: String; var timedOut: Bool; var signalled: Bool }

    func bgbench(_ args: [String], timeout: TimeInterval = 20) throws -> Outcome {
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = args
        // stderr goes to a file: a pipe could fill and stall the child.
        let errDirectory = try TemporaryDirectory(prefix: "bgbench-stderr")
        defer { errDirectory.remove() }
        let errPath = errDirectory.path("stderr")
        guard FileManager.default.createFile(atPath: errPath, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while p.isRunning {
            if Date() > deadline { timedOut = true; kill(p.processIdentifier, SIGKILL); break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        p.waitUntilExit()
        try err.close()
        let data = FileManager.default.contents(atPath: errPath) ?? Data()
        return Outcome(status: p.terminationStatus, stderr: String(decoding: data, as: UTF8.self), timedOut: timedOut,
                       signalled: p.terminationReason == .uncaughtSignal)
    }

    /// The messages a user must never see.
    static let opaque = ["NSCocoaErrorDomain", "DecodingError", "Fatal error", "isn't in the correct format",
                         "dataCorrupted", "CodingKeys", "Swift/", "Dictionary<", "Any>"]

    func assertClear(_ o: Outcome, _ what: String, allowed: Set<Int32>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(o.timedOut, "hang: \(what)", file: file, line: line)
        XCTAssertFalse(o.signalled, "crash (signal \(o.status)): \(what)\n\(o.stderr.prefix(400))", file: file, line: line)
        XCTAssertTrue(allowed.contains(o.status), "exit \(o.status) for \(what)\n\(o.stderr.prefix(400))", file: file, line: line)
        if o.status != 0 {
            XCTAssertTrue(o.stderr.hasPrefix("Error: "), "unclear error for \(what): \(o.stderr.prefix(400))", file: file, line: line)
        }
        for word in Self.opaque where o.stderr.contains(word) {
            XCTFail("opaque message (\(word)) for \(what): \(o.stderr.prefix(400))", file: file, line: line)
        }
    }

    func entries(_ dir: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path))
    }

    func testMutatedSpecs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let base = try JSONParser.parse(Self.baseSpec)
        var rng = TestRandom(seed: 20261201)
        for i in 0..<60 {
            var text: String
            if i % 6 == 5 {
                // Raw bytes: truncate or overwrite one byte.
                var bytes = Array(Self.baseSpec.utf8)
                if rng.below(2) == 0 { bytes.removeLast(rng.below(bytes.count)) } else { bytes[rng.below(bytes.count)] = UInt8(rng.below(256)) }
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                var v = base
                v = Self.mutate(v, &rng)
                text = v.serialized()
            }
            let spec = dir.path("spec\(i).json")
            try text.write(toFile: spec, atomically: true, encoding: .utf8)
            let before = try entries(dir)
            let validate = try bgbench(["validate", spec, "--threads", "1"])
            assertClear(validate, "validate of \(text)", allowed: [0, 65])
            let out = dir.path("out\(i)")
            let run = try bgbench(["run", spec, "--out", out, "--threads", "2", "--quiet"])
            assertClear(run, "run of \(text)", allowed: [0, 65])
            XCTAssertEqual(validate.status, run.status, "validate and run disagree on \(text)\n\(validate.stderr)\n\(run.stderr)")
            if run.status == 0 {
                XCTAssertEqual(try entries(dir), before.union(["out\(i)"]), text)
                XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/manifest.json"), text)
            } else {
                XCTAssertEqual(validate.stderr, run.stderr, "different messages for \(text)")
                XCTAssertEqual(try entries(dir), before, "left behind after a failed run of \(text)")
            }
        }
    }

    func testMutatedTraceSets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pristine = dir.path("pristine")
        _ = try TraceCommands.generate(users: 2, days: 1, seed: 9, out: URL(fileURLWithPath: pristine))
        let files = try FileManager.default.contentsOfDirectory(atPath: pristine).filter { $0.hasSuffix(".csv") }.sorted()
        var rng = TestRandom(seed: 77)
        let hostileFields = ["-1", "", "abc", "999999999999", "1e308", "-1e308", "0", "NaN", "3.5", "99999999999999999999"]
        for i in 0..<30 {
            let traces = dir.path("traces\(i)")
            try FileManager.default.copyItem(atPath: pristine, toPath: traces)
            let file = traces + "/" + rng.pick(files)
            var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let row = lines.count > 2 ? 1 + rng.below(lines.count - 2) : 0
            switch rng.below(5) {
            case 0: if lines.count > 2 { lines.remove(at: row) }
            case 1: lines.insert(lines[row], at: row)
            case 2: lines[row] += ",extra"
            default:
                var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[rng.below(fields.count)] = rng.pick(hostileFields)
                lines[row] = fields.joined(separator: ",")
            }
            try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let spec = dir.path("spec\(i).json")
            try #"{"name": "t", "seed": 1, "traces": "traces\#(i)", "policies": [{"name": "never"}, {"name": "greedy"}]}"#
                .write(toFile: spec, atomically: true, encoding: .utf8)
            let before = try entries(dir)
            let validate = try bgbench(["validate", spec, "--threads", "1"])
            assertClear(validate, "validate with \(file) line \(row + 1): \(lines[min(row, lines.count - 1)])", allowed: [0, 65])
            let run = try bgbench(["run", spec, "--out", dir.path("out\(i)"), "--threads", "1", "--quiet"])
            assertClear(run, "run with \(file) line \(row + 1)", allowed: [0, 65])
            XCTAssertEqual(validate.status, run.status, "validate and run disagree on \(file)\n\(validate.stderr)\n\(run.stderr)")
            XCTAssertEqual(try entries(dir), run.status == 0 ? before.union(["out\(i)"]) : before)
        }
    }

    func testMutatedArgumentLists() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let valid: [[String]] = [
            ["run", spec, "--out", dir.path("o"), "--threads", "1", "--quiet"],
            ["validate", spec],
            ["traces", "generate", "--users", "2", "--days", "1", "--seed", "3", "--out", dir.path("t")],
            ["merge", "--out", dir.path("m"), dir.path("nothing")],
            ["report", dir.path("nothing")],
        ]
        let words = ["--threads", "0", "-1", "99999999999999999999", "--shard", "3/2", "1/0", "--out", "", "--events",
                     "--force", "--bogus", "-h", "--users", "--days", "--seed", "x", dir.path("spec.json/x"), "/"]
        var rng = TestRandom(seed: 4242)
        for i in 0..<30 {
            var args = rng.pick(valid)
            for _ in 0...rng.below(3) {
                switch rng.below(3) {
                case 0: if args.count > 1 { args.remove(at: 1 + rng.below(args.count - 1)) }
                case 1: args.insert(rng.pick(words), at: 1 + rng.below(args.count))
                default: if args.count > 1 { args[1 + rng.below(args.count - 1)] = rng.pick(words) }
                }
            }
            let before = try entries(dir)
            let o = try bgbench(args)
            assertClear(o, "bgbench \(args) (#\(i))", allowed: [0, 64, 65, 74])
            if o.status != 0 { XCTAssertEqual(try entries(dir), before, "left behind by \(args)") }
            // Reset what a successful command wrote, so the next one starts clean.
            for name in try entries(dir).subtracting(["spec.json"]) { try? FileManager.default.removeItem(atPath: dir.path(name)) }
        }
    }
}
