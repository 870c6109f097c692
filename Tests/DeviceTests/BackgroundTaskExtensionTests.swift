@testable import Device
import SimCore
import XCTest

private func minutes(_ m: Int64) -> SimTime { SimTime(microseconds: m * 60_000_000) }

/// `beginBackgroundTask` at session ends, on tiny worlds with exact outcomes.
final class BackgroundTaskExtensionTests: XCTestCase {
    func config(probability: Double = 1, work: WorkModel, budget: SimDuration = .seconds(30 as Int64)) -> DeviceConfiguration {
        var app = AppModel(refresh: .instant)
        app.beginBackgroundTask = FinishingWork(probability: probability, work: work)
        var c = DeviceConfiguration(apps: [:], defaultApp: app)
        c.beginBackgroundTask = BackgroundTaskRules(budget: budget)
        return c
    }

    func run(_ trace: DeviceTrace, _ c: DeviceConfiguration) -> (UserMetrics, [DeviceEvent]) {
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: c, policy: PullNothing(), randomKey: 3)
        return (m, log.events.filter { $0.kind == .backgroundTask })
    }

    let cpuOnly = WorkModel(cpuSeconds: 2, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                            failureProbabilityWifi: 0, failureProbabilityCellular: 0, usesNetwork: false)

    func testWorkThatFitsEndsTheTaskAndCostsItsCPU() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60), minutes(120)]))
        let (m, rows) = run(trace, config(work: cpuOnly))
        XCTAssertEqual(m.backgroundTask[.started], 2)
        XCTAssertEqual(m.backgroundTask[.ended], 2)
        XCTAssertEqual(rows.map(\.detail), ["ended", "ended"])
        // Sessions last 10 s: the first ends at 60 min 10 s, its run 2 s later.
        XCTAssertEqual(rows[0].start, minutes(60) + .seconds(10 as Int64))
        XCTAssertEqual(rows[0].end, minutes(60) + .seconds(12 as Int64))
        XCTAssertEqual(m.backgroundTask[.energyJoules], 2 * 2 * EnergyParameters.default.cpuWatts, accuracy: 1e-12)
        XCTAssertEqual(m.energy.total, m.backgroundTask[.energyJoules], accuracy: 1e-12)
        XCTAssertEqual(m.backgroundTask[.wastedJoules], 0)
    }

    func testWorkLongerThanTheBudgetIsExpiredThere() {
        var long = cpuOnly
        long.cpuSeconds = 45
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]))
        let (m, rows) = run(trace, config(work: long))
        XCTAssertEqual(m.backgroundTask[.expired], 1)
        XCTAssertEqual(rows.first?.end, minutes(60) + .seconds(40 as Int64))
        XCTAssertEqual(m.backgroundTask[.energyJoules], 30 * EnergyParameters.default.cpuWatts, accuracy: 1e-9)
        XCTAssertEqual(m.backgroundTask[.wastedJoules], m.backgroundTask[.energyJoules], accuracy: 1e-12)
    }

    func testAnUploadWithoutNetworkFails() {
        let net = [DeviceTrace.Network(start: minutes(120), end: SimTime(day: 1), kind: .wifi)]
        let upload = WorkModel(cpuSeconds: 0, bytesUp: 20_000, bytesDown: 0, serverLatency: .zero, serverLatencySigma: 0,
                               failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60), minutes(180)]), network: net)
        let (m, rows) = run(trace, config(work: upload))
        XCTAssertEqual(rows.map(\.detail), ["failed", "ended"])
        XCTAssertEqual(m.backgroundTask[.failed], 1)
        XCTAssertEqual(m.backgroundTask[.ended], 1)
        // The failed one costs nothing; the upload online pays its active
        // energy, and no promotion: the session just ended keeps the radio up.
        XCTAssertEqual(rows[0].energy.total, 0)
        XCTAssertGreaterThan(rows[1].energy.active, 0)
        XCTAssertEqual(rows[1].energy.promotion, 0)
    }

    func testOneRunPerAppAtATime() {
        var long = cpuOnly
        long.cpuSeconds = 25
        // Sessions of 10 s, 5 s apart: the second ends while the first run goes on.
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60), minutes(60) + .seconds(15 as Int64)]))
        let (m, _) = run(trace, config(work: long))
        XCTAssertEqual(m.backgroundTask[.started], 1)
        XCTAssertEqual(m.backgroundTask[.alreadyRunning], 1)
    }

    func testAskingIsDrawnPerSessionAndIsTheSameUnderEveryPolicy() {
        let trace = flatTrace(days: 1, sessions: sessions(at: (0..<40).map { minutes(30 * Int64($0)) }))
        let c = config(probability: 0.5, work: cpuOnly)
        let (a, rowsA) = run(trace, c)
        let b = simulateDeviceWithLog(trace: trace, configuration: c, policy: RunEverythingAllowed(), randomKey: 3)
        XCTAssertGreaterThan(a.backgroundTask[.started], 5)
        XCTAssertLessThan(a.backgroundTask[.started], 35)
        XCTAssertEqual(rowsA.map(\.start), b.1.events.filter { $0.kind == .backgroundTask }.map(\.start))
    }

    func testOffByDefault() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]))
        let m = simulateDevice(trace: trace, policy: PullNothing(), randomKey: 3)
        XCTAssertEqual(m.backgroundTask, BackgroundTaskMetrics())
    }
}
