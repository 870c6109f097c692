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
}
