import Foundation
import XCTest
@testable import Experiments
import TestSupport

/// A zero duration is allowed where its declared range includes zero
/// (fixed-interval's `flex`, usage-predictor's `leadTime`: zero means
/// "none") and refused, naming the range, where it does not; an allowed
/// zero changes what the policy does and runs.
final class ZeroDurationTests: XCTestCase {
    static func spec(_ policies: String) -> String {
        #"{"name": "zero", "seed": 3, "population": {"users": 4, "days": 2}, "policies": \#(policies)}"#
    }

    func testAllowedZerosParseAndTheRestAreRefused() throws {
        XCTAssertNoThrow(try ExperimentSpec.parse(Self.spec(#"[{"name": "fixed-interval", "params": {"flex": "0s"}}, {"name": "usage-predictor", "params": {"leadTime": "0s"}}]"#),
                                                  registry: .standard))
        for (policy, parameter, range) in [("fixed-interval", "interval", "[1, 2592000] s"), ("coalescing", "window", "[1, 86400] s"),
                                           ("oracle", "radioWindow", "(0, 86400] s")] {
            let base = policy == "coalescing" ? #", "base": {"name": "greedy"}"# : ""
            let text = Self.spec(#"[{"name": "\#(policy)", "params": {"\#(parameter)": "0s"}\#(base)}]"#)
            XCTAssertThrowsError(try ExperimentSpec.parse(text, registry: .standard), text) { error in
                XCTAssertTrue("\(error)".contains("$.policies[0].params.\(parameter)"), "\(error)")
                XCTAssertTrue("\(error)".contains("0 s is out of range; allowed: \(range)"), "\(error)")
            }
        }
    }

    /// Without flex a refresh waits for the full interval: never more runs
    /// than with the default 5-minute flex, on the same users.
    func testZeroFlexRunsAndWaitsTheFullInterval() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.spec(#"[{"name": "fixed-interval", "params": {"interval": "30m", "flex": ["0s", "5m"]}}]"#)
            .write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out"), threads: 1), tool: .standard)
        let rows = try String(contentsOfFile: dir.path("out/runs.csv"), encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",").map(String.init)
        let config = try XCTUnwrap(header.firstIndex(of: "configuration")), runs = try XCTUnwrap(header.firstIndex(of: "tasks_run"))
        var total: [String: Double] = [:]
        for row in rows.dropFirst() {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            total[cells[config], default: 0] += Double(cells[runs]) ?? .nan
        }
        let zero = try XCTUnwrap(total.first { $0.key.contains("flex=0s") }?.value)
        let five = try XCTUnwrap(total.first { $0.key.contains("flex=5m") }?.value)
        XCTAssertGreaterThan(zero, 0)
        XCTAssertLessThan(zero, five, "\(total)")
    }
}
