import Foundation
import TestSupport
import XCTest
@testable import Experiments

/// A corrupt `generator.json` in a trace set: `traces stats` and `run`
/// exit 65 naming the file and what is wrong with it (empty, or not JSON
/// and how it ends), never Foundation's `DecodingError` text.
final class GeneratorJSONTests: XCTestCase {
    func testCorruptGeneratorJSONIsNamedWithWhatIsWrong() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pristine = dir.path("pristine")
        _ = try TraceCommands.generate(users: 2, days: 1, seed: 9, out: URL(fileURLWithPath: pristine))
        let good = try String(contentsOfFile: pristine + "/generator.json", encoding: .utf8)
        let cases = [
            ("empty", "", "generator.json:0:0: the file is empty"),
            ("cut", String(good.prefix(100)), "generator.json:0:0: the file is not valid JSON (100 bytes"),
            ("garbage", good + "xx{", #"}\nxx{": cut short, or not JSON"#),
        ]
        for (name, text, words) in cases {
            let set = dir.path(name)
            try FileManager.default.copyItem(atPath: pristine, toPath: set)
            try text.write(toFile: set + "/generator.json", atomically: true, encoding: .utf8)
            try #"{"name": "g", "seed": 1, "traces": "\#(set)", "policies": [{"name": "greedy"}]}"#
                .write(toFile: dir.path(name + ".json"), atomically: true, encoding: .utf8)
            for args in [["traces", "stats", set], ["run", dir.path(name + ".json"), "--out", dir.path(name + "-out")]] {
                let r = try CLI.run(args)
                XCTAssertEqual(r.status, 65, "\(name) \(args): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(words), "\(name) \(args): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("expected the JSON object `bgbench traces generate` writes"), r.stderr)
                XCTAssertFalse(r.stderr.contains("DecodingError"), r.stderr)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(name + "-out")))
        }
    }
}
