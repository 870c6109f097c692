@testable import Device
@testable import Policies
import SimCore
import XCTest

/// The policies' hot paths (written for speed) against the plain forms they
/// replaced: the same answers on every combination or on many random
/// contexts. The simulation outputs are checked byte for byte elsewhere;
/// these catch a difference in states a suite run may not reach.
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
    static func randomContext(_ rng: inout FixtureRandom, apps: Int = 4, maxPending: Int = 12,
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

    /// fixed-interval's `decide` against the plain loop it replaced (one
    /// policy deciding throughout; the decision before stays unchanged by
    /// the next one).
    func testFixedIntervalMatchesReference() {
        var rng = FixtureRandom(seed: 42)
        var p = FixedIntervalPolicy()
        var previous: (got: PolicyDecision, expected: PolicyDecision)? = nil
        for _ in 0..<20_000 {
            let ctx = Self.randomContext(&rng)
            p.interval = .minutes(rng.next() < 0.5 ? 60 : 15)
            // Some apps never ran, some ran around now (due soon or past).
            let known = Int(rng.next() * 5)
            p.lastRun = (0..<known).map { _ in
                rng.next() < 0.2 ? SimTime(microseconds: Int64.min / 4) : ctx.now - .seconds(rng.next() * 5_400)
            }
            let expected = Self.referenceFixedInterval(p, ctx)
            let got = p.decide(context: ctx)
            XCTAssertEqual(got, expected)
            if let previous { XCTAssertEqual(previous.got, previous.expected, "an earlier decision changed") }
            previous = rng.next() < 0.5 ? (got, expected) : nil
        }
        // A wake at the largest time is a wake, not "none" (the loops use it as their sentinel).
        let far = PolicyContext(now: .zero, device: DeviceState(), pending: [refresh(earliestBegin: .distantFuture)])
        let fresh = FixedIntervalPolicy()
        XCTAssertEqual(fresh.decide(context: far).wakeAt, .distantFuture)
        XCTAssertEqual(fresh.decide(context: far), Self.referenceFixedInterval(FixedIntervalPolicy(), far))
    }

    /// `FixedIntervalPolicy.decide` as it was before its loop was tuned.
    static func referenceFixedInterval(_ p: FixedIntervalPolicy, _ context: PolicyContext) -> PolicyDecision {
        func runsNow(_ r: TaskRequest) -> Bool {
            guard context.isEligible(r) else { return false }
            return r.kind == .processing || context.now >= p.due(r.app) - p.flex
        }
        var wake: SimTime? = nil
        var runs = 0
        var holdsEligible = false
        for r in context.pending {
            let eligible = context.isEligible(r)
            if r.kind == .processing { if eligible { runs += 1 }; continue }
            let due = p.due(r.app)
            if eligible && context.now >= due - p.flex { runs += 1; continue }
            if eligible { holdsEligible = true }
            let at = max(due, r.earliestBegin)
            if at > context.now && (wake == nil || at < wake!) { wake = at }
        }
        if runs == 0 { return PolicyDecision(wakeAt: wake) }
        if !holdsEligible { return PolicyDecision(runAllEligible: true, wakeAt: wake) }
        var run: [RequestID] = []
        for r in context.pending where runsNow(r) { run.append(r.id) }
        return PolicyDecision(run: run, wakeAt: wake)
    }

    /// usage-predictor's `decide` (its plans, scan cache and launched-slot
    /// skip) against the plain code it replaced (an uncached scan of every
    /// slot), on policies that learnt from random launches and finished
    /// refreshes, deciding on random contexts: same decisions, same state
    /// after. Along the way: parameters change, copies decide ahead or
    /// behind (as coalescing asks a copy) and must leave the original as it
    /// was, and every cached claim is checked against a fresh computation.
    func testUsagePredictorMatchesReference() {
        var rng = FixtureRandom(seed: 7)
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
                    XCTAssertEqual(copy.decide(context: other), refCopy.referenceDecide(context: other),
                                   "copy, round \(round) step \(step)")
                    XCTAssertEqual(copy.target, refCopy.target)
                    if step % 4 == 1 { copy.checkCaches(now: other.now) }
                }
                XCTAssertEqual(p.decide(context: ctx), ref.referenceDecide(context: ctx), "round \(round) step \(step)")
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
        var ref = p
        XCTAssertEqual(p.decide(context: withRefresh), ref.referenceDecide(context: withRefresh))
        XCTAssertEqual(p.target, [SimTime(day: 2, plus: .hours(9))], "the current slot, never launched, is likely at threshold 0")
    }

    /// The oracle with its search cursors against the searches, on random
    /// futures, with time mostly moving forward but sometimes jumping back
    /// (a copy deciding ahead, then the original) and the future swapped.
    func testOracleMatchesReference() {
        var rng = FixtureRandom(seed: 99)
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
                let expected = p.referenceDecide(context: ctx)
                XCTAssertEqual(p.decide(context: ctx), expected)
            }
        }
    }
}

