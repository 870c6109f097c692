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
                    let around = (above: bounds.above(at), below: bounds.below(at))
                    for (name, b) in [("hour", bounds.wholeHour), ("around", around), ("exactly", bounds.exactly(at))] {
                        if factor.isNaN { continue }
                        XCTAssertGreaterThanOrEqual(b.above * (1 + 1e-12), factor,
                                                    "\(name): world \(world), app \(a), at \(at.microseconds)")
                        XCTAssertLessThanOrEqual(b.below, factor * (1 + 1e-12),
                                                 "\(name): world \(world), app \(a), at \(at.microseconds)")
                        checked += 1
                    }
                    // Each narrower than the one before.
                    let (whole, exactly) = (bounds.wholeHour, bounds.exactly(at))
                    XCTAssertLessThanOrEqual(around.above, whole.above + 1e-12)
                    XCTAssertLessThanOrEqual(exactly.above, around.above + 1e-12)
                    XCTAssertGreaterThanOrEqual(exactly.below + 1e-12, around.below)
                    XCTAssertGreaterThanOrEqual(around.below + 1e-12, whole.below)
                }
            }
        }
        XCTAssertGreaterThan(checked, 15_000)
    }

    /// The hour bound as the rule's arithmetic gives it with every step
    /// worked out afresh from `baseRate(app:at:)` (the bin from the time
    /// itself, not from a walk over kept steps); `shift` reads each bin
    /// that many hours late, the slip the kept steps must not make.
    static func plainHourBound(_ model: LaunchModel, app a: Int, now: SimTime, updatesPerHour u: Double,
                               horizon: SimDuration, shift: Int64 = 0) -> LaunchHourBound {
        let hour = SimDuration.microsecondsPerHour
        let most = model.maxBaseRate(app: a)
        let share = most + u > 0 ? most / (most + u) : 0
        let start = SimTime(microseconds: now.microseconds / hour * hour)
        func step(_ j: Int64) -> (happens: Double, share: Double, rate: Double) {
            let l = model.baseRate(app: a, at: start + .hours(j + shift))
            return l + u > 0 ? (-expm1(-(l + u) * 1.0), l / (l + u), l + u) : (0, 0, 0)
        }
        let (h0, s0, rate0) = step(0)
        let longest = (horizon.microseconds + hour - 1) / hour, shortest = horizon.microseconds / hour - 1
        var x = 0.0, low = 0.0, survive = 1.0
        var j: Int64 = 1
        while j <= longest {
            if survive * share <= 1e-2 * x { x += survive * share; break }
            let (h, s, _) = step(j)
            x += survive * h * s
            if j <= shortest { low = x }
            survive *= 1 - h
            j += 1
        }
        return LaunchHourBound(end: start.microseconds + hour, horizon: horizon.microseconds, rate: rate0, happens: h0,
                               share: s0, after: (low, x))
    }

    /// Every number of a bound, bit for bit.
    static func bits(_ b: LaunchHourBound) -> [UInt64] {
        [UInt64(bitPattern: b.end), UInt64(bitPattern: b.horizon)]
            + [b.rate, b.happens, b.share, b.after.low, b.after.high].map(\.bitPattern)
    }

    func testHourBoundsFromKeptStepsAreThePlainOnes() {
        var rng = TestRandom(seed: 7261)
        var checked = 0, reused = 0, slipCaught = 0
        // Steps a few hours apart, so kept steps of earlier hours are read
        // again, and observations in between, so they must be forgotten.
        walk(40, step: 4 * 3600, observing: 0.5, &rng) { world, policy, apps, t, _ in
            // Walked afresh: a carried walk rounds differently (testCarriedHourBoundsHold…).
            policy.hourTerms.carryWalks = false
            let model = policy.launches
            guard model.binsAreNumbers else { return }
            for a in 0..<min(apps, model.apps) {
                let u = policy.content.rate(app: a)
                guard u.isFinite else { continue }
                let base = a * LaunchModel.bins
                if base + LaunchModel.bins <= policy.hourTerms.steps.count,
                   policy.hourTerms.revision[a] == model.revision[a],
                   policy.hourTerms.updatesPerHour[a].bitPattern == u.bitPattern,
                   policy.hourTerms.steps[base..<base + LaunchModel.bins].contains(where: { !$0.happens.isNaN }) {
                    reused += 1
                }
                let kept = model.hourBounds(app: a, now: t, updatesPerHour: u, horizon: policy.horizon,
                                            terms: &policy.hourTerms)
                let plain = Self.plainHourBound(model, app: a, now: t, updatesPerHour: u, horizon: policy.horizon)
                XCTAssertEqual(Self.bits(kept), Self.bits(plain), "world \(world), app \(a), t \(t.microseconds)")
                let slipped = Self.plainHourBound(model, app: a, now: t, updatesPerHour: u, horizon: policy.horizon,
                                                  shift: 1)
                if Self.bits(slipped) != Self.bits(plain) { slipCaught += 1 }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 3_000)
        // Kept steps were read (not only filled) ...
        XCTAssertGreaterThan(reused, checked / 4)
        // ... and a table read one bin off would have failed the comparison
        // (wherever the bins it steps through differ: not with time of week
        // off, nor where no launch has been seen in them).
        XCTAssertGreaterThan(slipCaught, checked / 10)
    }

    /// Bounds carried on from the previous hour's walk (LaunchHourWalk.swift),
    /// several hours in a row, hold the rule's sum at random times of their
    /// hour, and are as tight as the walk afresh but for their slack.
    func testCarriedHourBoundsHoldTheLaunchFactor() {
        var rng = TestRandom(seed: 9261)
        var checked = 0, carried = 0, longChains = 0, widest = 0.0
        var chain: [Int: Int] = [:], asked: [Int: Int64] = [:]
        // Steps under an hour, few observations: the rates hold for hours.
        walk(48, step: 2400, observing: 0.1, &rng) { world, policy, apps, t, rng in
            let model = policy.launches
            guard model.binsAreNumbers else { return }
            for a in 0..<min(apps, model.apps) {
                let u = policy.content.rate(app: a)
                guard u.isFinite else { continue }
                // Once an hour, as the policy asks (it keeps the hour's bound).
                let key = world * 8 + a, hour = t.microseconds / SimDuration.microsecondsPerHour
                guard asked[key] != hour else { continue }
                asked[key] = hour
                let bounds = model.hourBounds(app: a, now: t, updatesPerHour: u, horizon: policy.horizon,
                                              terms: &policy.hourTerms)
                // A carried walk has a slack; one walked afresh has none.
                guard policy.hourTerms.walks[a].slack > 0 else { chain[key] = 0; continue }
                carried += 1
                chain[key, default: 0] += 1
                if chain[key] == 3 { longChains += 1 }
                let at = "world \(world), app \(a), t \(t.microseconds), chain \(chain[key] ?? 0)"
                // The carried sum is the one over its hours summed afresh, but
                // for `slack` and the walk's own relative rounding.
                let walked = policy.hourTerms.walks[a]
                var sum = 0.0, survive = 1.0
                for k in 0..<walked.steps {
                    let bin = LaunchModel.bin(SimTime(microseconds: (hour + 1 + k) * SimDuration.microsecondsPerHour))
                    let step = policy.hourTerms.steps[a * LaunchModel.bins + bin]
                    sum += survive * step.happens * step.share
                    survive *= 1 - step.happens
                }
                XCTAssertLessThanOrEqual(abs(walked.sum - sum), walked.slack + 1e-13 * sum, at)
                XCTAssertLessThanOrEqual(abs(walked.survive - survive), 1e-13 * survive, at)
                widest = max(widest, walked.slack / walked.sum)
                var afresh = policy.hourTerms
                afresh.carryWalks = false
                let fresh = model.hourBounds(app: a, now: t, updatesPerHour: u, horizon: policy.horizon, terms: &afresh)
                XCTAssertLessThanOrEqual(bounds.after.high, fresh.after.high * (1 + 1e-10), at)
                XCTAssertGreaterThanOrEqual(bounds.after.low, fresh.after.low - 1e-10 * fresh.after.high - 1e-300, at)
                let length = Double(SimDuration.microsecondsPerHour)
                for _ in 0..<6 {
                    let time = SimTime(microseconds: hour * SimDuration.microsecondsPerHour + Int64(rng.next() * length))
                    let extra = model.boosts(app: a, at: time)
                    guard extra.recency == 0 && extra.previous == 0 else { continue }
                    let factor = model.launchBeforeUpdate(app: a, now: time, updatesPerHour: u, horizon: policy.horizon)
                    guard !factor.isNaN else { continue }
                    let around = (above: bounds.above(time), below: bounds.below(time))
                    for (name, b) in [("hour", bounds.wholeHour), ("around", around), ("exactly", bounds.exactly(time))] {
                        XCTAssertGreaterThanOrEqual(b.above * (1 + 1e-12), factor, "\(name): \(at)")
                        XCTAssertLessThanOrEqual(b.below, factor * (1 + 1e-12), "\(name): \(at)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 5_000)
        XCTAssertGreaterThan(carried, 1_000)
        // Carried on from carried walks, not only from walks afresh.
        XCTAssertGreaterThan(longChains, 100)
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
                        // The hour's ceiling, and (no short-lived term on) the bound at `t` under it.
                        let above = bounds.boosted ? bounds.ceiling : bounds.hour.above(t)
                        XCTAssertGreaterThanOrEqual(above * (1 + 1e-12), factor, "world \(world), app \(b)")
                        XCTAssertLessThanOrEqual(above, bounds.ceiling + 1e-12, "world \(world), app \(b)")
                        if policy.launches.boosts(app: b, at: t) != (0, .zero, 0, .zero) { boosted += 1 }
                        let extra = policy.launches.boosts(app: b, at: t)
                        XCTAssertEqual(bounds.boosted, extra.recency > 0 || extra.previous > 0)
                        // The bounds with the part-hour steps as the rule works them out hold it too.
                        if let exact = policy.exactLaunchBounds(app: b, now: t, hour: bounds.hour, boosted: bounds.boosted) {
                            XCTAssertGreaterThanOrEqual(exact.above * (1 + 1e-12), factor, "world \(world), app \(b)")
                            XCTAssertLessThanOrEqual(exact.below, factor + 1e-12, "world \(world), app \(b)")
                            XCTAssertLessThanOrEqual(exact.above, above + 1e-12, "world \(world), app \(b)")
                            if bounds.boosted { boostedExact += 1 }
                        }
                        let m = policy.content.staleExponent(app: b, now: t)
                        let below = policy.launchBelow(now: t, hour: bounds.hour, boosted: bounds.boosted)
                        XCTAssertLessThanOrEqual(below, factor * (1 + 1e-12), "world \(world), app \(b)")
                        if ContentRateEstimator.staleBound(exponent: m) * above < bar / (1 + 1e-9) {
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

    func testStaleBoundHoldsPStaleAndIsTheWrittenMinimum() {
        // The bound as its doc comment writes it, and P(stale) under it,
        // at the edges: 0, −0, tiny, around 2 (where the branches meet), huge, ∞, NaN, negative.
        func written(_ m: Double) -> Double { 0 < m && m < .infinity ? min(2 * m / (2 + m), 1) : min(m, 1) }
        var rng = TestRandom(seed: 1207)
        let edges: [Double] = [0, -0.0, .leastNonzeroMagnitude, 1e-300, 1e-10, 0.5, 1.9999999999999998, 2, 2.0000000000000004, 3,
                               1e300, .infinity, .nan, -1, -3, -.infinity]
        for m in edges + (0..<2_000).map({ _ in pow(10, rng.next() * 8 - 6) }) {
            let bound = ContentRateEstimator.staleBound(exponent: m)
            XCTAssertEqual(bound.bitPattern, written(m).bitPattern, "m \(m)")
            if m >= 0 { XCTAssertGreaterThanOrEqual(bound, ContentRateEstimator.staleProbability(exponent: m), "m \(m)") }
        }
    }
}
