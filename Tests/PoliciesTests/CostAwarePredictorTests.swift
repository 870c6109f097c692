// The cost-aware predictor: each ingredient (launch model, content rate,
// cost, adaptive bar) on its own, its decisions, and on tiny worlds.
@_spi(BuiltInPolicies) import Device
import Foundation
@testable import Policies
import SimCore
import XCTest

final class CostAwarePredictorTests: XCTestCase {
    func testTheLaunchModelLearnsTheHourOfTheWeekAndShrinksTowardTheFlatRate() {
        var m = LaunchModel(decay: 1, priorDays: 1, timeOfWeek: true, recencyWindow: nil, transitionWindow: nil)
        // Monday to Friday, one launch at 9:10.
        for d in 0..<5 {
            _ = m.roll(to: at(day: d, 0))
            m.launched(app: 0, at: at(day: d, 9 + 1.0 / 6))
        }
        // 5 launches over 5 weekdays; flat mean 5 / (24 · 5) per hour.
        let mean = 5.0 / 120
        XCTAssertEqual(m.meanRate(app: 0), mean, accuracy: 1e-12)
        // The 9:00 bin: (5 + 1 · mean) / (5 + 1); another hour: mean / 6.
        XCTAssertEqual(m.baseRate(app: 0, at: at(day: 4, 9.5)), (5 + mean) / 6, accuracy: 1e-12)
        XCTAssertEqual(m.baseRate(app: 0, at: at(day: 4, 15)), mean / 6, accuracy: 1e-12)
        // No weekend seen yet: the weekend bin is the flat rate.
        XCTAssertEqual(m.baseRate(app: 0, at: at(day: 5, 9.5)), mean, accuracy: 1e-12)
        // With time of week off, the flat rate everywhere.
        m.timeOfWeek = false
        XCTAssertEqual(m.baseRate(app: 0, at: at(day: 4, 9.5)), mean, accuracy: 1e-12)
        // Decay: a day later every count is weighted 0.5 and the new day counts.
        var d = LaunchModel(decay: 0.5, priorDays: 0, timeOfWeek: true, recencyWindow: nil, transitionWindow: nil)
        _ = d.roll(to: at(day: 0, 0))
        d.launched(app: 0, at: at(day: 0, 9))
        XCTAssertEqual(d.roll(to: at(day: 2, 0)), 2)
        XCTAssertEqual(d.baseRate(app: 0, at: at(day: 2, 9)), 0.25 / (0.25 + 0.5 + 1), accuracy: 1e-12)
    }

    func testTheKeptTermEndsAndBinCheckFollowTheModel() {
        // What the gain test reads kept (`binsAreNumbers`, `mayBoost`) against what it stands for.
        var m = LaunchModel(decay: 0.9, priorDays: 0, timeOfWeek: true, recencyWindow: .minutes(30),
                            transitionWindow: .minutes(10))
        func check(_ t: SimTime, _ line: UInt = #line) {
            XCTAssertEqual(m.binsAreNumbers,
                           !m.timeOfWeek || (m.weekdaysSeen + m.priorDays > 0 && m.weekendDaysSeen + m.priorDays > 0),
                           line: line)
            for a in 0..<m.apps {
                let extra = m.boosts(app: a, at: t)
                if extra.recency > 0 || extra.previous > 0 { XCTAssertTrue(m.mayBoost(app: a, at: t), line: line) }
            }
        }
        // No weekend day seen and no prior weight: weekend bins are 0/0.
        _ = m.roll(to: at(day: 0, 0))
        XCTAssertFalse(m.binsAreNumbers)
        m.launched(app: 0, at: at(day: 0, 9))
        m.launched(app: 0, at: at(day: 0, 9.1))
        m.sessionEnded(app: 0, at: at(day: 0, 9.2))
        m.launched(app: 1, at: at(day: 0, 9.25))
        m.sessionEnded(app: 1, at: at(day: 0, 9.3))
        for h in [9.0, 9.2, 9.3, 9.4, 9.5, 9.6] { check(at(day: 0, h)) }
        XCTAssertTrue(m.mayBoost(app: 0, at: at(day: 0, 9.55)))
        XCTAssertFalse(m.mayBoost(app: 0, at: at(day: 0, 9.7)))
        // A shorter window moves the kept ends with it; none, and they are gone.
        XCTAssertTrue(m.mayBoost(app: 0, at: at(day: 0, 9.5)))
        XCTAssertTrue(m.mayBoost(app: 1, at: at(day: 0, 9.35)))
        m.recencyWindow = .minutes(5)
        XCTAssertFalse(m.mayBoost(app: 0, at: at(day: 0, 9.5)))
        m.transitionWindow = nil
        XCTAssertFalse(m.mayBoost(app: 1, at: at(day: 0, 9.35)))
        check(at(day: 0, 9.35))
        // A weekend day seen: every bin is a number; the switches follow too.
        _ = m.roll(to: at(day: 5, 0))
        XCTAssertTrue(m.binsAreNumbers)
        var n = LaunchModel(decay: 1, priorDays: 0, timeOfWeek: true, recencyWindow: nil, transitionWindow: nil)
        XCTAssertFalse(n.binsAreNumbers)
        n.priorDays = 1
        XCTAssertTrue(n.binsAreNumbers)
        n.priorDays = 0
        n.timeOfWeek = false
        XCTAssertTrue(n.binsAreNumbers)
    }

