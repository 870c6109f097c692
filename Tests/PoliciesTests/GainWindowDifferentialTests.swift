// cost-aware-predictor's kept whole-hour windows (LaunchWindows.swift)
// against the plain sum: queries minutes apart, so most of them read a
// window kept by an earlier one, on random models whose rates change in
// between; a fixed bar (as a run asks) and bars at the gain, one rounding
// either side and far off.
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import TestSupport
import XCTest

final class GainWindowDifferentialTests: XCTestCase {
    func testKeptWindowsAnswerAsThePlainSum() {
        var rng = TestRandom(seed: 2026)
        var checked = 0, yes = 0, reused = 0, queries = 0
        for world in 0..<48 {
            let apps = 1 + Int(rng.next() * 5)
            var policy = GainTestDifferentialTests.randomLearner(world: world, apps: apps, &rng)
            var runLike = policy
            var t = SimTime.zero
            let end = SimTime(day: 2 + Int(rng.next() * 6))
            while t < end {
                t = t + .seconds(rng.next() * 1200)
                // Rates change now and then (a launch, a report, a new day).
                if rng.next() < 0.15 {
                    var copy = rng
                    GainTestDifferentialTests.randomObservation(&policy, apps: apps, at: t, &rng)
                    GainTestDifferentialTests.randomObservation(&runLike, apps: apps, at: t, &copy)
                } else {
                    let c = PolicyContext(now: t, device: DeviceState(network: .wifi), appCount: apps)
                    policy.roll(c)
                    runLike.roll(c)
                }
                for b in 0..<apps {
                    let gain = policy.expectedGain(app: b, now: t)
                    // Summed every time: the fast path without the windows.
                    var summed = policy
                    summed.hourTerms.keepWindows = false
                    // As a run asks: one of two fixed bars, in a policy asked
                    // nothing else.
                    let runBar = [0.002, 0.01, 0.03, 0.1, 0.3][world % 5] * (rng.next() < 0.5 ? 1 : 14)
                    XCTAssertEqual(runLike.gainReaches(runBar, app: b, now: t), gain >= runBar,
                                   "world \(world), app \(b), t \(t.microseconds), gain \(gain), run bar \(runBar)")
                    let bars = GainTestDifferentialTests.bars(around: gain, &rng)
                    for bar in bars {
                        let before = policy.hourTerms.windows.start
                        let answer = policy.gainReaches(bar, app: b, now: t)
                        XCTAssertEqual(answer, gain >= bar,
                                       "world \(world), app \(b), t \(t.microseconds), gain \(gain), bar \(bar)")
                        XCTAssertEqual(summed.gainReaches(bar, app: b, now: t), gain >= bar)
                        checked += 1
                        if answer { yes += 1 }
                        let after = policy.hourTerms.windows.start
                        if b < before.count, b < after.count, let kept = before[b], kept == after[b] { reused += 1 }
                        queries += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 20_000)
        XCTAssertGreaterThan(yes, checked / 5)
        XCTAssertLessThan(yes, checked * 4 / 5)
        // Most queries found their window already kept.
        XCTAssertGreaterThan(reused, queries / 3)
    }
}
