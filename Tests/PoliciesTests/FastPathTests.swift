@_spi(BuiltInPolicies) @testable import Device
@_spi(BuiltInPolicies) @testable import Policies
import SimCore
import TestSupport
import XCTest

/// The policies' speed devices (the eligibility table, caches, search
/// cursors) never change an answer: checked against the OS rules on every
/// combination, and against the same policy with its caches dropped on
/// many random contexts. These catch a difference in states a suite run
/// may not reach.
final class FastPathTests: XCTestCase {
    /// `EligibilityTest.allows` is `OSRules.refusal == nil` for every
    /// combination of the request fields and device state the rules read,
    /// at the default low-battery threshold and at another one.
    func testEligibilityMatchesOSRules() {
        let now = SimTime(microseconds: 1_000_000)
        var checked = 0
        for rules in [OSRules.standard, OSRules(lowBatteryPercent: 35)] {
        for kind in TaskKind.allCases {
            for power in [false, true] {
                for net in [false, true] {
                    for begin in [now - .seconds(1 as Int64), now, now + .seconds(1 as Int64)] {
                        for app: Int32 in [0, 3] {
                            let r = TaskRequest(id: RequestID(1), app: app, identifier: 0, kind: kind, earliestBegin: begin,
                                                requiresExternalPower: power, requiresNetworkConnectivity: net,
                                                submittedAt: .zero)
                            for state in Self.states() {
                                let ctx = PolicyContext(now: now, device: state, pending: [r], rules: rules)
                                XCTAssertEqual(EligibilityTest(ctx).allows(r), rules.refusal(for: r, at: now, state: state) == nil,
                                               "\(r) in \(state)")
                                XCTAssertEqual(ctx.isEligible(r), EligibilityTest(ctx).allows(r))
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }

    /// Every device state a rule distinguishes (battery around the 20 %
    /// and 35 % thresholds, NaN included).
    static func states() -> [DeviceState] {
        var out: [DeviceState] = []
        for battery in [100, 35, 34.999, 20, 19.999, 0, Double.nan] {
            for charging in [false, true] {
                for lowPower in [false, true] {
                    for network in NetworkType.allCases {
                        for screen in [false, true] {
                            for foreground: Int32? in [nil, 0, 3, -1] {
                                out.append(DeviceState(batteryPercent: battery, isCharging: charging, isLowPowerMode: lowPower,
                                                       network: network, isScreenOn: screen, foregroundApp: foreground))
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// A random context: a few apps, a mix of requests around `now`.
    static func randomContext(_ rng: inout TestRandom, apps: Int = 4, maxPending: Int = 12,
                              now: SimTime? = nil) -> PolicyContext {
        let now = now ?? SimTime(day: 3, plus: .seconds(rng.next() * 86_400))
        func near() -> SimTime { now + .seconds((rng.next() - 0.5) * 7_200) }
        let states = states()
        var state = states[Int(rng.next() * Double(states.count))]
        if rng.next() < 0.6 { state = DeviceState(network: rng.next() < 0.5 ? .wifi : .cellular) } // mostly eligible
        var pending: [TaskRequest] = []
        for i in 0..<Int(rng.next() * Double(maxPending + 1)) {
            let kind = TaskKind.allCases[Int(rng.next() * 3)]
            pending.append(TaskRequest(id: RequestID(UInt32(i * 3 + 1)), app: Int32(rng.next() * Double(apps)), identifier: 0,
                                       kind: kind, earliestBegin: rng.next() < 0.1 ? now : near(),
                                       requiresExternalPower: kind == .processing && rng.next() < 0.5,
                                       requiresNetworkConnectivity: rng.next() < 0.5, submittedAt: .zero))
        }
        return PolicyContext(now: now, device: state, pending: pending, appCount: apps,
                             radioUpUntil: rng.next() < 0.5 ? now + .seconds(rng.next() * 600) : nil)
    }

    /// fixed-interval's `decide` (derived from its plans) wakes at the
    /// largest time as a wake, not as "none" (the loops use it as their sentinel).
    func testFixedIntervalWakesAtTheLargestTime() {
        let far = PolicyContext(now: .zero, device: DeviceState(), pending: [refresh(earliestBegin: .distantFuture)])
        let fresh = FixedIntervalPolicy()
        XCTAssertEqual(fresh.decide(context: far).wakeAt, .distantFuture)
        XCTAssertEqual(fresh.decide(context: far).run, [])
    }

    /// usage-predictor's caches (plans, scans, launched-slot skip) never
    /// change a decision: a policy that learnt from random launches and
    /// finished refreshes decides on random contexts as a copy of it with
    /// every cache dropped, with the same state after. Along the way:
    /// parameters change, copies decide ahead or behind (as coalescing asks
    /// a copy) and must leave the original as it was, and every cached
    /// claim is checked against a fresh computation.
    func testUsagePredictorCachesNeverChangeADecision() {
        var rng = TestRandom(seed: 7)
        for round in 0..<60 {
            var p = UsagePredictorPolicy(threshold: [0, 0.15, 0.4][round % 3], decay: [0.9, 1, 0.5, 0][round % 4],
                                         dailyBudget: round % 4 == 0 ? 30 : 100,
                                         slot: round % 5 == 0 ? .minutes(7) : .minutes(15))
            var ref = p
            var joules = 0.0
            for step in 0..<400 {
                let now = SimTime(day: step / 40, plus: .seconds(Double(step % 40) * 2_000 + rng.next() * 2_000))
                var ctx = Self.randomContext(&rng, apps: 5, now: now)
                joules += rng.next() * 3
                ctx.backgroundJoules = joules
                let u = rng.next()
                if u < 0.3 {
                    let o = PolicyObservation.launch(app: Int32(rng.next() * 5))
                    p.observe(o, context: ctx); ref.observe(o, context: ctx)
                } else if u < 0.45, let r = ctx.pending.first {
                    let o = PolicyObservation.taskFinished(TaskReport(request: r, start: ctx.now - .seconds(rng.next() * 900),
                                                                       end: ctx.now, outcome: .success, fetchResult: nil,
                                                                       energyJoules: rng.next() * 5))
                    p.observe(o, context: ctx); ref.observe(o, context: ctx)
                }
                if rng.next() < 0.01 {
                    let lead = SimDuration.minutes(Int64(rng.next() * 20))
                    p.leadTime = lead; ref.leadTime = lead
                }
                if rng.next() < 0.01 {
                    let threshold = [0, 0.15, 0.4, 0.6][Int(rng.next() * 4)]
                    p.threshold = threshold; ref.threshold = threshold
                }
                if rng.next() < 0.2 {
                    // A copy deciding ahead (or behind): same answers, and the original unchanged.
                    var copy = p, refCopy = ref
                    var other = ctx
                    other.now = now + .seconds((rng.next() - 0.2) * 5_000)
                    refCopy.forgetScans()
                    XCTAssertEqual(copy.decide(context: other), refCopy.decide(context: other),
                                   "copy, round \(round) step \(step)")
                    XCTAssertEqual(copy.target, refCopy.target)
                    if step % 4 == 1 { copy.checkCaches(now: other.now) }
                }
                // `ref` learns the same, but decides with nothing cached.
                ref.forgetScans()
                XCTAssertEqual(p.decide(context: ctx), ref.decide(context: ctx), "round \(round) step \(step)")
                XCTAssertEqual(p.target, ref.target)
                XCTAssertEqual(p.refreshedFor, ref.refreshedFor)
                if step % 4 == 0 { p.checkCaches(now: now) }
            }
        }
    }

    /// A scan jumps over never-launched slots only when that cannot change
    /// its answer: with a threshold of zero every slot is likely, launched
    /// or not.
    func testUsagePredictorZeroThresholdSeesUnlaunchedSlots() {
        var p = UsagePredictorPolicy(threshold: 0)
        let ctx = PolicyContext(now: SimTime(day: 2, plus: .hours(9)), device: DeviceState(), appCount: 1)
        p.observe(.launch(app: 0), context: PolicyContext(now: SimTime(day: 1, plus: .hours(20)), device: DeviceState(), appCount: 1))
        var withRefresh = ctx
        withRefresh.pending = [refresh(earliestBegin: .zero)]
        _ = p.decide(context: withRefresh)
        XCTAssertEqual(p.target, [SimTime(day: 2, plus: .hours(9))], "the current slot, never launched, is likely at threshold 0")
    }

    /// The oracle's search cursors never change a decision: it decides as
    /// a copy with the cursors dropped, on random futures, with time mostly
    /// moving forward but sometimes jumping back (a copy deciding ahead,
    /// then the original) and the future swapped.
    func testOracleCursorsNeverChangeADecision() {
        var rng = TestRandom(seed: 99)
        // On a 5-minute grid, so that launches, updates and now often coincide (the boundaries).
        func grid(_ seconds: Double) -> SimDuration { .minutes(Int64(seconds / 300) * 5) }
        func sorted(_ n: Int) -> [SimTime] {
            (0..<n).map { _ in SimTime(day: 0, plus: grid(rng.next() * 3 * 86_400)) }.sorted()
        }
        for round in 0..<40 {
            let apps = 4
            func future() -> FutureLaunches {
                FutureLaunches(launches: (0..<apps - round % 2).map { _ in sorted(Int(rng.next() * 40)) },
                               contentUpdates: (0..<apps - round % 3 % 2).map { _ in sorted(Int(rng.next() * 60)) })
            }
            var f = future()
            var p = OraclePolicy(leadTime: .minutes(1), radioWindow: .minutes(10))
            var now = SimTime.zero
            for _ in 0..<600 {
                let u = rng.next()
                if u < 0.05 { f = future() }
                now = u < 0.1 ? now - grid(rng.next() * 20_000) : now + grid(rng.next() * 1_500)
                var ctx = Self.randomContext(&rng, apps: apps, now: now)
                ctx.future = f
                if rng.next() < 0.3 {
                    p.observe(.launch(app: Int32(rng.next() * Double(apps))), context: ctx)
                }
                var uncached = p
                for a in uncached.apps.indices { uncached.apps[a].cursor = .init() }
                XCTAssertEqual(p.decide(context: ctx), uncached.decide(context: ctx))
            }
        }
    }
}

/// Fresh computations the caches are checked against.
extension UsagePredictorPolicy {
    /// Checks every cached claim against a fresh computation: each app's
    /// scan (nothing likely in [lo, clear), clear likely if found), its
    /// plan (the due time it holds for every `now` in [since, until),
    /// tried at both ends and at `now`), `fromFloor`, and the launched-slot
    /// bits (a slot with a launch counted has its bit).
    func checkCaches(now: SimTime, file: StaticString = #filePath, line: UInt = #line) {
        for a in plans.indices {
            let p = plans[a]
            XCTAssertEqual(p.fromFloor, slotFloor(refreshedFor[a]) + slot, "fromFloor of app \(a)", file: file, line: line)
            if p.lo != Self.unscanned {
                var t = p.lo
                while t < p.clear {
                    XCTAssertFalse(launchProbability(app: a, at: t) >= threshold, "app \(a): \(t) likely", file: file, line: line)
                    t = t + slot
                }
                if p.found {
                    XCTAssertTrue(launchProbability(app: a, at: p.clear) >= threshold, "app \(a): found not likely",
                                  file: file, line: line)
                }
            }
            if p.since != Self.unplanned {
                for at in [p.since, now, p.until - SimDuration(microseconds: 1)] where at >= p.since && at < p.until {
                    let start = slotAimedAt(app: a, now: at)
                    XCTAssertEqual(p.runFrom, start.map { $0 - leadTime } ?? Self.never, "app \(a) plan at \(at)",
                                   file: file, line: line)
                }
            }
        }
        if launchedExact {
            let n = slotsPerDay
            for a in 0..<appsKnown {
                for s in 0..<n where allDays[a * n + s] != 0 || (0..<7).contains(where: { byWeekday[(a * 7 + $0) * n + s] != 0 }) {
                    XCTAssertTrue(launched[a * launchedWords + s / 64] & (1 << UInt64(s % 64)) != 0, "app \(a) slot \(s) bit",
                                  file: file, line: line)
                }
            }
        }
    }
}
