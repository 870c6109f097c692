import Foundation
import TestSupport
import XCTest
@testable import Experiments

/// `device.backendOutages` is range-checked with its path, and a
/// run with outages on shows backoff against its base in the report.
final class BackendOutageSpecTests: XCTestCase {
    private static func spec(_ outages: String, users: Int = 2, days: Int = 1) -> String {
        #"{"name": "t", "seed": 5, "population": {"users": \#(users), "days": \#(days)}, "device": {"backendOutages": \#(outages)}, "policies": [{"name": "greedy"}, {"name": "exponential-backoff", "base": {"name": "greedy"}}]}"#
    }

    func testBadOutageParametersNameTheirPath() {
        let bad: [(String, String, String)] = [
            (#"{"perDay": 100}"#, "$.device.backendOutages.perDay", "out of range"),
            (#"{"perDay": -1}"#, "$.device.backendOutages.perDay", "out of range"),
            (#"{"medianDuration": "2d"}"#, "$.device.backendOutages.medianDuration", "out of range"),
            (#"{"durationSigma": 4}"#, "$.device.backendOutages.durationSigma", "out of range"),
            (#"{"perday": 1}"#, "$.device.backendOutages.perday", "unknown key"),
        ]
        for (outages, path, fragment) in bad {
            XCTAssertThrowsError(try ExperimentSpec.parse(Self.spec(outages), registry: .standard), outages) { error in
                guard let e = error as? SpecError else { return XCTFail("\(error)") }
                XCTAssertTrue(e.path.hasPrefix(path), "\(outages) → \(e)")
                XCTAssertTrue(e.message.contains(fragment), "\(outages) → \(e)")
            }
        }
        XCTAssertNoThrow(try ExperimentSpec.parse(Self.spec(#"{"perDay": 0.1, "medianDuration": "1h"}"#), registry: .standard))
    }

    /// Frequent outages: the report's backoff table pairs the wrapper with
    /// greedy and shows fewer failed runs (a CI below zero).
    func testReportShowsWhatBackoffBuys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.spec(#"{"perDay": 4, "medianDuration": "1h", "durationSigma": 0.5}"#, users: 6, days: 2)
            .write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out"), threads: 2), tool: .standard)
        let report = try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8)
        XCTAssertTrue(report.contains("## What backoff buys"))
        let row = try XCTUnwrap(report.split(separator: "\n").first { $0.hasPrefix("| `exponential-backoff(greedy)` − `greedy` |") })
        // "| label | mean [low, high] | …": the first cell is Δ failed runs per user-day.
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let failed = cells[1]
        let high = try XCTUnwrap(Double(failed.split(separator: ",")[1].dropLast().trimmingCharacters(in: .whitespaces)))
        XCTAssertLessThan(high, 0, row.description)
    }
}
