// The decisions of cost-aware-predictor and model-bound, which skip the
// gain test where it cannot change the decision, against the rule asked
// for every pending request (written out here as the policies stated it
// before the skip): on random learnt states, models, pending lists and
// device states, every decision (run list and wake) must be the rule's.
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import TestSupport
import Traces
import XCTest

final class DecisionDifferentialTests: XCTestCase {
    /// A random device state and pending list at `now`: requests of every
    /// kind, before, at and after their earliest begin (by less and more
    /// than the policies' 15-minute recheck), some of the foreground app.
    func randomContext(now: SimTime, apps: Int, _ rng: inout TestRandom) -> PolicyContext {
        let network: NetworkType = [.wifi, .cellular, .wifi, .offline][Int(rng.next() * 4)]
        let screenOn = rng.next() < 0.3
        let device = DeviceState(batteryPercent: rng.next() < 0.1 ? 10 : 80, isCharging: rng.next() < 0.3,
                                 isLowPowerMode: rng.next() < 0.05, network: network, isScreenOn: screenOn,
                                 foregroundApp: screenOn ? Int32(rng.next() * Double(apps)) : nil)
        let offsets: [Double] = [-7200, -600, -1, 0, 1, 300, 899, 900, 901, 1800, 7200]
        var pending: [TaskRequest] = []
        for k in 0..<Int(rng.next() * Double(2 * apps + 2)) {
            let kind: TaskKind = rng.next() < 0.15 ? .processing : (rng.next() < 0.2 ? .legacyFetch : .appRefresh)
            let begin = now + .seconds(offsets[Int(rng.next() * Double(offsets.count))] * (rng.next() < 0.5 ? 1 : rng.next()))
            pending.append(TaskRequest(id: RequestID(UInt32(k)), app: Int32(rng.next() * Double(apps)), identifier: 0,
                                       kind: kind, earliestBegin: max(.zero, begin),
                                       requiresExternalPower: kind == .processing && rng.next() < 0.5,
                                       submittedAt: max(.zero, begin - .minutes(15))))
        }
        return PolicyContext(now: now, device: device, pending: pending, appCount: apps,
                             radioUpUntil: rng.next() < 0.3 ? now + .seconds(5 as Int64) : nil,
                             backgroundJoules: rng.next() * 400)
    }

    /// `CostAwarePredictorPolicy.decide` as the rule states it: the gain
    /// test (the plain sum) asked for every pending refresh.
    func plainDecide(_ p: CostAwarePredictorPolicy, _ context: PolicyContext) -> PolicyDecision {
        let now = context.now
        let capped = p.bar.capped(joules: context.backgroundJoules)
        let joules = p.cost.joules(context)
        var run: [RequestID] = []
        var wake: SimTime? = nil
        func wakeAt(_ t: SimTime) { if wake.map({ t < $0 }) ?? true { wake = t } }
        for r in context.pending {
            if r.kind == .processing {
                if context.device.isCharging && context.isEligible(r) { run.append(r.id) }
                continue
            }
            guard context.device.network.isOnline && !capped else { continue }
            let a = Int(r.app)
            if p.expectedGain(app: a, now: now) >= p.bar.gainPerJoule * joules {
                switch context.refusal(for: r) {
                case nil:
                    if let until = p.timing.hold(r, now: now, device: context.device, rate: p.content.rate(app: a)) {
                        wakeAt(until)
                    } else {
                        run.append(r.id)
                    }
                case .beforeEarliestBegin?: wakeAt(r.earliestBegin)
                default: break
                }
            } else {
                wakeAt(max(now + p.recheck, r.earliestBegin))
            }
        }
        if capped { wakeAt(SimTime(day: now.day + 1)) }
        return PolicyDecision(run: run, wakeAt: wake)
    }

