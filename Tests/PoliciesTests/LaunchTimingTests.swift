// The cost-aware predictor's timing ingredient (`LaunchTiming`): a held
// refresh runs at the start of the session that usually precedes its app,
// at its horizon when nothing comes, and not at all for content that never
// goes stale; on a tiny world it makes the followed app fresher than
// running refreshes the moment they are allowed, for less energy.
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import XCTest

final class LaunchTimingTests: XCTestCase {
    /// A policy whose bar lets every refresh through, with the content of
    /// every app believed to change `updatesPerHour` (learning off), that
    /// has seen app 1's session followed by app 0 a minute later on ten
    /// mornings (offline, so nothing was fetched and app 0 is stale).
    func taught(updatesPerHour: Double) -> CostAwarePredictorPolicy {
        var policy = CostAwarePredictorPolicy(initialGainPerJoule: 1e-5, adaptRate: 0, learnContent: false,
                                              priorUpdatesPerHour: updatesPerHour, holdForLaunch: true,
                                              maxHold: .hours(2), triggerProbability: 0.2, followWindow: .minutes(5))
        var context = PolicyContext(now: .zero, device: DeviceState(network: .offline), appCount: 2)
        for d in 0..<10 {
            context.now = at(day: d, 9)
            policy.observe(.launch(app: 1), context: context)
            context.now = at(day: d, 9 + 1.0 / 60)
            policy.observe(.sessionEnded(app: 1), context: context)
            context.now = at(day: d, 9 + 2.0 / 60)
            policy.observe(.launch(app: 0), context: context)
            context.now = at(day: d, 9 + 3.0 / 60)
            policy.observe(.sessionEnded(app: 0), context: context)
        }
        return policy
    }

    func testItLearnsWhichAppFollowsAndHowManyLaunchesATriggerAnnounces() {
        let policy = taught(updatesPerHour: 4)
        // App 1 ended 10 sessions, each followed by app 0 (weighed by the
        // decay, 0.95 a day): S / (S + 1).
        let w = (0..<10).map { pow(0.95, Double(9 - $0)) }
        let s = w.reduce(0, +)
        XCTAssertEqual(policy.timing.followProbability(0, after: 1), s / (s + 1), accuracy: 1e-9)
        XCTAssertEqual(policy.timing.followProbability(1, after: 0), 0)
        // The first launch of app 0 came before anything was learnt; the
        // next nine were announced.
        XCTAssertEqual(policy.timing.announcedShare(app: 0), w.dropFirst().reduce(0, +) / w.reduce(0, +), accuracy: 1e-9)
        XCTAssertEqual(policy.timing.announcedShare(app: 1), 0, "app 1 follows nothing")
    }

