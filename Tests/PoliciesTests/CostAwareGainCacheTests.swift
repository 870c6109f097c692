// cost-aware-predictor's kept hour bounds (LaunchHourBound.swift,
// CostAwarePredictorPolicy+HourBounds.swift) against the plain computation:
// the bounds hold the written launch factor at every time of their hour,
// and the answers through the kept bounds are the plain sum's, on random
// models whose rates change between queries minutes apart.
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import TestSupport
import XCTest

final class CostAwareGainCacheTests: XCTestCase {
    /// Walks `worlds` random learners (`GainTestDifferentialTests.randomLearner`)
    /// through 2–7 random days in steps of up to `step` seconds, a random
    /// observation at a step with probability `observing` (else the roll to
    /// it alone); `visit` gets the world, the learner, its app count and the time.
    func walk(_ worlds: Int, step: Double, observing: Double, _ rng: inout TestRandom,
              _ visit: (Int, inout CostAwarePredictorPolicy, Int, SimTime, inout TestRandom) -> Void) {
        for world in 0..<worlds {
            let apps = 1 + Int(rng.next() * 5)
            var policy = GainTestDifferentialTests.randomLearner(world: world, apps: apps, &rng)
            var t = SimTime.zero
            let end = SimTime(day: 2 + Int(rng.next() * 6))
            while t < end {
                t = t + .seconds(rng.next() * step)
                if rng.next() < observing {
                    GainTestDifferentialTests.randomObservation(&policy, apps: apps, at: t, &rng)
                } else {
                    policy.roll(PolicyContext(now: t, device: DeviceState(network: .wifi), appCount: apps))
                }
                visit(world, &policy, apps, t, &rng)
            }
        }
    }

    func testHourBoundsHoldTheLaunchFactorAllHour() {
        var rng = TestRandom(seed: 5261)
        var checked = 0
        walk(40, step: 3 * 3600, observing: 0.8, &rng) { world, policy, apps, t, rng in
            let model = policy.launches
            for a in 0..<min(apps, model.apps) {
                let u = policy.content.rate(app: a)
                // What the policy asks bounds for (`launchBounds`): bins that are numbers, a finite content rate.
                let binsAreNumbers = !model.timeOfWeek
                    || (model.weekdaysSeen + model.priorDays > 0 && model.weekendDaysSeen + model.priorDays > 0)
                guard u.isFinite && binsAreNumbers else { continue }
                let bounds = model.hourBounds(app: a, now: t, updatesPerHour: u, horizon: policy.horizon,
                                              terms: &policy.hourTerms)
                // Times of the same hour, the model unchanged (short-lived terms aside).
                let hour = SimDuration.microsecondsPerHour
                let start = t.microseconds / hour * hour
                for _ in 0..<6 {
                    let at = SimTime(microseconds: start + Int64(rng.next() * Double(hour)))
                    let extra = model.boosts(app: a, at: at)
                    guard extra.recency == 0 && extra.previous == 0 else { continue }
                    let factor = model.launchBeforeUpdate(app: a, now: at, updatesPerHour: u, horizon: policy.horizon)
                    // Over the whole hour, bracketed at `at`, and with the first step as the rule works it out.
                    for (name, b) in [("hour", bounds.wholeHour), ("around", bounds.around(at)), ("exactly", bounds.exactly(at))] {
                        if factor.isNaN { continue }
                        XCTAssertGreaterThanOrEqual(b.above * (1 + 1e-12), factor,
                                                    "\(name): world \(world), app \(a), at \(at.microseconds)")
                        XCTAssertLessThanOrEqual(b.below, factor * (1 + 1e-12),
                                                 "\(name): world \(world), app \(a), at \(at.microseconds)")
                        checked += 1
                    }
                    // Each narrower than the one before.
                    let (whole, around, exactly) = (bounds.wholeHour, bounds.around(at), bounds.exactly(at))
                    XCTAssertLessThanOrEqual(around.above, whole.above + 1e-12)
                    XCTAssertLessThanOrEqual(exactly.above, around.above + 1e-12)
                    XCTAssertGreaterThanOrEqual(exactly.below + 1e-12, around.below)
                    XCTAssertGreaterThanOrEqual(around.below + 1e-12, whole.below)
                }
            }
        }
        XCTAssertGreaterThan(checked, 15_000)
    }