    func testRecencyAndPreviousAppTermsHoldForTheirWindowsOnly() {
        var m = LaunchModel(decay: 1, priorDays: 1, timeOfWeek: true, recencyWindow: .minutes(30),
                            transitionWindow: .minutes(10))
        _ = m.roll(to: .zero)
        // App 0 twice within 30 min, then its session ends and app 1 follows in 2 min.
        m.launched(app: 0, at: at(day: 0, 8))
        m.launched(app: 0, at: at(day: 0, 8.25))
        m.sessionEnded(app: 0, at: at(day: 0, 8.3))
        m.launched(app: 1, at: at(day: 0, 8.3 + 2.0 / 60))
        m.sessionEnded(app: 1, at: at(day: 0, 9))
        m.sessionEnded(app: 0, at: at(day: 0, 10))
        // Recency of app 0: one of its two launches followed the one before
        // within 30 min; over, the term is gone.
        var b = m.boosts(app: 0, at: at(day: 0, 8.5))
        XCTAssertEqual(b.recency, 0.5 / 0.5, accuracy: 1e-12)
        XCTAssertEqual(b.recencyUntil, at(day: 0, 8.75))
        XCTAssertEqual(m.boosts(app: 0, at: at(day: 0, 9)).recency, 0)
        // Previous app: app 0 has ended two sessions, one followed by app 1
        // within 10 min: rate ½ over ⅙ h for app 1, none for app 2, and none after 10 min.
        b = m.boosts(app: 1, at: at(day: 0, 10 + 1.0 / 60))
        XCTAssertEqual(b.previous, 0.5 / (1.0 / 6), accuracy: 1e-9)
        XCTAssertEqual(m.boosts(app: 2, at: at(day: 0, 10 + 1.0 / 60)).previous, 0)
        XCTAssertEqual(m.boosts(app: 1, at: at(day: 0, 10.25)).previous, 0)
        // The terms raise P(launch before an update) while they hold.
        let with = m.launchBeforeUpdate(app: 1, now: at(day: 0, 10 + 1.0 / 60), updatesPerHour: 1, horizon: .hours(24))
        var off = m
        off.transitionWindow = nil
        let without = off.launchBeforeUpdate(app: 1, now: at(day: 0, 10 + 1.0 / 60), updatesPerHour: 1, horizon: .hours(24))
        XCTAssertGreaterThan(with, without + 0.1)
    }

    func testLaunchBeforeUpdateIsTheCompetingPoissonProbability() {
        // A flat rate of 2 launches an hour (48 over one day), updates at 1 an hour: 2/3.
        var m = LaunchModel(decay: 1, priorDays: 0, timeOfWeek: false, recencyWindow: nil, transitionWindow: nil)
        _ = m.roll(to: .zero)
        for k in 0..<48 { m.launched(app: 0, at: SimTime(microseconds: Int64(k) * 1_800_000_000)) }
        XCTAssertEqual(m.launchBeforeUpdate(app: 0, now: at(day: 0, 23.5), updatesPerHour: 1, horizon: .hours(24)),
                       2.0 / 3, accuracy: 1e-3)
        // No update ever: the launch comes first for sure (within the horizon).
        XCTAssertEqual(m.launchBeforeUpdate(app: 0, now: at(day: 0, 23.5), updatesPerHour: 0, horizon: .hours(24)),
                       1, accuracy: 1e-3)
        // An app never launched: nothing to gain.
        XCTAssertEqual(m.launchBeforeUpdate(app: 1, now: at(day: 0, 23.5), updatesPerHour: 1, horizon: .hours(24)), 0)
    }

