// The fast gain tests of cost-aware-predictor and model-bound against the
// plain computations they replace: on random models and contexts, with bars
// placed at, just above and just below the plain gain, every answer must be
// the plain one (the outputs stay byte-identical only if it is).
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import TestSupport
import Traces
import XCTest

final class GainTestDifferentialTests: XCTestCase {
    /// Bars around `gain`: far below and above, at it, one step either side.
    static func bars(around gain: Double, _ rng: inout TestRandom) -> [Double] {
        [gain, gain.nextUp, gain.nextDown, gain * (1 + 1e-12), gain * (1 - 1e-12), gain * 0.5, gain * 2 + 1e-9,
         rng.next() * 0.5, 0, rng.next() < 0.5 ? 1e-300 : 10]
    }

    /// A `cost-aware-predictor` of random parameters (by `world`) for
    /// `apps` apps.
    static func randomLearner(world: Int, apps: Int, _ rng: inout TestRandom) -> CostAwarePredictorPolicy {
        var policy = CostAwarePredictorPolicy(
            decay: [1, 0.95, 0.5][world % 3], priorDays: [1, 0, 0.3][world % 3 == 1 ? 1 : (world / 3) % 3],
            timeOfWeek: world % 4 != 3,
            recencyWindow: world % 5 == 4 ? nil : .minutes(Int64(5 + rng.next() * 60)),
            transitionWindow: world % 7 == 6 ? nil : .minutes(Int64(2 + rng.next() * 30)),
            learnContent: world % 6 != 5, priorUpdatesPerHour: [0.5, 0, 3, 0.01][world % 4],
            priorHours: world % 9 == 8 ? 0 : 2)
        policy.horizon = [.hours(24), .hours(1), .minutes(90), .hours(49)][world % 4]
        return policy
    }

    /// Feeds `policy` a random launch, session end or refresh report of one
    /// of `apps` apps at `t` (or nothing), in `context` (Wi-Fi if nil), and
    /// rolls it to `t` as a decision would.
    static func randomObservation(_ policy: inout CostAwarePredictorPolicy, apps: Int, at t: SimTime,
                                  context: PolicyContext? = nil, _ rng: inout TestRandom) {
        var c = context ?? PolicyContext(now: .zero, device: DeviceState(network: .wifi), appCount: apps)
        c.now = t
        let a = Int32(rng.next() * Double(apps))
        switch rng.next() {
        case ..<0.35:
            policy.observe(.launch(app: a), context: c)
        case ..<0.6:
            policy.observe(.sessionEnded(app: a), context: c)
        case ..<0.8:
            let r = TaskRequest(id: RequestID(1), app: a, identifier: 0, kind: .appRefresh, earliestBegin: t,
                                submittedAt: t)
            let result: FetchResult = rng.next() < 0.4 ? .newData : .noData
            policy.observe(.taskFinished(TaskReport(request: r, start: t, end: t + .seconds(2 as Int64),
                                                    outcome: .success, fetchResult: result)), context: c)
        default:
            break
        }
        policy.roll(c)
    }

    func testCostAwarePredictorAnswersAsThePlainSum() {
        var rng = TestRandom(seed: 26)
        var checked = 0, yes = 0
        for world in 0..<60 {
            let apps = 1 + Int(rng.next() * 6)
            var policy = Self.randomLearner(world: world, apps: apps, &rng)
            // A random week of launches, session ends and refresh reports,
            // with the gain asked for at random times in between (the kept
            // terms must follow every change of rates).
            var t = SimTime.zero
            let end = SimTime(day: 3 + Int(rng.next() * 9))
            while t < end {
                t = t + .seconds(rng.next() * rng.next() * 4 * 3600)
                Self.randomObservation(&policy, apps: apps, at: t, &rng)
                for b in 0..<apps {
                    let gain = policy.expectedGain(app: b, now: t)
                    for bar in Self.bars(around: gain, &rng) {
                        let plain = gain >= bar
                        XCTAssertEqual(policy.gainReaches(bar, app: b, now: t), plain,
                                       "world \(world), app \(b), t \(t.microseconds), gain \(gain), bar \(bar)")
                        checked += 1
                        if plain { yes += 1 }
                    }
                }
            }
        }
        // Both answers were exercised, many times.
        XCTAssertGreaterThan(checked, 20_000)
        XCTAssertGreaterThan(yes, checked / 5)
        XCTAssertLessThan(yes, checked * 4 / 5)
    }