    func testMayBoostIsFalseOnlyWithNoShortLivedTerm() {
        var rng = TestRandom(seed: 2606)
        var quiet = 0, maybe = 0
        walk(40, step: 900, observing: 0.3, &rng) { world, policy, apps, t, _ in
            for a in 0..<min(apps, policy.launches.apps) {
                guard !policy.launches.mayBoost(app: a, at: t) else { maybe += 1; continue }
                let extra = policy.launches.boosts(app: a, at: t)
                XCTAssertTrue(extra.recency == 0 && extra.previous == 0, "world \(world), app \(a), t \(t.microseconds)")
                quiet += 1
            }
        }
        XCTAssertGreaterThan(quiet, 1_000)
        XCTAssertGreaterThan(maybe, 1_000)
    }

    func testKeptBoundsAnswerAsThePlainSum() {
        var rng = TestRandom(seed: 2605)
        var checked = 0, quickNo = 0, quickYes = 0, boosted = 0, boostedExact = 0
        walk(48, step: 1200, observing: 0.15, &rng) { world, policy, apps, t, rng in
            for b in 0..<apps {
                let gain = policy.expectedGain(app: b, now: t)
                // The bars a run asks (fixed per world) and bars at the gain.
                let runBar = [0.002, 0.01, 0.03, 0.1, 0.3][world % 5] * (rng.next() < 0.5 ? 1 : 14)
                for bar in [runBar] + GainTestDifferentialTests.bars(around: gain, &rng) {
                    // Where the kept bounds answer (as `gainReaches` uses them), they agree.
                    if bar > 0, let bounds = policy.launchBounds(app: b, now: t) {
                        let factor = policy.launches.launchBeforeUpdate(app: b, now: t,
                                                                        updatesPerHour: policy.content.rate(app: b),
                                                                        horizon: policy.horizon)
                        XCTAssertGreaterThanOrEqual(bounds.above * (1 + 1e-12), factor, "world \(world), app \(b)")
                        if policy.launches.boosts(app: b, at: t) != (0, .zero, 0, .zero) { boosted += 1 }
                        let extra = policy.launches.boosts(app: b, at: t)
                        XCTAssertEqual(bounds.boosted, extra.recency > 0 || extra.previous > 0)
                        // The bounds with the part-hour steps as the rule works them out hold it too.
                        if let exact = policy.exactLaunchBounds(app: b, now: t, hour: bounds.hour, boosted: bounds.boosted) {
                            XCTAssertGreaterThanOrEqual(exact.above * (1 + 1e-12), factor, "world \(world), app \(b)")
                            XCTAssertLessThanOrEqual(exact.below, factor + 1e-12, "world \(world), app \(b)")
                            XCTAssertLessThanOrEqual(exact.above, bounds.above + 1e-12, "world \(world), app \(b)")
                            if bounds.boosted { boostedExact += 1 }
                        }
                        let m = policy.content.staleExponent(app: b, now: t)
                        let below = policy.launchBelow(now: t, hour: bounds.hour, boosted: bounds.boosted)
                        XCTAssertLessThanOrEqual(below, factor * (1 + 1e-12), "world \(world), app \(b)")
                        if ContentRateEstimator.staleBound(exponent: m) * bounds.above < bar / (1 + 1e-9) {
                            XCTAssertLessThan(gain, bar, "world \(world), app \(b), t \(t.microseconds), bar \(bar)")
                            quickNo += 1
                        } else if -expm1(-m) * below >= bar * (1 + 1e-9) {
                            XCTAssertGreaterThanOrEqual(gain, bar, "world \(world), app \(b), t \(t.microseconds)")
                            quickYes += 1
                        }
                    }
                    XCTAssertEqual(policy.gainReaches(bar, app: b, now: t), gain >= bar,
                                   "world \(world), app \(b), t \(t.microseconds), gain \(gain), bar \(bar)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 20_000)
        XCTAssertGreaterThan(quickNo, checked / 10)
        XCTAssertGreaterThan(quickYes, checked / 50)
        // Bounds with short-lived terms on were checked too.
        XCTAssertGreaterThan(boosted, 500)
        XCTAssertGreaterThan(boostedExact, 500)
    }
}