    func testCostAwarePredictorDecidesAsTheRuleAskedForEveryRequest() {
        var rng = TestRandom(seed: 2612)
        var decisions = 0, runs = 0, wakes = 0
        for world in 0..<40 {
            let apps = 1 + Int(rng.next() * 8)
            var policy = CostAwarePredictorPolicy(targetJoulesPerDay: [20, 60, 2000][world % 3],
                                                  initialGainPerJoule: [0.05, 0.002, 0.3][(world / 3) % 3],
                                                  holdForLaunch: world % 4 == 3, triggerProbability: 0.05)
            var t = SimTime.zero
            let end = SimTime(day: 2 + Int(rng.next() * 6))
            while t < end {
                t = t + .seconds(rng.next() * rng.next() * 3 * 3600)
                let c = randomContext(now: t, apps: apps, &rng)
                GainTestDifferentialTests.randomObservation(&policy, apps: apps, at: t, context: c, &rng)
                let plain = plainDecide(policy, c)
                var fast = policy
                XCTAssertEqual(fast.decide(context: c), plain, "world \(world), t \(t.microseconds)")
                decisions += 1
                if !plain.run.isEmpty { runs += 1 }
                if plain.wakeAt != nil { wakes += 1 }
            }
        }
        // Decisions that run something and decisions that only wake, many of each.
        XCTAssertGreaterThan(decisions, 1_000)
        XCTAssertGreaterThan(runs, decisions / 20)
        XCTAssertGreaterThan(wakes, decisions / 5)
    }

    /// `ModelAwareBoundPolicy.decide` as the rule states it: the written
    /// gain test (`gainReaches`) asked for every pending refresh.
    func plainDecide(_ p: ModelAwareBoundPolicy, _ context: PolicyContext) -> PolicyDecision {
        guard let model = context.model, context.device.network.isOnline else { return .none }
        let now = context.now
        let bar = p.minGainPerJoule * p.cost.joules(context)
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            let fetchedAt = a < p.lastFetch.count ? p.lastFetch[a] : .zero
            var at = now + p.recheck
            if ModelAwareBoundPolicy.gainReaches(bar, model, app: a, fetchedAt: fetchedAt, now: now) {
                switch context.refusal(for: r) {
                case nil:
                    run.append(r.id)
                    continue
                case .beforeEarliestBegin?: at = r.earliestBegin
                default: break
                }
            } else if r.earliestBegin > at {
                at = r.earliestBegin
            }
            if wake == nil || at < wake! { wake = at }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }

    func testModelBoundDecidesAsTheRuleAskedForEveryRequest() {
        var rng = TestRandom(seed: 2613)
        var decisions = 0, runs = 0, wakes = 0
        for world in 0..<40 {
            let apps = 1 + Int(rng.next() * 8)
            let model = GainTestDifferentialTests.randomModel(apps: apps, &rng)
            var policy = ModelAwareBoundPolicy(minGainPerJoule: [0.01, 0.03, 0.1, 0.001][world % 4])
            var t = SimTime.zero
            let end = SimTime(day: 1 + Int(rng.next() * 4))
            while t < end {
                t = t + .seconds(rng.next() * rng.next() * 3 * 3600)
                var c = randomContext(now: t, apps: apps, &rng)
                c.model = model
                let a = Int32(rng.next() * Double(apps))
                if rng.next() < 0.3 {
                    policy.observe(.launch(app: a), context: c)
                } else if rng.next() < 0.3 {
                    let r = TaskRequest(id: RequestID(1), app: a, identifier: 0, kind: .appRefresh, earliestBegin: t,
                                        submittedAt: t)
                    policy.observe(.taskFinished(TaskReport(request: r, start: t, end: t + .seconds(2 as Int64),
                                                            outcome: .success, fetchResult: .newData)), context: c)
                }
                let plain = plainDecide(policy, c)
                var fast = policy
                XCTAssertEqual(fast.decide(context: c), plain, "world \(world), t \(t.microseconds)")
                decisions += 1
                if !plain.run.isEmpty { runs += 1 }
                if plain.wakeAt != nil { wakes += 1 }
            }
        }
        XCTAssertGreaterThan(decisions, 1_000)
        XCTAssertGreaterThan(runs, decisions / 20)
        XCTAssertGreaterThan(wakes, decisions / 5)
    }
}
