import Device
@testable import Policies
import SimCore
import XCTest

/// The policies' hot paths (written for speed) against the plain forms they
/// replaced: the same answers on every combination or on many random
/// contexts. The simulation outputs are checked byte for byte elsewhere;
/// these catch a difference in states a suite run may not reach.
final class FastPathTests: XCTestCase {
    /// `EligibilityTest.allows` is `OSRules.refusal == nil` for every
    /// combination of the request fields and device state the rules read.
    func testEligibilityMatchesOSRules() {
        let now = SimTime(microseconds: 1_000_000)
        var checked = 0
        for kind in TaskKind.allCases {
            for power in [false, true] {
                for net in [false, true] {
                    for begin in [now - .seconds(1 as Int64), now, now + .seconds(1 as Int64)] {
                        for app: Int32 in [0, 3] {
                            let r = TaskRequest(id: RequestID(1), app: app, identifier: 0, kind: kind, earliestBegin: begin,
                                                requiresExternalPower: power, requiresNetworkConnectivity: net,
                                                submittedAt: .zero)
                            for state in Self.states() {
                                let ctx = PolicyContext(now: now, device: state, pending: [r])
                                XCTAssertEqual(EligibilityTest(ctx).allows(r), OSRules.refusal(for: r, at: now, state: state) == nil,
                                               "\(r) in \(state)")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }

    /// Every device state a rule distinguishes (battery around the 20 %
    /// threshold, NaN included).
    static func states() -> [DeviceState] {
        var out: [DeviceState] = []
        for battery in [100, 20, 19.999, 0, Double.nan] {
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
    static func randomContext(_ rng: inout FixtureRandom, apps: Int = 4, maxPending: Int = 12) -> PolicyContext {
        let now = SimTime(day: 3, plus: .seconds(rng.next() * 86_400))
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

    /// fixed-interval's `decide` against the plain loop it replaced.
    func testFixedIntervalMatchesReference() {
        var rng = FixtureRandom(seed: 42)
        for _ in 0..<20_000 {
            let ctx = Self.randomContext(&rng)
            var p = FixedIntervalPolicy(interval: .minutes(rng.next() < 0.5 ? 60 : 15), flex: .minutes(5))
            // Some apps never ran, some ran around now (due soon or past).
            let known = Int(rng.next() * 5)
            p.lastRun = (0..<known).map { _ in
                rng.next() < 0.2 ? SimTime(microseconds: Int64.min / 4) : ctx.now - .seconds(rng.next() * 5_400)
            }
            XCTAssertEqual(p.decide(context: ctx), Self.referenceFixedInterval(p, ctx))
        }
        // A wake at the largest time is a wake, not "none" (the loops use it as their sentinel).
        let far = PolicyContext(now: .zero, device: DeviceState(), pending: [refresh(earliestBegin: .distantFuture)])
        XCTAssertEqual(FixedIntervalPolicy().decide(context: far).wakeAt, .distantFuture)
        XCTAssertEqual(FixedIntervalPolicy().decide(context: far), Self.referenceFixedInterval(FixedIntervalPolicy(), far))
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
}
