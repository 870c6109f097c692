@_spi(BuiltInPolicies) @testable import Device
@_spi(BuiltInPolicies) @testable import Policies
import SimCore
import TestSupport
import Traces
import XCTest

/// A ``RequestPlanningPolicy`` runs two ways: the simulator keeps its plans
/// and decides from them (`consultPlans`), or — inside a wrapper — its
/// derived `decide` is called at every decision point. The two must give the
/// same simulation, event for event.
final class PlanningPathTests: XCTestCase {
    /// The policy behind a box that is not a planning policy: the simulator
    /// calls `decide` (the derived one) at every decision point.
    typealias DecideOnly = PolicyConformance.DecideEveryTime

    /// A deliberately dumb planning policy whose plans change with
    /// observations of several kinds and apps: a request runs from
    /// `delay` after the last launch of *any* app and wakes then; a state
    /// change pushes every plan back by `delay`. With scope `.all` (the
    /// default) every observation forgets every plan.
    struct AfterAnyLaunch: RequestPlanningPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: [.launch, .stateChanged]) }
        var delay = SimDuration.minutes(20)
        var lastLaunch = SimTime.zero
        var lastChange = SimTime.zero
        mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
            switch observation {
            case .launch: lastLaunch = context.now
            case .stateChanged: lastChange = context.now
            default: break
            }
        }
        func plan(for r: TaskRequest) -> RequestPlan {
            let from = max(lastLaunch, lastChange) + delay
            return RequestPlan(runFrom: from, wakeAt: r.kind == .processing ? nil : max(from, r.earliestBegin))
        }
    }

    /// Per-app plans (scope `.observedApp`): a request runs from `delay`
    /// after its own app's last launch; launches of other apps leave it.
    struct AfterOwnLaunch: RequestPlanningPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: .launch) }
        static var planningScope: PlanScope { .observedApp }
        var lastLaunch: [Int32: SimTime] = [:]
        mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
            if case .launch(let app) = observation { lastLaunch[app] = context.now }
        }
        func plan(for r: TaskRequest) -> RequestPlan {
            let from = (lastLaunch[r.app] ?? .zero) + .minutes(45)
            return RequestPlan(runFrom: from, wakeAt: from)
        }
    }

    func assertBothPathsAgree<P: SchedulingPolicy>(_ policy: P, file: StaticString = #filePath, line: UInt = #line) {
        for (i, t) in users(3, days: 4, seed: 11).enumerated() {
            let key = UInt64(i) &* 977 &+ 3
            let (kept, keptLog) = simulateDeviceWithLog(trace: t, policy: policy, randomKey: key)
            let (asked, askedLog) = simulateDeviceWithLog(trace: t, policy: DecideOnly(base: policy), randomKey: key)
            XCTAssertGreaterThan(kept.tasksRun, 0, "user \(i): nothing ran", file: file, line: line)
            XCTAssertEqual(kept, asked, "user \(i): \(P.self)", file: file, line: line)
            XCTAssertEqual(keptLog.events, askedLog.events, "user \(i): \(P.self)", file: file, line: line)
        }
    }

    func testTheShippedPlanningPoliciesDecideAlikeBothWays() {
        XCTAssertNotNil(FixedIntervalPolicy.planScope)
        XCTAssertNotNil(GreedyPolicy.planScope)
        XCTAssertNil(DecideOnly<GreedyPolicy>.planScope)
        for interval in [SimDuration.minutes(15), .hours(1), .hours(4)] {
            assertBothPathsAgree(FixedIntervalPolicy(interval: interval))
        }
        assertBothPathsAgree(FixedIntervalPolicy(interval: .minutes(30), flex: .zero))
        assertBothPathsAgree(GreedyPolicy())
    }

    /// Plans that depend on what other apps do: each observation must
    /// forget them all (a simulator that kept them would run too early).
    func testPlansForgottenAfterEveryObservationForScopeAll() {
        XCTAssertEqual(AfterAnyLaunch.planScope, .all)
        assertBothPathsAgree(AfterAnyLaunch())
    }

    /// Per-app plans: an observation forgets its own app's plans only.
    func testPlansForgottenPerAppForScopeObservedApp() {
        XCTAssertEqual(AfterOwnLaunch.planScope, .observedApp)
        assertBothPathsAgree(AfterOwnLaunch())
    }

    /// Coalescing over a planning base looks ahead through the base's
    /// plans (`pulledAheadByPlans`); over the same base behind `DecideOnly`
    /// it asks a copy to decide at each step. Same decisions on random
    /// contexts (radio up half the time, lookahead windows up to 2 h) and
    /// the same simulations.
    func testCoalescingLooksAheadThroughPlansAsThroughDecisions() {
        var rng = TestRandom(seed: 23)
        var lookaheads = 0
        for round in 0..<40 {
            let window: SimDuration = [.minutes(15), .hours(1), .hours(2)][round % 3]
            let base = FixedIntervalPolicy(interval: [.minutes(20), .hours(1)][round % 2], flex: .minutes(Int64(round % 3) * 5))
            var planned = CoalescingPolicy(base: base, window: window)
            var asked = CoalescingPolicy(base: DecideOnly(base: base), window: window)
            var greedyPlanned = CoalescingPolicy(base: GreedyPolicy(), window: window)
            var greedyAsked = CoalescingPolicy(base: DecideOnly(base: GreedyPolicy()), window: window)
            for step in 0..<100 {
                let now = SimTime(day: step / 25, plus: .seconds(Double(step % 25) * 3_000 + rng.next() * 3_000))
                let ctx = FastPathTests.randomContext(&rng, apps: 4, now: now)
                if rng.next() < 0.4, !ctx.pending.isEmpty {
                    let r = ctx.pending[Int(rng.next() * Double(ctx.pending.count))]
                    let o = PolicyObservation.taskFinished(TaskReport(request: r, start: now - .seconds(rng.next() * 3_600),
                                                                       end: now, outcome: .success, fetchResult: nil,
                                                                       energyJoules: 1))
                    planned.observe(o, context: ctx); asked.observe(o, context: ctx)
                }
                let d = planned.decide(context: ctx)
                XCTAssertEqual(d, asked.decide(context: ctx), "round \(round) step \(step)")
                XCTAssertEqual(greedyPlanned.decide(context: ctx), greedyAsked.decide(context: ctx), "round \(round) step \(step)")
                if let up = ctx.radioUpUntil, up > now, !d.run.isEmpty { lookaheads += 1 }
            }
        }
        XCTAssertGreaterThan(lookaheads, 100, "the radio-up path was exercised")
        for (i, t) in users(2, days: 4, seed: 13).enumerated() {
            let planned = simulateDevice(trace: t, policy: CoalescingPolicy(base: FixedIntervalPolicy(interval: .hours(1))), randomKey: UInt64(i))
            let asked = simulateDevice(trace: t, policy: CoalescingPolicy(base: DecideOnly(base: FixedIntervalPolicy(interval: .hours(1)))),
                                       randomKey: UInt64(i))
            XCTAssertGreaterThan(planned.tasksRun, 0)
            XCTAssertEqual(planned, asked, "user \(i)")
        }
    }

    /// A planning policy whose plans depend on the last launch of *any*
    /// app but which declares `.observedApp` (a launch of one app changes
    /// only that app's plans): wrong, since a launch of app 0 moves app 1's
    /// plan too. The kept plans go stale, and the conformance check says so.
    struct AfterAnyLaunchMisdeclared: RequestPlanningPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: .launch) }
        static var planningScope: PlanScope { .observedApp }
        var lastLaunch = SimTime.zero
        mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
            if case .launch = observation { lastLaunch = context.now }
        }
        func plan(for r: TaskRequest) -> RequestPlan {
            let from = lastLaunch + .minutes(20)
            return RequestPlan(runFrom: from, wakeAt: max(from, r.earliestBegin))
        }
    }

    func testConformanceCheckCatchesAPlanningScopeTooNarrow() {
        let problems = PolicyConformance.check(AfterAnyLaunchMisdeclared()).map(\.problem)
        XCTAssertTrue(problems.contains { $0.contains("kept plans decide otherwise") }, "\(problems)")
        XCTAssertEqual(PolicyConformance.check(AfterAnyLaunch()), [])
        XCTAssertEqual(PolicyConformance.check(AfterOwnLaunch()), [])
        XCTAssertEqual(PolicyConformance.check(FixedIntervalPolicy(interval: .minutes(20))), [])
        XCTAssertEqual(PolicyConformance.check(GreedyPolicy()), [])
    }

    /// A planning policy behind the existential box (how the runner calls
    /// it) is found and planned through it.
    func testTheBoxFindsAPlanningPolicy() {
        let t = users(1, days: 2, seed: 3)[0]
        let boxed = simulateDevice(trace: t, policy: FixedIntervalPolicy(interval: .hours(2)) as any SchedulingPolicy, randomKey: 4)
        let asked = simulateDevice(trace: t, policy: DecideOnly(base: FixedIntervalPolicy(interval: .hours(2))), randomKey: 4)
        XCTAssertEqual(boxed, asked)
        XCTAssertEqual(AnyPolicy(FixedIntervalPolicy()).plans, .observedApp)
        XCTAssertNil(AnyPolicy(OraclePolicy()).plans)
    }
}
