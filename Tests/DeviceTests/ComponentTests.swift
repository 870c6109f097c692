@testable import Device
import SimCore
import XCTest

/// The device's components own their state: each cursor and timer moves
/// only through the component's own methods, and gives the next event
/// time the loop reads.
final class ComponentTests: XCTestCase {
    let t = { (minutes: Int64) in SimTime(day: 0, plus: .minutes(minutes)) }

    func testSessionStreamWalksStartsAndEnds() {
        var s = SessionStream(sessions(at: [t(10), t(30)], length: .minutes(5)))
        XCTAssertEqual(s.nextBoundary, t(10))
        XCTAssertEqual(s.begin().start, t(10))
        XCTAssertTrue(s.inSession)
        XCTAssertEqual(s.nextBoundary, t(15), "in a session, the next boundary is its end")
        XCTAssertEqual(s.end().end, t(15))
        XCTAssertEqual(s.nextBoundary, t(30))
        _ = s.begin(); _ = s.end()
        XCTAssertEqual(s.nextBoundary, .farFuture, "after the last session, none")
    }

    func testNetworkStreamTilesGapsWithOffline() {
        let horizon = SimTime(day: 1)
        var n = NetworkStream([.init(start: t(60), end: t(120), kind: .wifi)], horizon: horizon,
                              energy: EnergyParameters())
        XCTAssertEqual(n.initial, .offline, "the gap before the first interval is offline")
        XCTAssertEqual(n.nextChange, t(60))
        XCTAssertEqual(n.advance(), .wifi)
        XCTAssertEqual(n.nextChange, t(120))
        XCTAssertEqual(n.advance(), .offline)
        XCTAssertEqual(n.nextChange, .farFuture)
    }

    func testPowerSupplyChargerCursorAndLowPowerClock() {
        let trace = flatTrace(days: 1, charging: [.init(start: t(0), end: t(60)), .init(start: t(120), end: t(180))])
        var p = PowerSupply(trace: trace, configuration: DeviceConfiguration())
        XCTAssertTrue(p.startsOnCharger)
        p.plugInAtStart()
        XCTAssertEqual(p.nextChargingBoundary, t(60))
        XCTAssertFalse(p.powerBoundary(at: t(60)).onCharger, "the end of the first interval unplugs")
        XCTAssertEqual(p.nextChargingBoundary, t(120))
        XCTAssertTrue(p.powerBoundary(at: t(120)).onCharger)
        XCTAssertEqual(p.nextChargingBoundary, t(180))
        p.loadChanged(charging: true, screenOn: false)
        XCTAssertEqual(p.watts, DeviceConfiguration().chargingWatts, "no drain in this trace: the charger's power")
        XCTAssertNil(p.lowPowerSwitched(true, at: t(0)))
        XCTAssertEqual(p.lowPowerHours(until: t(90)) ?? 0, 1.5, accuracy: 1e-12)
        XCTAssertEqual(p.lowPowerSwitched(false, at: t(30)) ?? 0, 0.5, accuracy: 1e-12)
        XCTAssertNil(p.lowPowerHours(until: t(90)), "off: no hours still running")
    }

    func testPowerSupplyTakesOffOnlyNewBackgroundEnergy() {
        var p = PowerSupply(trace: flatTrace(days: 1), configuration: DeviceConfiguration())
        XCTAssertTrue(p.isSettled(total: 0))
        XCTAssertEqual(p.takeOff(total: 5), 5)
        XCTAssertTrue(p.isSettled(total: 5))
        XCTAssertEqual(p.takeOff(total: 7.5), 2.5)
    }

    func testMetricsAccumulatorMeansAndPercentile() {
        var m = MetricsAccumulator(launches: 4, initialBatteryPercent: 120)
        XCTAssertEqual(m.user.minBatteryPercent, 100, "the lowest level starts at the initial level, clamped")
        for (i, age) in [0.0, 10, 20, 30].enumerated() {
            m.launch(fresh: age == 0, ageSeconds: age, sinceRefreshSeconds: Double(i))
        }
        let deadZoneStart = TaskStart(kind: .appRefresh, run: 0, at: SimTime(day: 1), network: .wifi, failureDraw: 1,
                                      failureProbability: 0, cpuSeconds: 1, usesNetwork: true, processingProgress: 0,
                                      budget: .seconds(30), cancellationGrace: .seconds(5), handlerStyle: .completionHandler,
                                      neverCompletesProbability: 0, neverCompletesDraw: { 1 }, block: { .deadZone },
                                      deadZoneTimeout: { .seconds(20) },
                                      shape: { RadioModel.TransferShape(upSeconds: 1, downSeconds: 1, alphaJoules: 1) },
                                      serverLatency: { .zero })
        var ledger = EnergyLedger()
        ledger.promotion = 2; ledger.active = 3; ledger.tail = 100
        m.taskStarted(deadZoneStart, energy: ledger, delayMicros: 3_000_000)
        XCTAssertEqual(m.user.tasksRun, 1)
        XCTAssertEqual(m.user.deadZoneRuns, 1, "a start in a dead zone is counted where it is worked out")
        XCTAssertEqual(m.user.energy.promotion, 2)
        XCTAssertEqual(m.user.energy.active, 3)
        XCTAssertEqual(m.user.energy.tail, 0, "a start's tail gap is the radio's, not the start's")
        m.taskCensored(cpuJoules: 0.5)
        XCTAssertEqual(m.user.tasksCensored, 1)
        XCTAssertEqual(m.user.energy.cpu, 0.5)
        let u = m.finish(horizon: SimTime(day: 2), capacityJoules: 1000, wakesByHour: Array(repeating: 0, count: 24))
        XCTAssertEqual(u.launches, 4)
        XCTAssertEqual(u.freshLaunchRatio, 0.25)
        XCTAssertEqual(u.meanAgeSeconds, 15)
        XCTAssertEqual(u.p95AgeSeconds, 30)
        XCTAssertEqual(u.meanTimeSinceRefreshSeconds, 1.5)
        XCTAssertEqual(u.meanDelayPastEarliestBeginSeconds, 3)
        XCTAssertEqual(u.days, 2)
    }

    func testInstalledAppsFetchAndLaunchContent() {
        var apps = InstalledApps(models: [AppModel()], contentUpdates: [[t(10), t(20)]])
        let before = apps.launchContent(app: 0, at: t(25))
        XCTAssertTrue(before.stale)
        XCTAssertEqual(before.ageSeconds, 15 * 60, "the age of the oldest update not held")
        XCTAssertTrue(apps.fetchContent(app: 0, at: t(15)))
        XCTAssertFalse(apps.fetchContent(app: 0, at: t(15)), "nothing new since")
        XCTAssertEqual(apps.launchContent(app: 0, at: t(25)).ageSeconds, 5 * 60)
        XCTAssertTrue(apps.fetchContent(app: 0, at: t(20)), "an update at the fetch's instant is included")
        XCTAssertFalse(apps.launchContent(app: 0, at: t(25)).stale)
    }

    func testNoMechanismRegisteredMeansNoEvent() {
        let c = DeviceConfiguration()
        let m = RegisteredMechanisms(trace: flatTrace(days: 1), configuration: c, models: [c.defaultApp],
                                     random: DeviceRandom(key: 1))
        let agenda = TimerAgenda(count: AgendaSlot.allCases.count)
        agenda.update(.policyWake, to: SimTime(microseconds: 5))
        m.report(to: agenda)
        XCTAssertEqual(agenda.earliest().slot, AgendaSlot.policyWake.rawValue, "every mechanism slot stays empty")
        XCTAssertFalse(m.isOn)
    }
}
