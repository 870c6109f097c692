import Foundation
import TestSupport
import XCTest
@testable import Experiments

/// Every kind of bad spec is rejected with its JSON path, and `run` creates
/// no output for it.
final class SpecTests: XCTestCase {
    static let valid = """
    {"name": "t", "seed": 1, "population": {"users": 2, "days": 1},
     "policies": [{"name": "never"}, {"name": "fixed-interval", "params": {"interval": ["15m", "1h"]}}]}
    """

    func testValidSpecExpandsGrid() throws {
        let spec = try ExperimentSpec.parse(Self.valid, registry: .standard)
        XCTAssertEqual(spec.configurations.map(\.label), ["never", "fixed-interval interval=15m", "fixed-interval interval=1h"])
        XCTAssertEqual(spec.baseline, 0)
        XCTAssertEqual(spec.replications, 1)
    }

    func testNestedGridsMultiplyAndLabelsNameTheChain() throws {
        let spec = try ExperimentSpec.parse("""
        {"name": "t", "seed": 1, "population": {"users": 1, "days": 1},
         "policies": [{"name": "exponential-backoff", "params": {"cap": ["1h", "5h"]},
                       "base": {"name": "coalescing", "params": {"window": ["5m", "15m"]}, "base": {"name": "usage-predictor"}}}]}
        """, registry: .standard)
        XCTAssertEqual(spec.configurations.map(\.label), [
            "exponential-backoff(coalescing(usage-predictor)) cap=1h window=5m",
            "exponential-backoff(coalescing(usage-predictor)) cap=1h window=15m",
            "exponential-backoff(coalescing(usage-predictor)) cap=5h window=5m",
            "exponential-backoff(coalescing(usage-predictor)) cap=5h window=15m",
        ])
    }

    /// (spec text, expected JSON path, fragment of the message)
    static let bad: [(String, String, String)] = [
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "nope"}]}"#,
         "$.policies[0].name", "unknown policy"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "fixed-interval", "params": {"interval": "-5m"}}]}"#,
         "$.policies[0].params.interval", "-300 s is out of range; allowed: [1, 2592000] s"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "fixed-interval", "params": {"interval": "0s"}}]}"#,
         "$.policies[0].params.interval", "0 s is out of range; allowed: [1, 2592000] s"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "oracle", "params": {"leadTime": "0s"}}]}"#,
         "$.policies[0].params.leadTime", "0 s is out of range; allowed: (0, 86400] s"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "fixed-interval", "params": {"intervall": "5m"}}]}"#,
         "$.policies[0].params.intervall", "unknown parameter"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "fixed-interval", "params": {"interval": 15}}]}"#,
         "$.policies[0].params.interval", "duration"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "coalescing"}]}"#,
         "$.policies[0].base", "base"),
        (#"{"name": "t", "seed": 1, "population": {"users": 0, "days": 1}, "policies": [{"name": "never"}]}"#,
         "$.population.users", "out of range"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1, "generator": {"usage": {"habitRegularity": "high"}}}, "policies": [{"name": "never"}]}"#,
         "$.population.generator.usage.habitRegularity", "expected"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1, "generator": {"usag": {}}}, "policies": [{"name": "never"}]}"#,
         "$.population.generator.usag", "unknown key"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}], "baseline": "greedy"}"#,
         "$.baseline", "not a configuration label"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}, {"name": "never"}]}"#,
         "$.policies[1]", "repeats"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": []}"#,
         "$.policies", "at least one"),
        (#"{"name": "t", "seed": 1, "policies": [{"name": "never"}]}"#,
         "$", "population"),
        (#"{"name": "t", "seed": -3, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}]}"#,
         "$.seed", "out of range"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}], "threads": 2}"#,
         "$.threads", "unknown key"),
        (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "device": {"refreshBudget": "thirty"}, "policies": [{"name": "never"}]}"#,
         "$.device.refreshBudget", "invalid duration"),
        ("{\"name\": \"t\",\n \"seed\": 1,,}", "$", "line 2, column 12"),
    ]

    func testBadSpecsNameTheirPath() {
        for (text, path, fragment) in Self.bad {
            XCTAssertThrowsError(try ExperimentSpec.parse(text, registry: .standard), text) { error in
                guard let e = error as? SpecError else { return XCTFail("\(error)") }
                XCTAssertTrue(e.path.hasPrefix(path), "\(text)\n→ \(e)")
                XCTAssertTrue(e.message.contains(fragment), "\(text)\n→ \(e)")
            }
        }
    }

    func testRunWithBadSpecCreatesNoOutput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (i, (text, _, _)) in Self.bad.enumerated() {
            let spec = dir.path("bad\(i).json")
            try text.write(toFile: spec, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: spec, out: dir.path("out\(i)"), threads: 1), tool: .standard)) { error in
                XCTAssertTrue("\(error)".hasPrefix(spec), "error should name the file: \(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out\(i)")))
        }
    }

    func testTraceSetWorldReadsRelativeDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try TraceCommands.generate(users: 3, days: 1, seed: 4, out: URL(fileURLWithPath: dir.path("traces")))
        try #"{"name": "t", "seed": 1, "traces": "traces", "policies": [{"name": "never"}, {"name": "greedy"}]}"#
            .write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        let result = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out"), threads: 2), tool: .standard)
        XCTAssertEqual(result.withoutTime, .completed(directory: dir.path("out"), runs: 6, cost: .none))
        // A malformed trace set fails with file and line, and writes nothing.
        try "user,start_us,end_us,app\n0,5,3,0\n".write(toFile: dir.path("traces/sessions.csv"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out2"), threads: 1), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("sessions.csv:2"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out2")))
    }
}
