@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import XCTest

/// Coalescing never runs what its base would not run soon.
final class CoalescingTests: XCTestCase {
    // MARK: 1. Coalescing never runs what its base would not run soon

    /// coalescing(never) is never: not one task, not one joule, same launches.
    func testCoalescingNeverIsNever() {
        for (i, t) in users(6, days: 4).enumerated() {
            let never = simulateDevice(trace: t, policy: NeverPolicy(), randomKey: UInt64(i))
            let wrapped = simulateDevice(trace: t, policy: CoalescingPolicy(base: NeverPolicy()), randomKey: UInt64(i))
            for c in UserMetrics.columns {
                let x = c.value(wrapped), y = c.value(never)
                XCTAssertTrue(x == y || (x.isNaN && y.isNaN), "user \(i) \(c.name): \(x) vs \(y)")
            }
            XCTAssertEqual(wrapped.tasksRun, 0)
        }
    }

    /// coalescing(fixed-interval 2h) never refreshes an app more often than
    /// every 2h − window: riding a foreground tail pulls the base's next run
    /// forward by at most the window instead of running everything eligible.
    func testCoalescingRespectsTheBaseInterval() {
        let window = SimDuration.minutes(15)
        let base = FixedIntervalPolicy(interval: .hours(2), flex: .minutes(5))
        for (i, t) in users(6, days: 3).enumerated() {
            let (_, log) = simulateDeviceWithLog(trace: t, policy: CoalescingPolicy(base: base, window: window), randomKey: UInt64(i))
            var last: [Int32: SimTime] = [:]
            for e in log.events where e.kind == .task && e.taskKind == .appRefresh {
                if let l = last[e.app] {
                    XCTAssertGreaterThanOrEqual(e.start! - l, .hours(2) - .minutes(5) - window,
                                                "user \(i) app \(e.app) at \(e.start!)")
                }
                last[e.app] = e.start!
            }
        }
    }

    /// coalescing(usage-predictor) stays within usage-predictor's daily
    /// budget (it spent several times the budget when tails ran everything).
    func testCoalescedPredictorKeepsTheBudget() {
        let budget = 15.0
        let predictor = UsagePredictorPolicy(threshold: 0.05, dailyBudget: budget)
        var plainTotal = 0.0, coalescedTotal = 0.0
        for (i, t) in users(8, days: 5).enumerated() {
            let (_, plain) = simulateDeviceWithLog(trace: t, policy: predictor, randomKey: UInt64(i))
            let (_, coalesced) = simulateDeviceWithLog(trace: t, policy: CoalescingPolicy(base: predictor), randomKey: UInt64(i))
            let p = joulesByDay(plain, days: 5), c = joulesByDay(coalesced, days: 5)
            plainTotal += p.reduce(0, +); coalescedTotal += c.reduce(0, +)
            for d in 0..<5 {
                // A day may overshoot by about one run: an LTE refresh with
                // its promotion and tail costs ~26 J, a Wi-Fi one under 1 J.
                XCTAssertLessThanOrEqual(c[d], budget + oneLTERun, "user \(i) day \(d): coalescing(predictor)")
                XCTAssertLessThanOrEqual(p[d], budget + oneLTERun, "user \(i) day \(d): predictor")
            }
        }
        print("budget \(budget) J/day: predictor \(plainTotal / 40) J/user-day, coalescing(predictor) \(coalescedTotal / 40) J/user-day")
        XCTAssertLessThanOrEqual(coalescedTotal / 40, 1.25 * budget)
        XCTAssertLessThanOrEqual(plainTotal / 40, 1.25 * budget)
    }

}
