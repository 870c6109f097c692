import Foundation
import TestSupport
import XCTest
@testable import Experiments
import Traces

/// A result says which decision process made it: the manifest and each
/// shard.json record the argv, the SHA-256 of every argv element that is a
/// file and the interpreter's version; shards made with two versions of a
/// script do not merge; `report` refuses a manifest whose record is not its
/// spec's.
final class DecisionProcessProvenanceTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        try XCTSkipUnless(ExternalPolicyTests.hasPython, "python3 is not on PATH")
        dir = try TemporaryDirectory()
    }
    override func tearDown() { dir?.remove() }

    /// A copy of the reference greedy (with `extra` appended: another
    /// version of the same script) and a spec that runs it.
    func spec(extra: String = "") throws -> String {
        let greedy = ExternalPolicyTests.python.appendingPathComponent("greedy.py").path
        var text = try String(contentsOfFile: greedy, encoding: .utf8)
            .replacingOccurrences(of: "os.path.dirname(os.path.abspath(__file__))", with: "'\(ExternalPolicyTests.python.path)'")
        text += extra
        try text.write(toFile: dir.path("greedy.py"), atomically: true, encoding: .utf8)
        let command = String(decoding: try JSONEncoder().encode(["python3", dir.path("greedy.py")]), as: UTF8.self)
        try """
        {"name": "prov", "seed": 3, "population": {"users": 2, "days": 1},
         "policies": [{"name": "greedy"}, {"name": "external", "label": "py", "params": {"command": \(command)}}]}
        """.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        return dir.path("spec.json")
    }

    func run(_ spec: String, out: String, shard: Shard? = nil) throws {
        guard case .completed = try ExperimentCommands.run(.init(specPath: spec, out: dir.path(out), threads: 1, shard: shard),
                                                           tool: .standard) else { return XCTFail("not completed") }
    }

    func testManifestRecordsTheScriptsHashAndTheInterpreter() throws {
        let spec = try spec()
        try run(spec, out: "whole")
        let manifest = try JSONParser.parse(try String(contentsOfFile: dir.path("whole/manifest.json"), encoding: .utf8))
        let record = try XCTUnwrap(DecisionProcessProvenance.read(manifest["decision_processes"].map { JSONNode($0) }))
        XCTAssertEqual(record.entries.count, 1)
        let e = record.entries[0]
        XCTAssertEqual(e.configuration, "py")
        XCTAssertEqual(e.path, "$.policies[1].params.command")
        XCTAssertEqual(e.argv, ["python3", dir.path("greedy.py")])
        XCTAssertEqual(e.files.map(\.argument), [1], "python3 is not a file here; the script is")
        XCTAssertEqual(e.files.first?.sha256, SHA256.hex(try String(contentsOfFile: dir.path("greedy.py"), encoding: .utf8)))
        XCTAssertTrue(e.interpreterVersion?.hasPrefix("Python 3") ?? false, "\(String(describing: e.interpreterVersion))")
        // `report` re-renders it; a manifest whose record is not its spec's is refused.
        XCTAssertNoThrow(try ExperimentCommands.report(directory: dir.path("whole"), tool: .standard))
        // (The record only, not the spec the manifest holds after it.)
        let text = try String(contentsOfFile: dir.path("whole/manifest.json"), encoding: .utf8)
        var parts = text.components(separatedBy: "\"spec\":")
        XCTAssertEqual(parts.count, 2)
        parts[0] = parts[0].replacingOccurrences(of: "\"python3\"", with: "\"python2\"")
        try parts.joined(separator: "\"spec\":").write(toFile: dir.path("whole/manifest.json"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.report(directory: dir.path("whole"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("\"python2\"") && "\(error)".contains("its spec runs \"python3\""), "\(error)")
        }
    }

    func testShardsOfTwoScriptVersionsDoNotMerge() throws {
        let spec = try spec()
        try run(spec, out: "s0", shard: Shard(index: 0, count: 2))
        _ = try self.spec(extra: "# version 2\n")
        try run(spec, out: "s1", shard: Shard(index: 1, count: 2))
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")],
                                                          out: dir.path("merged"), tool: .standard)) { error in
            let m = "\(error)"
            for part in [dir.path("s0"), dir.path("s1"), dir.path("greedy.py"), "configuration \"py\"", "$.policies[1].params.command"] {
                XCTAssertTrue(m.contains(part), "missing \(part) in: \(m)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("merged")))
        // The same script on both: they merge.
        try run(spec, out: "s0b", shard: Shard(index: 0, count: 2))
        XCTAssertEqual(try ExperimentCommands.merge(shardDirectories: [dir.path("s0b"), dir.path("s1")],
                                                    out: dir.path("merged"), tool: .standard), 4)
    }
}
