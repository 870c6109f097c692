@testable import Device
import SimCore
import XCTest

private func minutes(_ m: Int64) -> SimTime { SimTime(microseconds: m * 60_000_000) }

/// The relaunch rate limit alone.
final class BackgroundTransfersTests: XCTestCase {
    func testDelayStartsAt60sDoublesPerRelaunchAndResetsOnForegroundLaunch() {
        var t = BackgroundTransfers(apps: 1, rules: BackgroundTransferRules())
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(10)), minutes(10))
        t.relaunched(app: 0, at: minutes(10))
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(10)), minutes(11))
        t.relaunched(app: 0, at: minutes(11))
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(11)), minutes(13))
        t.relaunched(app: 0, at: minutes(13))
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(13)), minutes(17))
        t.launchedInForeground(app: 0)
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(14)), minutes(14))
        t.relaunched(app: 0, at: minutes(14))
        XCTAssertEqual(t.relaunchAt(app: 0, done: minutes(14)), minutes(15))
    }
}

/// Background URLSession through the simulator, on tiny worlds.
final class BackgroundTransferSimulationTests: XCTestCase {
    func config(_ model: BackgroundTransferModel) -> DeviceConfiguration {
        var app = AppModel(refresh: .instant)
        app.backgroundTransfer = model
        return DeviceConfiguration(apps: [:], defaultApp: app)
    }

    func run(_ trace: DeviceTrace, _ c: DeviceConfiguration) -> (UserMetrics, [DeviceEvent]) {
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: c, policy: PullNothing(), randomKey: 5)
        return (m, log.events.filter { $0.kind == .urlSession })
    }

    func testFollowUpRelaunchesWaitForTheDoublingDelay() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]))
        let (m, rows) = run(trace, config(.init(probability: 1, bytesDown: 0, followUps: 2)))
        XCTAssertEqual(m.urlSession[.handed], 3)
        XCTAssertEqual(m.urlSession[.completed], 3)
        XCTAssertEqual(m.urlSession[.relaunches], 3)
        let relaunches = rows.filter { $0.detail == "relaunch" }.map(\.time)
        let end = minutes(60) + .seconds(10 as Int64)
        // The first at once, the second 60 s after it, the third 120 s after that.
        XCTAssertEqual(relaunches, [end, end + .seconds(60 as Int64), end + .seconds(180 as Int64)])
        // The third transfer found the radio idle: its promotion (Wi-Fi,
        // 79.1 ms) delayed its bytes, so it waited 120 s less that.
        XCTAssertEqual(m.urlSession[.relaunchWaitSumSeconds], 60 + 120 - 0.0791, accuracy: 1e-9)
        XCTAssertEqual(m.urlSession[.energyJoules],
                       3 * (EnergyParameters.default.wakeJoules + 0.5 * EnergyParameters.default.cpuWatts)
                       + EnergyParameters.default.wifi.promotionJoules, accuracy: 1e-9)
    }

    func testDiscretionaryWaitsForWifiAndTheCharger() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]),
                              charging: [.init(start: minutes(120), end: minutes(180))])
        let (m, rows) = run(trace, config(.init(probability: 1, discretionary: true)))
        XCTAssertEqual(rows.first { $0.detail == "started" }?.time, minutes(120))
        XCTAssertEqual(m.urlSession[.completed], 1)
        XCTAssertEqual(m.urlSession[.relaunches], 1)
    }

    func testGoingOfflinePausesAndTheTransferRestarts() {
        let cut = minutes(60) + .seconds(10 as Int64) + .milliseconds(500)
        let net = [DeviceTrace.Network(start: .zero, end: cut, kind: .wifi),
                   DeviceTrace.Network(start: minutes(70), end: SimTime(day: 1), kind: .wifi)]
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]), network: net)
        let (m, rows) = run(trace, config(.init(probability: 1, bytesDown: 50_000_000)))
        XCTAssertEqual(m.urlSession[.runs], 2)
        XCTAssertEqual(m.urlSession[.paused], 1)
        XCTAssertEqual(m.urlSession[.completed], 1)
        XCTAssertEqual(rows.filter { $0.detail == "started" }.map(\.time), [cut - .milliseconds(500), minutes(70)])
    }

    func testTheCompletionBringsTheContentTheServerHadAtTheStart() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60), minutes(300)]),
                              updates: [[minutes(30), minutes(61), minutes(200)]])
        var c = config(.init(probability: 1, bytesDown: 1_000))
        c.foregroundFetch = false
        let (m, rows) = run(trace, c)
        // The first session's transfer is served at 60 min 10 s: it brings
        // the 30-min update, not the 61- and 200-min ones, so the 300-min
        // launch is stale (no foreground fetch here); that session's own
        // transfer then brings the other two.
        XCTAssertEqual(m.urlSession[.newData], 2)
        XCTAssertEqual(m.urlSession[.relaunches], 2)
        XCTAssertEqual(m.freshLaunches, 0)
        XCTAssertEqual(rows.filter { $0.detail == "relaunch" }.map(\.newData), [true, true])
    }

    func testOffByDefault() {
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60)]))
        XCTAssertEqual(simulateDevice(trace: trace, policy: PullNothing(), randomKey: 5).urlSession, BackgroundTransferMetrics())
    }
}
