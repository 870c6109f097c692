import Foundation
import Device
import Policies
import TestSupport
import XCTest
@testable import Experiments

/// `device.platform` end to end: the external policy and the wrappers run
/// on Android through the same seam as the built-ins (a Python greedy is
/// the built-in greedy byte for byte there too), and a bad platform is
/// refused naming its JSON path.
final class AndroidPlatformSpecTests: XCTestCase {
    var dir: TemporaryDirectory!
    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    func write(_ text: String) throws -> String {
        try text.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        return dir.path("spec.json")
    }

    func rows(_ out: String, _ label: String) throws -> [Substring] {
        try String(contentsOfFile: dir.path(out) + "/runs.csv", encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(label + ",") }.map { $0.dropFirst(label.count) }
    }

    func testExternalAndWrappersRunOnAndroidAsTheBuiltIns() throws {
        try XCTSkipUnless(ExternalPolicyTests.hasPython, "python3 is not on PATH")
        let greedy = ExternalPolicyTests.python.appendingPathComponent("greedy.py").path
        let py = #"{"name": "external", "params": {"command": ["python3", "\#(greedy)"]}"#
        let spec = try write(#"""
            {"name": "a", "seed": 9, "population": {"users": 2, "days": 1},
             "devices": [{"label": "ios"}, {"label": "android", "device": {"platform": "android"}}],
             "policies": [{"name": "greedy"}, \#(py), "label": "py"},
               {"name": "coalescing", "base": {"name": "greedy"}}, {"name": "coalescing", "label": "py-coalescing", "base": \#(py)}},
               {"name": "exponential-backoff", "base": {"name": "greedy"}}, {"name": "exponential-backoff", "label": "py-backoff", "base": \#(py)}},
               {"name": "android-system"}]}
            """#)
        guard case .completed = try ExperimentCommands.run(.init(specPath: spec, out: dir.path("o"), threads: 2),
                                                           tool: .standard) else { return XCTFail() }
        for (builtIn, external) in [("greedy", "py"), ("coalescing(greedy)", "py-coalescing"), ("exponential-backoff(greedy)", "py-backoff")] {
            let a = try rows("o", "android: " + builtIn), b = try rows("o", "android: " + external)
            XCTAssertEqual(a.count, 2, builtIn)
            XCTAssertEqual(a, b, "\(builtIn) vs \(external) on Android")
            // The platform applied: the same users' rows differ from iOS's.
            XCTAssertNotEqual(a, try rows("o", "ios: " + builtIn), builtIn)
        }
        XCTAssertEqual(try rows("o", "android: android-system").count, 2)
        let report = try String(contentsOfFile: dir.path("o") + "/report.md", encoding: .utf8)
        XCTAssertTrue(report.contains("## iOS and Android, the same users"))
        XCTAssertTrue(report.contains("| `android: greedy` − `ios: greedy` |"), report)
    }

    func testAnUnknownPlatformIsRefusedWithItsPath() throws {
        let spec = try write(#"{"name": "a", "seed": 1, "population": {"users": 1, "days": 1}, "policies": [{"name": "never"}], "device": {"platform": "symbian"}}"#)
        XCTAssertThrowsError(try ExperimentSpec.load(path: spec, registry: .standard)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("platform"), text)
        }
    }

    /// runs.csv has Android's columns only in a suite with an Android
    /// device (NaN on its iOS rows); the ablation devices give the report's
    /// ablation section, and `report` re-reads the columns; a bad quota
    /// table is refused naming its path.
    func testAndroidColumnsAndAblationSection() throws {
        let header = { (out: String) in
            try String(contentsOfFile: self.dir.path(out) + "/runs.csv", encoding: .utf8).split(separator: "\n")[0]
        }
        let ios = try write(#"{"name": "a", "seed": 3, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}]}"#)
        guard case .completed = try ExperimentCommands.run(.init(specPath: ios, out: dir.path("i"), threads: 1),
                                                           tool: .standard) else { return XCTFail() }
        XCTAssertEqual(String(try header("i")), "configuration,replication,user," + Runner.metrics.map(\.name).joined(separator: ","))
        let both = try write(#"""
            {"name": "b", "seed": 3, "population": {"users": 3, "days": 2}, "policies": [{"name": "greedy"}],
             "devices": [{"label": "ios"}, {"label": "android", "device": {"platform": "android"}},
               {"label": "no-doze-zones", "device": {"platform": "android", "android": {"doze": false}, "deadZones": {"perDay": 1}}},
               {"label": "no-doze", "device": {"platform": "android", "android": {"doze": false}}},
               {"label": "no-buckets", "device": {"platform": "android", "android": {"buckets": false, "quotaTable": "android-12"}}}]}
            """#)
        guard case .completed = try ExperimentCommands.run(.init(specPath: both, out: dir.path("b"), threads: 2),
                                                           tool: .standard) else { return XCTFail() }
        XCTAssertTrue(try header("b").hasSuffix(",apps_rare_end,apps_restricted_end"))
        XCTAssertTrue(try rows("b", "ios: greedy").allSatisfy { $0.hasSuffix(",nan,nan,nan,nan,nan,nan,nan,nan,nan,nan") || $0.hasSuffix(",NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN") })
        let report = try String(contentsOfFile: dir.path("b") + "/report.md", encoding: .utf8)
        XCTAssertTrue(report.contains("## Android's mechanisms, one at a time"), report)
        XCTAssertTrue(report.contains("| `android: greedy` − `no-doze: greedy` |"), report)
        XCTAssertTrue(report.contains("| `android: greedy` − `no-buckets: greedy` |"), report)
        XCTAssertFalse(report.contains("| `no-doze: greedy` − `ios: greedy` |"), "the platforms section pairs full Android only")
        // An ablation device that differs in more than its switch (and the
        // switched mechanism's own constants) is not paired.
        let ablation = report.components(separatedBy: "## Android's mechanisms, one at a time")[1]
            .components(separatedBy: "\n## ")[0]
        XCTAssertTrue(ablation.contains("| `android: greedy` − `no-doze: greedy` |"), ablation)
        XCTAssertFalse(ablation.contains("no-doze-zones"), "only the device that differs in its switch alone: \(ablation)")
        let bad = try write(#"{"name": "c", "seed": 1, "population": {"users": 1, "days": 1}, "policies": [{"name": "never"}], "device": {"platform": "android", "android": {"quotaTable": "android-9"}}}"#)
        XCTAssertThrowsError(try ExperimentSpec.load(path: bad, registry: .standard)) { error in
            XCTAssertTrue("\(error)".contains("quotaTable"), "\(error)")
        }
    }
}
