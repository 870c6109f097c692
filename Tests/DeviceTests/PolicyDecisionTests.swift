import XCTest
@testable import Device
import SimCore

/// `PolicyDecision.run` is stored as `runList`, nil for the empty list (no
/// array to release at each decision point). The public view must not show it.
final class PolicyDecisionTests: XCTestCase {
    func testEmptyRunListIsStoredAsNilAndReadsAsEmpty() {
        let none = PolicyDecision(wakeAt: SimTime(microseconds: 5))
        XCTAssertNil(none.runList)
        XCTAssertEqual(none.run, [])
        XCTAssertEqual(PolicyDecision(run: [], wakeAt: SimTime(microseconds: 5)), none)
    }

    func testSettingRunKeepsTheListAndClearingItMakesTheDecisionEqualToNone() {
        var d = PolicyDecision.none
        d.run = [RequestID(3), RequestID(1)]
        XCTAssertEqual(d.run, [RequestID(3), RequestID(1)])
        XCTAssertEqual(d.runList, [RequestID(3), RequestID(1)])
        XCTAssertNotEqual(d, .none)
        d.run.append(RequestID(7))
        XCTAssertEqual(d.run, [RequestID(3), RequestID(1), RequestID(7)])
        d.run = []
        XCTAssertNil(d.runList)
        XCTAssertEqual(d, .none)
        XCTAssertEqual(d.hashValue, PolicyDecision.none.hashValue)
    }
}
