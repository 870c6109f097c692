@testable import Device
import SimCore
import TestSupport
import XCTest

private func minutes(_ m: Int64) -> SimTime { SimTime(microseconds: m * 60_000_000) }

/// The server strategies: send times as pure functions of the update times.
final class PushStrategyTests: XCTestCase {
    let updates = [minutes(0), minutes(10), minutes(20), minutes(70)]
    let horizon = minutes(120)

    func testEveryUpdate() {
        XCTAssertEqual(PushStrategy.everyUpdate.sendTimes(updates: updates, horizon: horizon), updates)
    }

    func testAtMostOnePerIntervalSkipsUpdatesInsideTheInterval() {
        XCTAssertEqual(PushStrategy.atMostOnePer(.minutes(30)).sendTimes(updates: updates, horizon: horizon),
                       [minutes(0), minutes(70)])
    }

    func testCoalescedSendsOnceAWindowAfterTheFirstUnannouncedUpdate() {
        XCTAssertEqual(PushStrategy.coalesced(.minutes(15)).sendTimes(updates: updates, horizon: horizon),
                       [minutes(15), minutes(35), minutes(85)])
        // A send at or after the horizon is not made.
        XCTAssertEqual(PushStrategy.coalesced(.minutes(60)).sendTimes(updates: updates, horizon: horizon),
                       [minutes(60)])
    }

    func testNoneSendsNothing() {
        XCTAssertEqual(PushStrategy.none.sendTimes(updates: updates, horizon: horizon), [])
    }

