@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import XCTest

/// usage-predictor: bookkeeping from observations, wakes, open slots, budget.
final class UsagePredictorTests: XCTestCase {
    // MARK: 2. Bookkeeping from observations, not from asks

    /// A wrapper that drops the base's first run of each day and asks to be
    /// woken a minute later (as a wrapper deferring to a grid would).
    struct DropFirstRunOfTheDay<Base: SchedulingPolicy>: SchedulingPolicy {
        static var traits: PolicyTraits { Base.traits }
        var base: Base
        var droppedDay = -1
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) { base.observe(o, context: context) }
        mutating func decide(context: PolicyContext) -> PolicyDecision {
            let d = base.decide(context: context)
            let wantsToRun = !d.run.isEmpty || (d.runAllEligible && context.pending.contains { context.isEligible($0) })
            if wantsToRun && context.now.day != droppedDay {
                droppedDay = context.now.day
                return PolicyDecision(wakeAt: context.now + .minutes(1))
            }
            return d
        }
    }

    /// The predictor still refreshes for its 08:00 slot when its first ask
    /// is dropped (it used to mark the slot refreshed when it asked).
    func testPredictorRefreshesWhenItsAskIsDropped() {
        let days = 8
        let sessions = makeSessions((0..<days).map { (at(day: $0, 8.05), Int32(0)) })
        let t = trace(days: days, apps: ["news"], sessions: sessions, updates: [[]])
        let (_, log) = simulateDeviceWithLog(trace: t, policy: DropFirstRunOfTheDay(base: UsagePredictorPolicy()), randomKey: 1)
        let refreshes = log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
        for d in 3..<days {
            XCTAssertTrue(refreshes.contains { $0.start! >= at(day: d, 7.8) && $0.start! < at(day: d, 8.05) },
                          "day \(d): refreshed before the 08:03 launch despite the dropped ask")
        }
    }

    // MARK: 3. Wakes when only earliestBeginDate blocks

    func learnedPredictor(launchAt hour: Double, days: Int) -> UsagePredictorPolicy {
        var p = UsagePredictorPolicy()
        for d in 0..<days {
            p.observe(.launch(app: 0), context: PolicyContext(now: at(day: d, hour), device: DeviceState(), appCount: 1))
        }
        return p
    }

    func testPredictorWakesAtEarliestBegin() {
        var p = learnedPredictor(launchAt: 8.02, days: 5)
        let now = at(day: 5, 8) - .seconds(30 as Int64)
        let eb = at(day: 5, 8) + .seconds(40 as Int64)
        let d = p.decide(context: PolicyContext(now: now, device: DeviceState(), pending: [refresh(earliestBegin: eb)], appCount: 1))
        XCTAssertTrue(d.run.isEmpty && !d.runAllEligible)
        XCTAssertEqual(d.wakeAt, eb, "woken when the request becomes eligible")
        let d2 = p.decide(context: PolicyContext(now: eb, device: DeviceState(), pending: [refresh(earliestBegin: eb)], appCount: 1))
        XCTAssertTrue(d2.runAllEligible || d2.run == [RequestID(7)], "runs then: the slot is still open")
    }

    // MARK: 5. Predictor: current slot open, budget enforced

    /// A slot that has started is still refreshed for until it ends.
    func testPredictorKeepsTheCurrentSlotOpen() {
        var p = learnedPredictor(launchAt: 8.05, days: 5)
        let now = at(day: 5, 8.04)
        let d = p.decide(context: PolicyContext(now: now, device: DeviceState(), pending: [refresh(earliestBegin: .zero)], appCount: 1))
        XCTAssertTrue(d.runAllEligible || d.run == [RequestID(7)])
    }

    /// Background energy per day stays within `dailyBudget` (plus one tail).
    func testPredictorEnforcesItsBudget() {
        let budget = 10.0
        var unlimited = 0.0, limited = 0.0
        for (i, t) in users(6, days: 4).enumerated() {
            let (_, log) = simulateDeviceWithLog(trace: t, policy: UsagePredictorPolicy(threshold: 0, dailyBudget: budget), randomKey: UInt64(i))
            let perDay = joulesByDay(log, days: 4)
            for d in 0..<4 { XCTAssertLessThanOrEqual(perDay[d], budget + oneLTERun, "user \(i) day \(d)") }
            limited += perDay.reduce(0, +)
            unlimited += simulateDevice(trace: t, policy: UsagePredictorPolicy(threshold: 0, dailyBudget: 1e9), randomKey: UInt64(i)).energy.total
        }
        print("budget \(budget) J/day: \(limited / 24) J/user-day; unlimited \(unlimited / 24)")
        XCTAssertLessThanOrEqual(limited / 24, 1.25 * budget)
        XCTAssertGreaterThan(unlimited, 3 * limited, "the budget binds")
    }

}
