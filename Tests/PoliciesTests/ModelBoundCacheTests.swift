// model-bound's kept values against the plain computations they stand
// for: P(launch first) kept per app and hour case against the rule's sum
// for every hour of three weeks, and the early no (P(launch first) below
// the bar, the gain bound kept per app for the hour) against the rule on
// random models, with the clock moving by seconds to hours and fetches
// coming, going back and repeating, so every kept value meets the changes
// that must make it stale.
import Foundation
@testable import Policies
import SimCore
import TestSupport
import Traces
import XCTest

final class ModelBoundCacheTests: XCTestCase {
    func testLaunchFirstPerCaseIsThePlainSumForEveryHour() {
        var rng = TestRandom(seed: 2605)
        for _ in 0..<30 {
            let apps = 1 + Int(rng.next() * 5)
            let model = GainTestDifferentialTests.randomModel(apps: apps, &rng)
            var gains = ModelBoundGains()
            gains.prepare(model)
            // Hours in a random order, so each case is first worked out at
            // a different hour of the week from one model to the next.
            var hours = Array(0..<(21 * 24))
            for i in hours.indices.reversed() { hours.swapAt(i, Int(rng.next() * Double(i + 1))) }
            for hour in hours {
                let hourStart = SimTime(microseconds: Int64(hour) * SimDuration.microsecondsPerHour)
                let now = hourStart + .seconds(rng.next() < 0.3 ? 0 : rng.next() * 3_599.999)
                for a in 0..<apps {
                    XCTAssertEqual(gains.launchFirst(app: a, now: now).bitPattern,
                                   ModelAwareBoundPolicy.launchBeforeUpdate(model, app: a, now: hourStart).bitPattern,
                                   "app \(a), hour \(hour)")
                }
            }
            // Three weeks ask for every case, and there are no more.
            XCTAssertFalse(gains.launchFirstByCase.contains { $0.isNaN })
            XCTAssertEqual(gains.launchFirstByCase.count, apps * 96)
        }
    }

    func testEarlyNoAnswersAsTheRule() {
        var rng = TestRandom(seed: 2606)
        var checked = 0, yes = 0, earlyNo = 0, keptNo = 0
        for _ in 0..<24 {
            let apps = 1 + Int(rng.next() * 5)
            let model = GainTestDifferentialTests.randomModel(apps: apps, &rng)
            var gains = ModelBoundGains()
            gains.prepare(model)
            // Per app, the fetches so far (the newest is the last fetch;
            // going back to an older one checks that any change of the
            // fetch, not only a later one, makes the kept bound stale).
            var fetches = [[SimTime]](repeating: [.zero], count: apps)
            var now = SimTime(microseconds: Int64(rng.next() * 86_400e6))
            let end = now + .hours(Int64(24 + rng.next() * 96))
            while now < end {
                now = now + .seconds([1, 60, 600, 1_800, 5_400][Int(rng.next() * 5)] * rng.next())
                let a = Int(rng.next() * Double(apps))
                switch rng.next() {
                case ..<0.25: fetches[a].append(now)
                case ..<0.3: fetches[a].append(max(.zero, now - .seconds(rng.next() * 40 * 3_600)))
                case ..<0.35 where fetches[a].count > 1: fetches[a].removeLast()
                default: break
                }
                for b in 0..<apps {
                    let fetchedAt = fetches[b].last!
                    let hourStart = SimTime(microseconds: now.microseconds / SimDuration.microsecondsPerHour
                                            * SimDuration.microsecondsPerHour)
                    let first = ModelAwareBoundPolicy.launchBeforeUpdate(model, app: b, now: hourStart)
                    let stale = 1 - exp(-ModelAwareBoundPolicy.expectedUpdates(model, app: b, from: fetchedAt, to: now))
                    let gain = stale * first
                    // Bars about the gain, P(launch first) and the kept bound:
                    // either side of each early no's edge.
                    var probe = gains
                    let kept = probe.keptBound(app: b, fetchedAt: fetchedAt,
                                               hour: Int(now.microseconds / SimDuration.microsecondsPerHour))
                    let bound = kept.gain
                    XCTAssertEqual(kept.launchFirst.bitPattern, first.bitPattern)
                    XCTAssertGreaterThanOrEqual(bound, gain, "app \(b), fetched \(fetchedAt.microseconds), now \(now.microseconds)")
                    var bars = GainTestDifferentialTests.bars(around: gain, &rng)
                    bars += [first, first.nextUp, first.nextDown, bound, bound.nextUp, bound.nextDown]
                    earlyNo += bars.filter { $0 > first }.count
                    keptNo += bars.filter { $0 > bound && $0 <= first }.count
                    let answers = bars.map { gains.reaches($0, app: b, fetchedAt: fetchedAt, now: now) }
                    let plain = bars.map { ModelAwareBoundPolicy.gainReaches($0, model, app: b, fetchedAt: fetchedAt, now: now) }
                    XCTAssertEqual(plain, bars.map { gain >= $0 })
                    XCTAssertEqual(answers, plain, "app \(b), fetched \(fetchedAt.microseconds), now \(now.microseconds), gain \(gain), bars \(bars)")
                    checked += bars.count
                    yes += plain.filter { $0 }.count
                }
            }
        }
        // Both answers, and both early noes, many times.
        XCTAssertGreaterThan(checked, 100_000)
        XCTAssertGreaterThan(yes, checked / 5)
        XCTAssertLessThan(yes, checked * 4 / 5)
        XCTAssertGreaterThan(earlyNo, checked / 10)
        XCTAssertGreaterThan(keptNo, checked / 20)
    }
}