    func testJSONRoundTripAndErrors() throws {
        let s = try JSONDecoder().decode(PushStrategy.self, from: Data(#"{"strategy":"coalesced","window":"10m"}"#.utf8))
        XCTAssertEqual(s, .coalesced(.minutes(10)))
        let back = try JSONDecoder().decode(PushStrategy.self, from: JSONEncoder().encode(s))
        XCTAssertEqual(back, s)
        XCTAssertThrowsError(try JSONDecoder().decode(PushStrategy.self, from: Data(#"{"strategy":"often"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(PushStrategy.self, from: Data(#"{"strategy":"at-most-one-per"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(PushStrategy.self,
                                                      from: Data(#"{"strategy":"every-update","window":"1m"}"#.utf8)))
    }
}

/// iOS's channel alone: throttle, hold, coalesce, gates, drops.
final class SilentPushChannelTests: XCTestCase {
    func channel(_ times: [SimTime], burst: Double = 1) -> SilentPushChannel {
        SilentPushChannel(sendTimes: [times], rules: with(SilentPushRules()) { $0.perHour = 3; $0.burst = burst })
    }

    func testThrottleHoldsThenCoalescesThenDeliversWhenATokenIsWhole() {
        var c = channel([minutes(0), minutes(0), minutes(5)])
        let a = c.takeArrival(), b = c.takeArrival(), d = c.takeArrival()
        XCTAssertEqual(c.offer(a, at: minutes(0), gate: .open, drop: nil),
                       .delivered(.init(app: 0, firstSentAt: minutes(0), pushes: 1)))
        XCTAssertEqual(c.offer(b, at: minutes(0), gate: .open, drop: nil), .held)
        // 3 an hour: the bucket is empty, the next whole token in 20 minutes.
        XCTAssertEqual(c.nextRelease, minutes(20))
        XCTAssertEqual(c.offer(d, at: minutes(5), gate: .open, drop: nil), .coalesced)
        XCTAssertFalse(c.isDue(0, at: minutes(19)))
        XCTAssertTrue(c.isDue(0, at: minutes(20)))
        XCTAssertEqual(c.examine(0, at: minutes(20), gate: .open, drop: nil),
                       .delivered(.init(app: 0, firstSentAt: minutes(0), pushes: 2)))
        XCTAssertEqual(c.heldCount, 0)
        XCTAssertEqual(c.nextTime, .farFuture)
    }

    func testBurstAllowsBackToBackDeliveries() {
        var c = channel([minutes(0), minutes(0), minutes(0), minutes(0)], burst: 3)
        var delivered = 0
        for _ in 0..<4 {
            if case .delivered = c.offer(c.takeArrival(), at: minutes(0), gate: .open, drop: nil) { delivered += 1 }
        }
        XCTAssertEqual(delivered, 3)
        XCTAssertEqual(c.heldCount, 1)
    }

    func testClosedGateWaitsForTheCallerThenDelivers() {
        var c = channel([minutes(0)])
        XCTAssertEqual(c.offer(c.takeArrival(), at: minutes(0), gate: .closed, drop: nil), .held)
        XCTAssertEqual(c.waitingForGate, 1)
        XCTAssertEqual(c.nextRelease, .farFuture)
        XCTAssertTrue(c.isDue(0, at: minutes(1)))
        XCTAssertNil(c.examine(0, at: minutes(1), gate: .closed, drop: nil))
        XCTAssertEqual(c.examine(0, at: minutes(2), gate: .open, drop: nil),
                       .delivered(.init(app: 0, firstSentAt: minutes(0), pushes: 1)))
        XCTAssertEqual(c.waitingForGate, 0)
    }

    func testGateOpeningLaterSetsTheReleaseTime() {
        var c = channel([minutes(0)])
        XCTAssertEqual(c.offer(c.takeArrival(), at: minutes(0), gate: .openFrom(minutes(3)), drop: nil), .held)
        XCTAssertEqual(c.nextRelease, minutes(3))
    }

    func testDropsNeitherDeliverNorHold() {
        var c = channel([minutes(0), minutes(1)])
        XCTAssertEqual(c.offer(c.takeArrival(), at: minutes(0), gate: .open, drop: .forceQuit),
                       .dropped(.forceQuit, pushes: 1))
        XCTAssertEqual(c.heldCount, 0)
        // A held (coalesced) push dropped at its release drops all it holds.
        _ = c.offer(c.takeArrival(), at: minutes(1), gate: .closed, drop: nil)
        XCTAssertEqual(c.examine(0, at: minutes(2), gate: .open, drop: .forceQuit), .dropped(.forceQuit, pushes: 1))
    }

    func testSameInstantArrivalsGoLowerAppFirst() {
        var c = SilentPushChannel(sendTimes: [[minutes(5)], [minutes(1), minutes(5)]], rules: SilentPushRules())
        XCTAssertEqual(c.takeArrival(), .init(time: minutes(1), app: 1))
        XCTAssertEqual(c.takeArrival(), .init(time: minutes(5), app: 0))
        XCTAssertEqual(c.takeArrival(), .init(time: minutes(5), app: 1))
        XCTAssertEqual(c.nextArrival, .farFuture)
    }
}

/// A handler run planned alone.
final class PlannedBackgroundRunTests: XCTestCase {
    func plan(cpu: Double, fails: Bool = false, offlineAt: SimTime = .farFuture) -> PlannedBackgroundRun {
        PlannedBackgroundRun.plan(app: 0, start: .zero, dataEnd: SimTime(microseconds: 1_000_000), cpuSeconds: cpu,
                                  fails: fails, budget: .seconds(30 as Int64), offlineAt: offlineAt,
                                  ledger: EnergyLedger())
    }

    func testSuccessEndsAfterDataAndCPU() {
        let r = plan(cpu: 0.5)
        XCTAssertEqual(r.outcome, .success)
        XCTAssertEqual(r.end, SimTime(microseconds: 1_500_000))
        XCTAssertEqual(r.cpuRan, 0.5)
    }

    func testExpiredAtTheHandlerBudget() {
        let r = plan(cpu: 40)
        XCTAssertEqual(r.outcome, .expired)
        XCTAssertEqual(r.end, SimTime(microseconds: 30_000_000))
        XCTAssertEqual(r.cpuRan, 29)
    }

    func testFailureEndsAtTheDataEndWithoutCPU() {
        let r = plan(cpu: 0.5, fails: true)
        XCTAssertEqual(r.outcome, .failed)
        XCTAssertEqual(r.end, SimTime(microseconds: 1_000_000))
        XCTAssertEqual(r.cpuRan, 0)
    }

    func testGoingOfflineDuringTheDataPhaseFailsThen() {
        let r = plan(cpu: 0.5, offlineAt: SimTime(microseconds: 400_000))
        XCTAssertEqual(r.outcome, .failed)
        XCTAssertEqual(r.end, SimTime(microseconds: 400_000))
        // Offline after the bytes are in changes nothing.
        XCTAssertEqual(plan(cpu: 0.5, offlineAt: SimTime(microseconds: 1_200_000)).outcome, .success)
    }
}

/// Pulls nothing: every background run in these worlds is a push's.
struct PullNothing: SchedulingPolicy {
    func decide(context: PolicyContext) -> PolicyDecision { PolicyDecision() }
}

/// Silent push through the simulator, on tiny worlds with exact outcomes.
final class SilentPushSimulationTests: XCTestCase {
    let updates = [[minutes(60), minutes(120), minutes(125)]]

    func config(_ strategy: PushStrategy = .everyUpdate, rules: SilentPushRules = SilentPushRules(),
                work: WorkModel = .instant) -> DeviceConfiguration {
        var app = AppModel(refresh: work)
        app.silentPush = strategy
        var c = DeviceConfiguration(apps: [:], defaultApp: app)
        c.silentPush = rules
        return c
    }

    func run(_ trace: DeviceTrace, _ c: DeviceConfiguration) -> (UserMetrics, [DeviceEvent]) {
        var sim = DeviceSimulator(trace: trace, configuration: c, policy: PullNothing(), randomKey: 1,
                                  sink: EventRecorder())
        let m = sim.run()
        return (m, sim.sink.events.filter { $0.kind == .silentPush })
    }

    func testEveryUpdateIsDeliveredAndMakesTheLaunchFresh() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(180)]), updates: updates)
        let (m, rows) = run(trace, config())
        XCTAssertEqual(m.silentPush[.sent], 3)
        XCTAssertEqual(m.silentPush[.deliveredBackground], 3)
        XCTAssertEqual(m.silentPush[.succeeded], 3)
        XCTAssertEqual(m.silentPush[.newData], 3)
        XCTAssertEqual(m.silentPush.mean(.delaySumSeconds, per: [.deliveredBackground, .deliveredForeground]), 0)
        // Instant work without network: each delivery costs its wake only.
        XCTAssertEqual(m.silentPush[.energyJoules], 3 * EnergyParameters.default.wakeJoules, accuracy: 1e-12)
        XCTAssertEqual(m.energy.total, 3 * EnergyParameters.default.wakeJoules, accuracy: 1e-12)
        XCTAssertEqual(m.freshLaunches, 1)
        XCTAssertEqual(rows.map(\.detail), ["delivered", "delivered", "delivered"])
        XCTAssertEqual(rows.map(\.outcome), [.success, .success, .success])
        // Pull only: the same launch is stale.
        XCTAssertEqual(run(trace, config(.none)).0.freshLaunches, 0)
    }

    func testThrottledPushesAreHeldCoalescedAndDeliveredOnce() {
        let trace = flatTrace(days: 1, updates: [[minutes(60), minutes(61), minutes(62)]])
        let (m, rows) = run(trace, config(rules: with(SilentPushRules()) { $0.perHour = 3; $0.burst = 1 }))
        XCTAssertEqual(m.silentPush[.sent], 3)
        XCTAssertEqual(m.silentPush[.deliveredBackground], 2)
        XCTAssertEqual(m.silentPush[.coalesced], 1)
        // The held push (sent at 61 min) goes out when the next token is
        // whole, 20 minutes after the first delivery took the only one.
        let delivered = rows.filter { $0.detail.hasPrefix("delivered") }
        XCTAssertEqual(delivered.map(\.start), [minutes(60), minutes(80)])
        XCTAssertEqual(delivered.last?.detail, "delivered n=2")
        XCTAssertEqual(m.silentPush[.delaySumSeconds], 19 * 60)
    }

    func testOfflineHoldsUntilTheNetworkReturns() {
        let net = [DeviceTrace.Network(start: minutes(90), end: SimTime(day: 1), kind: .wifi)]
        let trace = flatTrace(days: 1, updates: [[minutes(60)]], network: net)
        let (m, rows) = run(trace, config())
        XCTAssertEqual(m.silentPush[.deliveredBackground], 1)
        XCTAssertEqual(rows.map(\.detail), ["held", "delivered"])
        XCTAssertEqual(rows.last?.start, minutes(90))
        XCTAssertEqual(m.silentPush[.delaySumSeconds], 30 * 60)
    }

    func testLowBatteryHoldsEveryPushToTheEnd() {
        let trace = flatTrace(days: 1, updates: updates, battery: 15)
        let (m, _) = run(trace, config())
        XCTAssertEqual(m.silentPush[.deliveredBackground], 0)
        XCTAssertEqual(m.silentPush[.coalesced], 2)
        XCTAssertEqual(m.silentPush[.heldAtEnd], 3)
        XCTAssertEqual(m.energy.total, 0)
    }

    func testForceQuitAppsPushesAreDropped() {
        // The user swipes the app away at the end of its only session, before
        // the first update: every push after that is dropped (the app is not
        // opened again).
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(10)]), updates: updates)
        var c = config()
        c.defaultApp.forceQuitProbability = 1
        let (m, rows) = run(trace, c)
        XCTAssertEqual(m.forceQuits, 1)
        XCTAssertEqual(m.silentPush[.dropped], 3)
        XCTAssertEqual(m.silentPush[.deliveredBackground], 0)
        XCTAssertEqual(Set(rows.map(\.detail)), ["dropped_force_quit"])
        XCTAssertEqual(m.energy.total, 0)
    }

    func testTheForegroundAppFetchesInTheForeground() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(59)], length: .minutes(2)), updates: [[minutes(60)]])
        let (m, rows) = run(trace, config())
        XCTAssertEqual(m.silentPush[.deliveredForeground], 1)
        XCTAssertEqual(m.silentPush[.deliveredBackground], 0)
        XCTAssertEqual(rows.map(\.detail), ["foreground"])
        XCTAssertEqual(rows.first?.newData, true)
        XCTAssertEqual(m.energy.total, 0)
    }

    func testAFetchOverTheNetworkIsChargedOnTheRadio() {
        let work = WorkModel(cpuSeconds: 0.5, serverLatencySigma: 0, failureProbabilityWifi: 0)
        let trace = flatTrace(days: 1, updates: [[minutes(60)]])
        let (m, rows) = run(trace, config(work: work))
        XCTAssertEqual(m.silentPush[.succeeded], 1)
        let r = rows[0]
        XCTAssertGreaterThan(r.energy.promotion, 0)
        XCTAssertGreaterThan(r.energy.active, 0)
        XCTAssertEqual(r.energy.cpu, 0.5 * EnergyParameters.default.cpuWatts, accuracy: 1e-12)
        XCTAssertEqual(m.silentPush[.energyJoules], r.energy.total, accuracy: 1e-12)
        // The radio's tail after the fetch is charged as a tail, outside the push's own energy.
        XCTAssertGreaterThan(m.energy.tail, 0)
        XCTAssertEqual(m.energy.total, m.silentPush[.energyJoules] + m.energy.tail, accuracy: 1e-9)
    }

    func testOffByDefault() {
        let trace = flatTrace(days: 1, updates: updates)
        var sim = DeviceSimulator(trace: trace, configuration: DeviceConfiguration(), policy: PullNothing(),
                                  randomKey: 1, sink: NoEventLog())
        XCTAssertNil(sim.mechanisms.push)
        XCTAssertEqual(sim.run().silentPush, SilentPushMetrics())
    }
}