    func testTheContentRateIsLearntFromFetchResults() {
        var c = ContentRateEstimator(priorRate: 0.5, priorHours: 2, decay: 1, learn: true)
        c.fetched(app: 0, at: at(day: 0, 0))
        c.fetched(app: 1, at: at(day: 0, 0))
        // App 0 reports .noData after every 10 h: 50 h without an update.
        for k in 1...5 { c.refreshed(app: 0, start: at(day: 0, Double(10 * k)), result: .noData) }
        XCTAssertEqual(c.rate(app: 0), (0 + 0.5 * 2) / (50 + 2), accuracy: 1e-12)
        // App 1 reports .newData after every hour: its rate rises above the prior.
        for k in 1...20 { c.refreshed(app: 1, start: at(day: 0, Double(k)), result: .newData) }
        XCTAssertGreaterThan(c.rate(app: 1), 1)
        // A failure teaches nothing and is not a fetch.
        let before = c
        c.refreshed(app: 0, start: at(day: 3, 0), result: .failed)
        XCTAssertEqual(c.rate(app: 0), before.rate(app: 0))
        // P(stale): never fetched 1; just fetched 0; grows with the time since.
        XCTAssertEqual(c.staleProbability(app: 2, now: at(day: 0, 1)), 1)
        XCTAssertEqual(c.staleProbability(app: 0, now: at(day: 0, 50)), 0)
        XCTAssertEqual(c.staleProbability(app: 0, now: at(day: 0, 60)), 1 - exp(-c.rate(app: 0) * 10), accuracy: 1e-12)
        // Learning off: the prior, whatever was reported.
        c.learn = false
        XCTAssertEqual(c.rate(app: 0), 0.5)
    }

    func testTheCostDependsOnTheNetworkTheRadioAndTheCharger() {
        let cost = RefreshCost(cellularJoules: 14, wifiJoules: 1, rideJoules: 2, chargingFactor: 0.5)
        let now = at(day: 0, 12)
        var context = PolicyContext(now: now, device: DeviceState(network: .cellular))
        XCTAssertEqual(cost.joules(context), 14)
        context.radioUpUntil = now + .seconds(5 as Int64)
        XCTAssertEqual(cost.joules(context), 2)
        context.device.network = .wifi
        XCTAssertEqual(cost.joules(context), 1, "riding never costs more than a cold start")
        context.radioUpUntil = now  // the tail has just ended
        context.device.isCharging = true
        XCTAssertEqual(cost.joules(context), 0.5)
    }

    func testTheBarFollowsSpendingTowardTheTarget() {
        var bar = GainThreshold(target: 50, initialGain: 0.05, adaptRate: 0.5, capFactor: 3)
        bar.roll(to: 0, joules: 0)
        // Day 0 spent 200 J, four times the target: the bar doubles (4^0.5).
        bar.roll(to: 1, joules: 200)
        XCTAssertEqual(bar.gainPerJoule, 0.1, accuracy: 1e-12)
        // Day 1 spent 12.5 J, a quarter: it halves again.
        bar.roll(to: 2, joules: 212.5)
        XCTAssertEqual(bar.gainPerJoule, 0.05, accuracy: 1e-12)
        // The cap: 3 × 50 J spent today stops refreshes.
        XCTAssertFalse(bar.capped(joules: 212.5 + 149))
        XCTAssertTrue(bar.capped(joules: 212.5 + 150))
        // adaptRate 0: the bar stays.
        var fixed = GainThreshold(target: 50, initialGain: 0.05, adaptRate: 0, capFactor: 3)
        fixed.roll(to: 0, joules: 0)
        fixed.roll(to: 1, joules: 1000)
        XCTAssertEqual(fixed.gainPerJoule, 0.05)
    }