    func testAHeldRefreshRunsAtThePredecessorsSessionStartOrAtItsHorizon() {
        var policy = taught(updatesPerHour: 4)
        let eligible = at(day: 10, 8)
        let request = TaskRequest(id: RequestID(7), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: eligible,
                                  submittedAt: eligible - .minutes(15))
        var context = PolicyContext(now: eligible + .minutes(10), device: DeviceState(network: .wifi), pending: [request],
                                    appCount: 2)
        // Eligible, worth running, but nothing announces app 0: held until the horizon.
        let d = policy.decide(context: context)
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, eligible + .hours(2))
        // The session of app 1 starts: its follower's refresh runs now.
        context.now = eligible + .minutes(50)
        context.device.isScreenOn = true
        context.device.foregroundApp = 1
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(7)])
        // A session of an app nobody follows does not.
        context.device.foregroundApp = 0
        XCTAssertEqual(policy.decide(context: context).run, [])
        // Just after app 1's session ended (within followWindow): still a trigger.
        context.device = DeviceState(network: .wifi)
        policy.observe(.sessionEnded(app: 1), context: context)
        context.now = context.now + .minutes(2)
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(7)])
        context.now = context.now + .minutes(4)
        XCTAssertEqual(policy.decide(context: context).run, [], "the window has passed")
        // Nothing came: at earliestBegin + maxHold it runs.
        context.now = eligible + .hours(2)
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(7)])
    }

    func testNothingIsHeldWhenWaitingIsNotWorthIt() {
        // Content that (believed) never changes: running now loses nothing.
        let still = taught(updatesPerHour: 0)
        let request = TaskRequest(id: RequestID(3), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: at(day: 10, 8),
                                  submittedAt: at(day: 10, 7.75))
        let context = PolicyContext(now: at(day: 10, 8.1), device: DeviceState(network: .wifi), pending: [request], appCount: 2)
        XCTAssertNil(still.timing.hold(request, now: context.now, device: context.device, rate: 0))
        // App 1 is announced by nothing: its refresh is not held.
        var other = request
        other.app = 1
        var fast = taught(updatesPerHour: 4)
        XCTAssertNil(fast.timing.hold(other, now: context.now, device: context.device, rate: 4))
        XCTAssertNotNil(fast.timing.hold(request, now: context.now, device: context.device, rate: 4))
        // The stopping test itself: q(1 − c) against (1 − q)(c − u).
        let c = LaunchTiming.freshUniform(rate: 4, hours: 0.25), u = LaunchTiming.freshUniform(rate: 4, hours: 2.25)
        XCTAssertEqual(c, (1 - exp(-1)) / 1, accuracy: 1e-12)
        let q = fast.timing.announcedShare(app: 0)
        XCTAssertEqual(fast.timing.worthHolding(app: 0, rate: 4, delay: .minutes(15)), q * (1 - c) > (1 - q) * (c - u))
        // Episodes only: between episodes (screen off, no session just
        // ended) it runs at once; during one it is held.
        fast.timing.episodeOnly = true
        XCTAssertNil(fast.timing.hold(request, now: context.now, device: context.device, rate: 4))
        var inSession = context.device
        inSession.isScreenOn = true
        inSession.foregroundApp = 0
        XCTAssertNotNil(fast.timing.hold(request, now: context.now, device: inSession, rate: 4))
        // Off: never held, whatever it learnt.
        fast.timing.enabled = false
        XCTAssertNil(fast.timing.hold(request, now: context.now, device: context.device, rate: 4))
    }

    func testOnATinyWorldTheFollowedAppIsFresherForLessEnergy() {
        // Every morning "lead" (app 1) is opened at 9:00 for a minute, then
        // "feed" (app 0) at 9:02; "feed" publishes every 10 min at :05, :15, ….
        var starts: [(SimTime, Int32)] = []
        for d in 0..<14 {
            starts.append((at(day: d, 9), 1))
            starts.append((at(day: d, 9 + 2.0 / 60), 0))
        }
        let feed = (0..<(14 * 144)).map { SimTime(microseconds: Int64($0) * 600_000_000 + 300_000_000) }
        let t = trace(days: 14, apps: ["feed", "lead"], sessions: makeSessions(starts), updates: [feed, []])
        let eager = simulateDevice(trace: t, policy: CostAwarePredictorPolicy(targetJoulesPerDay: 5000), randomKey: 5)
        let timed = simulateDevice(trace: t, policy: CostAwarePredictorPolicy(targetJoulesPerDay: 5000, holdForLaunch: true),
                                   randomKey: 5)
        let greedy = simulateDevice(trace: t, policy: GreedyPolicy(), randomKey: 5)
        // Without the hold, "feed" is refreshed whenever its request allows,
        // at times unrelated to 9:02; with it, once the policy has learnt
        // that "feed" follows "lead", its refresh runs at 9:00 and meets
        // the 9:02 launch before the 9:05 update.
        XCTAssertGreaterThan(timed.freshLaunches, eager.freshLaunches + 8)
        XCTAssertGreaterThan(timed.freshLaunches, greedy.freshLaunches + 8)
        XCTAssertLessThan(timed.energy.total, eager.energy.total)
    }

    func testTheRegistryMapsTheSwitchAndTheSpecRangesItsDurations() throws {
        func make(_ json: String) throws -> any SchedulingPolicy {
            try PolicyRegistry.standard.make(JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8)))
        }
        let off = try XCTUnwrap(try make(#"{"name": "cost-aware-predictor"}"#) as? CostAwarePredictorPolicy)
        XCTAssertFalse(off.timing.enabled, "off by default")
        let on = try XCTUnwrap(try make(#"{"name": "cost-aware-predictor", "params": {"holdForLaunch": 1, "maxHold": "30m", "triggerProbability": 0.4, "followWindow": "2m"}}"#)
                               as? CostAwarePredictorPolicy)
        XCTAssertTrue(on.timing.enabled)
        XCTAssertEqual(on.timing.maxHold, .minutes(30))
        XCTAssertEqual(on.timing.trigger, 0.4)
        XCTAssertEqual(on.timing.followWindow, .minutes(2))
        XCTAssertThrowsError(try make(#"{"name": "cost-aware-predictor", "params": {"triggerProbability": 1.5}}"#)) { e in
            XCTAssertEqual((e as? PolicyConfigurationError)?.path, "policy.params.triggerProbability")
        }
        XCTAssertThrowsError(try make(#"{"name": "cost-aware-predictor", "params": {"holdForLaunch": -1}}"#))
    }

    func testConformance() {
        XCTAssertEqual(PolicyConformance.check(CostAwarePredictorPolicy(holdForLaunch: true)), [])
        XCTAssertEqual(PolicyConformance.check(CostAwarePredictorPolicy(holdForLaunch: true, holdCost: 0)), [],
                       "holding whenever a trigger ever announced the app")
        XCTAssertEqual(PolicyConformance.check(CostAwarePredictorPolicy(holdForLaunch: true, holdCost: 0, holdEpisodeOnly: true)), [])
    }
}