    /// A random model: per app, launch rates for the 48 bins (some zero,
    /// some bursty) and update rates for the 24 hours of the day.
    static func randomModel(apps: Int, _ rng: inout TestRandom) -> UsageModelKnowledge {
        let launches = (0..<apps).map { _ in
            let scale = [0, 0.01, 0.3, 4][Int(rng.next() * 4)]
            return (0..<48).map { _ in rng.next() < 0.3 ? 0 : scale * rng.next() * 2 }
        }
        let updates = (0..<apps).map { _ in
            let scale = [0, 0.05, 0.5, 6][Int(rng.next() * 4)]
            return (0..<24).map { _ in rng.next() < 0.2 ? 0 : scale * rng.next() * 2 }
        }
        return UsageModelKnowledge(launchesPerHour: launches, updatesPerHour: updates)
    }

    func testModelBoundAnswersAsThePlainSums() {
        var rng = TestRandom(seed: 25)
        var checked = 0, yes = 0
        for _ in 0..<80 {
            let apps = 1 + Int(rng.next() * 5)
            let model = Self.randomModel(apps: apps, &rng)
            var gains = ModelBoundGains()
            gains.prepare(model)
            for _ in 0..<150 {
                let now = SimTime(microseconds: Int64(rng.next() * 14 * 86_400e6))
                // Fetched never, long ago, or minutes to hours before now.
                let back = [0, 0.01, 0.5, 3, 30, 60][Int(rng.next() * 6)] * rng.next() * 3600e6
                let fetchedAt = rng.next() < 0.1 ? .zero : SimTime(microseconds: max(0, now.microseconds - Int64(back)))
                let a = Int(rng.next() * Double(apps + 1))  // one past the model's apps too
                // The plain gain, as `gainReaches` works it out.
                let hourStart = SimTime(microseconds: now.microseconds / 3_600_000_000 * 3_600_000_000)
                let stale = 1 - exp(-ModelAwareBoundPolicy.expectedUpdates(model, app: a, from: fetchedAt, to: now))
                let gain = stale * ModelAwareBoundPolicy.launchBeforeUpdate(model, app: a, now: hourStart)
                if a < apps {
                    // The kept P(launch first) is the plain one bit for bit.
                    XCTAssertEqual(gains.launchFirst(app: a, now: now).bitPattern,
                                   ModelAwareBoundPolicy.launchBeforeUpdate(model, app: a, now: hourStart).bitPattern)
                    // The cumulative expected updates are within a hundredth of their
                    // stated error (so the margin `reaches` uses is ample).
                    let (m, error) = gains.expectedUpdates(app: a, from: fetchedAt, to: now)
                    let plain = ModelAwareBoundPolicy.expectedUpdates(model, app: a, from: fetchedAt, to: now)
                    if plain <= 30 { XCTAssertLessThanOrEqual(abs(m - plain), error / 100, "app \(a) \(fetchedAt) \(now)") }
                }
                for bar in Self.bars(around: gain, &rng) {
                    let plain = ModelAwareBoundPolicy.gainReaches(bar, model, app: a, fetchedAt: fetchedAt, now: now)
                    XCTAssertEqual(plain, gain >= bar)
                    XCTAssertEqual(gains.reaches(bar, app: a, fetchedAt: fetchedAt, now: now), plain,
                                   "app \(a), fetched \(fetchedAt.microseconds), now \(now.microseconds), gain \(gain), bar \(bar)")
                    checked += 1
                    if plain { yes += 1 }
                }
            }
        }
        XCTAssertGreaterThan(checked, 100_000)
        XCTAssertGreaterThan(yes, checked / 5)
        XCTAssertLessThan(yes, checked * 4 / 5)
    }

    func testOneRefreshCostForBothPolicies() {
        // Riding never costs more than a cold start, in both policies: with
        // rideJoules above the Wi-Fi figure, model-bound charges the Wi-Fi figure.
        let now = at(day: 0, 12)
        var context = PolicyContext(now: now, device: DeviceState(network: .wifi))
        context.radioUpUntil = now + .seconds(5 as Int64)
        let bound = ModelAwareBoundPolicy(cellularJoules: 14, wifiJoules: 1, rideJoules: 3)
        let learner = CostAwarePredictorPolicy(cellularJoules: 14, wifiJoules: 1, rideJoules: 3)
        XCTAssertEqual(bound.cost.joules(context), 1)
        XCTAssertEqual(bound.cost, learner.cost)
        context.device.network = .cellular
        XCTAssertEqual(bound.cost.joules(context), 3)
        context.radioUpUntil = nil
        XCTAssertEqual(bound.cost.joules(context), 14)
    }
}