    func testRefreshesWhenTheGainPerJouleClearsTheBarAndLooksAgainLater() {
        let request = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: .zero,
                                  submittedAt: .zero)
        var policy = CostAwarePredictorPolicy(initialGainPerJoule: 0.1, adaptRate: 0, recencyWindow: nil, transitionWindow: nil)
        var context = PolicyContext(now: at(day: 0, 0), device: DeviceState(network: .wifi), pending: [request], appCount: 1)
        // Nothing learnt: no launch expected, nothing to gain; look again in 15 min.
        var d = policy.decide(context: context)
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, at(day: 0, 0) + .minutes(15))
        // Launched every 30 min for a day while offline (nothing fetched):
        // stale for sure, a launch soon: worth 1 J on Wi-Fi.
        context.device.network = .offline
        for k in 0..<48 {
            context.now = SimTime(microseconds: Int64(k) * 1_800_000_000)
            policy.observe(.launch(app: 0), context: context)
        }
        context.now = at(day: 1, 0.1)
        XCTAssertEqual(policy.decide(context: context).run, [], "offline: nothing runs")
        context.device.network = .wifi
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(1)])
        // On a cold cellular radio (14 J) the same gain does not clear 0.1 per joule.
        context.device.network = .cellular
        d = policy.decide(context: context)
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, context.now + .minutes(15))
        // Riding a radio that is up costs 1 J: it runs.
        context.radioUpUntil = context.now + .seconds(5 as Int64)
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(1)])
        // Not yet allowed: woken at its earliestBeginDate.
        var later = request
        later.earliestBegin = context.now + .minutes(3)
        context.pending = [later]
        d = policy.decide(context: context)
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, later.earliestBegin)
    }

    func testConformance() {
        XCTAssertEqual(PolicyConformance.check(CostAwarePredictorPolicy()), [])
        XCTAssertEqual(PolicyConformance.check(CostAwarePredictorPolicy(targetJoulesPerDay: 0, adaptRate: 0, timeOfWeek: false,
                                                                        recencyWindow: nil, transitionWindow: nil,
                                                                        learnContent: false)), [])
        XCTAssertEqual(PolicyConformance.check(CoalescingPolicy(base: CostAwarePredictorPolicy(), window: .minutes(15))), [],
                       "behind a wrapper")
    }

    func testOnATinyWorldItRefreshesTheAppThatChangesAndLearnsToLeaveTheOneThatDoesNot() {
        // Two apps, each opened at 9:00 and 18:00 for 14 days; "feed"
        // publishes every 20 min, "static" never. The apps submit a refresh
        // after every run (the default app model).
        var starts: [(SimTime, Int32)] = []
        for d in 0..<14 {
            starts.append((at(day: d, 9), 0))
            starts.append((at(day: d, 9.5), 1))
            starts.append((at(day: d, 18), 0))
            starts.append((at(day: d, 18.5), 1))
        }
        let feed = (0..<(14 * 72)).map { SimTime(microseconds: Int64($0) * 1_200_000_000 + 30_000_000) }
        let t = trace(days: 14, apps: ["feed", "static"], sessions: makeSessions(starts), updates: [feed, []])
        let never = simulateDevice(trace: t, policy: NeverPolicy(), randomKey: 3)
        let learnt = simulateDevice(trace: t, policy: CostAwarePredictorPolicy(targetJoulesPerDay: 20), randomKey: 3)
        // "static" is always fresh; "feed" is stale at every launch without background work.
        XCTAssertEqual(never.freshLaunches, never.launches / 2)
        XCTAssertGreaterThan(learnt.freshLaunches, never.freshLaunches + never.launches / 4)
        // It learns that "static" never has new data: far fewer refreshes
        // than with that ingredient off.
        let blind = simulateDevice(trace: t, policy: CostAwarePredictorPolicy(targetJoulesPerDay: 20, learnContent: false,
                                                                              priorUpdatesPerHour: 3),
                                   randomKey: 3)
        XCTAssertLessThan(learnt.energy.total, blind.energy.total)
    }

    func testTheRegistryMapsTheSwitchesAndRejectsValuesOutOfRange() throws {
        func make(_ json: String) throws -> any SchedulingPolicy {
            try PolicyRegistry.standard.make(JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8)))
        }
        let on = try XCTUnwrap(try make(#"{"name": "cost-aware-predictor"}"#) as? CostAwarePredictorPolicy)
        XCTAssertEqual(on.launches.recencyWindow, .minutes(30))
        XCTAssertEqual(on.launches.transitionWindow, .minutes(10))
        XCTAssertTrue(on.launches.timeOfWeek && on.content.learn)
        XCTAssertEqual(on.bar.targetJoulesPerDay, 60)
        let off = try XCTUnwrap(try make(#"{"name": "cost-aware-predictor", "params": {"timeOfWeek": 0, "recency": 0, "previousApp": 0, "learnContent": 0, "targetJoulesPerDay": 200, "rideJoules": 14}}"#)
                                as? CostAwarePredictorPolicy)
        XCTAssertNil(off.launches.recencyWindow)
        XCTAssertNil(off.launches.transitionWindow)
        XCTAssertFalse(off.launches.timeOfWeek || off.content.learn)
        XCTAssertEqual(off.bar.targetJoulesPerDay, 200)
        XCTAssertEqual(off.cost.rideJoules, 14)
        XCTAssertThrowsError(try make(#"{"name": "cost-aware-predictor", "params": {"recency": 2}}"#)) { e in
            XCTAssertEqual((e as? PolicyConfigurationError)?.path, "policy.params.recency")
        }
        XCTAssertThrowsError(try make(#"{"name": "cost-aware-predictor", "params": {"adaptRate": -1}}"#))
    }
}
