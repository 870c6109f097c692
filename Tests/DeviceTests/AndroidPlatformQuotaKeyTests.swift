@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// `device.android.jobQuota` and `device.android.standby` on a simulated
/// device (Docs/AndroidPlatform.md A10–A13): a value other than AOSP's
/// moves what the simulator does, as the closed forms say.
extension AndroidPlatformQuotaTests {
    /// A working-set quota of 5 min (10 by default): well into working set,
    /// one 5-min run every 4 h 30 s, each stopped by the quota (the 10-min
    /// limit no longer ties with it): the app is in quota again once 30 s
    /// (the buffer) of the last run has left the 4 h window, and its run
    /// lasts until 5 min of run time are in the window again.
    func testWorkingSetAllowedTimeGivesItsClosedForm() {
        let (m, runs) = greedy(rules: { $0.jobQuota.workingSet.allowedTime = .minutes(5) })
        let workingSet = SimTime.zero + .minutes(1) + .seconds(10 as Int64) + .hours(12)
        let late = runs.filter { $0.start >= workingSet + .hours(4) }
        XCTAssertGreaterThanOrEqual(late.count, 5)
        for r in late { XCTAssertEqual(r.end - r.start, .minutes(5)) }
        for (a, b) in zip(late, late.dropFirst()) { XCTAssertEqual(b.start - a.start, .hours(4) + .seconds(30 as Int64)) }
        XCTAssertLessThanOrEqual(busiestWindow(runs.filter { $0.start >= workingSet }, window: .hours(4)), .minutes(5))
        XCTAssertGreaterThanOrEqual(m.android!.counters[.quotaStops], late.count)
    }

    /// A working-set threshold of 6 h (12 h by default): the app leaves
    /// active 6 h after its use, so from then its quota is working set's
    /// (10 min per 4 h, already used up by its active runs) and it runs
    /// at most 20 min from 6 h to 12 h, where by default it runs 20 min an
    /// hour; the run it gets ends out of working set's quota. (Another
    /// app's session at 10 h is an event of the device: A12's
    /// approximation leaves no decision point of its own to the app whose
    /// bucket changed while it was out of quota; kept here so the test
    /// reads the threshold alone, `testABucketDropWhileOutOfQuotaIsADecisionPoint`
    /// checks the chain.)
    func testStandbyThresholdMovesTheBucketChange() {
        let lastUse = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        let from = lastUse + .hours(6), to = lastUse + .hours(12)
        let other = DeviceTrace.Session(start: lastUse + .hours(10), end: lastUse + .hours(10) + .seconds(10 as Int64), app: 1)
        let (_, byDefault) = greedy(extra: [other])
        XCTAssertGreaterThanOrEqual(runTime(byDefault, from: from + .hours(1), to: to), .minutes(100))
        let (_, runs) = greedy(extra: [other], rules: { $0.standby.workingSetAfter = .hours(6) })
        XCTAssertLessThanOrEqual(runTime(runs, from: from, to: to), .minutes(20))
        XCTAssertGreaterThan(runTime(runs, from: from, to: to), .zero)
        let ofApp0 = lastLog.filter { $0.kind == .quotaExhausted && $0.app == 0 }
        XCTAssertTrue(ofApp0.filter { $0.time < from }.allSatisfy { $0.detail == "active" })
        let exhausted = ofApp0.filter { $0.time > from && $0.time < to }
        XCTAssertFalse(exhausted.isEmpty)
        XCTAssertTrue(exhausted.allSatisfy { $0.detail == "working-set" }, "\(exhausted.map(\.detail))")
        // What a policy is told: the bucket at 6 h.
        var rules = AndroidWorkRules()
        rules.standby.workingSetAfter = .hours(6)
        let android = AndroidPlatform(rules: rules, apps: 1)
        android.sync(now: .zero, state: DeviceState())
        XCTAssertEqual(android.bucket(of: 0, at: .zero + .hours(6)), .workingSet)
        XCTAssertEqual(AndroidPlatform(rules: AndroidWorkRules(), apps: 1).bucket(of: 0, at: .zero + .hours(6)), nil,
                       "no bucket before the first sync")
    }

    /// A12's chain: the app runs out of its active quota, its bucket drops
    /// to working set (6 h threshold) before that quota frees, so at the
    /// time it would have freed it is still out of working set's smaller
    /// quota; the time that frees is the next decision point. With no other
    /// event on the device, the app still runs again within working set's
    /// 4 h window (before the chain, it never ran again in the 2 days).
    func testABucketDropWhileOutOfQuotaIsADecisionPoint() {
        let lastUse = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        let (_, runs) = greedy(rules: { $0.standby.workingSetAfter = .hours(6) })
        let afterDrop = runs.filter { $0.start >= lastUse + .hours(6) }
        guard let first = afterDrop.first else { return XCTFail("the app never runs again after its bucket dropped") }
        XCTAssertLessThanOrEqual(first.start, lastUse + .hours(6) + .hours(4) + .minutes(1))
        // And keeps running, at working set's pace: one run per 4 h 30 s window.
        XCTAssertGreaterThanOrEqual(afterDrop.count, 8)
        XCTAssertLessThanOrEqual(busiestWindow(afterDrop, window: .hours(4)), .minutes(10))
    }
}