/// The code the fast paths replaced, kept here as their specification.
extension UsagePredictorPolicy {
    /// The first slot start in [lo, hi) whose launch probability reaches
    /// `threshold`: every slot looked at, nothing cached.
    func referenceFirstLikelySlot(app a: Int, from lo: SimTime, to hi: SimTime) -> SimTime? {
        var t = lo
        while t < hi {
            if launchProbability(app: a, at: t) >= threshold { return t }
            t = t + slot
        }
        return nil
    }

    /// The slot a refresh of `app` aims at when deciding at `now` (nil: none).
    func referenceStart(app a: Int, now: SimTime) -> SimTime? {
        // The current slot stays open until its end.
        let first = slotFloor(now)
        var from = first
        if refreshedFor[a] >= first {
            from = first + slot * ((refreshedFor[a] - first).microseconds / slot.microseconds + 1)
        }
        return referenceFirstLikelySlot(app: a, from: from, to: from + slot * Int64(slotsPerDay))
    }

    mutating func referenceDecide(context: PolicyContext) -> PolicyDecision {
        ensure(apps: context.appCount)
        roll(to: context.now)
        // The budget is battery energy: work done on the charger is left out.
        let batteryJoules = context.backgroundJoules - chargerJoules
        if context.now.day != energyDay {
            energyDay = context.now.day
            energyAtDayStart = batteryJoules
        }
        let spent = batteryJoules - energyAtDayStart
        let overBudget = spent >= dailyBudget
        let perTask = taskCount > 0 ? batteryJoules / Double(taskCount) : 0
        let pending = context.pending
        let useMask = pending.count <= 64
        var mask: UInt64 = 0
        var runs = 0
        var holdsEligible = false
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for (i, r) in pending.enumerated() {
            var runsNow = false
            defer {
                if runsNow {
                    runs += 1
                    if useMask { mask |= 1 << UInt64(i) } else { run.append(r.id) }
                } else if !holdsEligible && context.isEligible(r) {
                    holdsEligible = true
                }
            }
            if r.kind == .processing {
                // On the charger it costs the battery nothing; otherwise it
                // is held to the budget like a refresh.
                runsNow = context.isEligible(r)
                    && (r.requiresExternalPower || (!overBudget && budgetAllows(spent: spent, perTask: perTask, runs: runs + 1)))
                continue
            }
            let a = Int(r.app)
            ensure(apps: a + 1)
            guard let start = referenceStart(app: a, now: context.now) else {
                plans[a].target = Self.noSlot
                continue
            }
            plans[a].target = start
            let runFrom = start - leadTime
            if context.now >= runFrom {
                if overBudget || !budgetAllows(spent: spent, perTask: perTask, runs: runs + 1) { continue }
                switch context.refusal(for: r) {
                case nil:
                    runsNow = true
                case .beforeEarliestBegin?:
                    // Due but not yet allowed: be woken when it is (a later
                    // decision would otherwise only come with another event).
                    if wake == nil || r.earliestBegin < wake! { wake = r.earliestBegin }
                default:
                    break // a state change (screen, power, network) brings the next decision
                }
            } else {
                let at = max(runFrom, r.earliestBegin)
                if wake == nil || at < wake! { wake = at }
            }
        }
        if overBudget {
            let tomorrow = SimTime(day: context.now.day + 1)
            wake = wake.map { max($0, tomorrow) } ?? tomorrow
        }
        if useMask {
            if runs == 0 { return PolicyDecision(wakeAt: wake) }
            if !holdsEligible { return PolicyDecision(runAllEligible: true, wakeAt: wake) }
            run.reserveCapacity(runs)
            for (i, r) in pending.enumerated() where mask & (1 << UInt64(i)) != 0 { run.append(r.id) }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }

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
                    let start = referenceStart(app: a, now: at)
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

extension OraclePolicy {
    func referenceDecide(context: PolicyContext) -> PolicyDecision {
        guard let future = context.future else { return .none }
        let now = context.now
        var radioUp = false
        if let up = context.radioUpUntil, up > now, context.device.network.isOnline { radioUp = true }
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            guard a < future.launches.count, let launch = future.nextLaunch(app: r.app, after: now) else { continue }
            let fetched = a < lastFetch.count ? lastFetch[a] : .zero
            // Fresh at the launch without a refresh: nothing to do before it.
            guard let update = Self.lastUpdate(future, app: r.app, after: fetched, before: launch) else { continue }
            let latest = launch - leadTime
            let due: Bool
            if now < update {
                due = false // an update is still to come: refreshing now would be wasted
            } else if now >= latest {
                due = true
            } else {
                due = radioUp && now >= launch - radioWindow
            }
            var at: SimTime
            if due {
                switch context.refusal(for: r) {
                case nil:
                    run.append(r.id)
                    continue
                case .beforeEarliestBegin?:
                    at = r.earliestBegin
                default:
                    continue // a state change brings the next decision
                }
            } else {
                at = max(latest, update)
                if r.earliestBegin > at { at = r.earliestBegin }
            }
            if at < launch && (wake == nil || at < wake!) { wake = at }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
