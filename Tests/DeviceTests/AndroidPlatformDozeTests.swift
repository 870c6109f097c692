@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// Doze on a simulated Android device (Docs/AndroidPlatform.md A9, from
/// Docs/Android.md A9–A12): background work of a quiet device waits for a
/// maintenance window; screen on or charging ends Doze.
final class AndroidPlatformDozeTests: XCTestCase {
    /// App 0's refresh asked for every 15 min; one 10 s session of app 0 at
    /// 1 min, then `extra` sessions; Wi-Fi, no failures, no drain.
    func refreshStarts(charging: [DeviceTrace.Charging] = [], extra: [DeviceTrace.Session] = [],
                       doze: DozeRules = DozeRules()) -> [SimTime] {
        var config = DeviceConfiguration()
        config.platform = .android
        config.android.dozeTimings = doze
        config.defaultApp.refresh.failureProbabilityWifi = 0
        config.defaultApp.refresh.failureProbabilityCellular = 0
        config.defaultApp.forgetProbability = 0
        config.defaultApp.refreshEarliestBeginDelay = .minutes(15)
        let trace = flatTrace(days: 1, apps: ["news", "mail"],
                              sessions: sessions(at: [.zero + .minutes(1)]) + extra,
                              network: [.init(start: .zero, end: SimTime(day: 30), kind: .wifi)],
                              charging: charging)
        let (_, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 5)
        let runs = log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
        return runs.filter { $0.app == 0 }.compactMap(\.start)
    }

    /// Screen off and unplugged for the rest of the day: the first run at
    /// the session end (not yet idle), then only at maintenance-window
    /// openings: light windows at 20, 36 and 52 min of quiet time (the one
    /// at 9 min comes before the 15-min period is due), then deep idle at
    /// 1 h and deep windows at 2 h, 4 h 05, 8 h 15, 14 h 25, 20 h 35 of
    /// quiet time (idle periods of 1, 2, 4, 6, 6 h; windows of 5, 10, 10 … min).
    func testAQuietDeviceRunsWorkOnlyAtMaintenanceWindows() {
        let quiet = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        let s = refreshStarts()
        let minutes: [Int64] = [0, 20, 36, 52, 120, 245, 495, 865, 1235]
        XCTAssertEqual(s, minutes.map { quiet + .minutes($0) })
        // The same from the pure model: every later start opens a window.
        let windows = DozeTimeline(rules: DozeRules()).maintenanceWindows(quietSince: quiet, from: quiet, to: SimTime(day: 1))
        for t in s.dropFirst() { XCTAssertTrue(windows.contains { $0.start == t }, "\(t) opens no window") }
    }

    /// `device.android.dozeTimings`: a first deep idle period of 30 min
    /// (AOSP's 1 h by default) opens the first deep window at 1 h 30 of
    /// quiet time instead of 2 h, and the next (an idle period of 1 h
    /// after the 5-min window) at 2 h 35; the light windows before are unchanged.
    func testDozeTimingsMoveTheWindows() {
        let quiet = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        var rules = DozeRules()
        rules.idleTimeout = .minutes(30)
        let s = refreshStarts(doze: rules)
        XCTAssertEqual(Array(s.prefix(6)), [0, 20, 36, 52, 90, 155].map { quiet + .minutes($0) })
        XCTAssertFalse(s.contains(quiet + .minutes(120)), "the default's first deep window")
    }

    /// Plugged in: no Doze, the refresh runs every 15 min all day.
    func testChargingDeviceIsNotDeferred() {
        let s = refreshStarts(charging: [.init(start: .zero, end: SimTime(day: 1))])
        XCTAssertEqual(s.count, 96, "every 15 min from 1 min 10 s to the end of the day")
        for (a, b) in zip(s, s.dropFirst()) { XCTAssertEqual(b - a, .minutes(15)) }
    }

    /// Screen on (another app in use from 3 h to 9 h): no Doze then, app 0's
    /// refresh runs every 15 min; the quiet period after restarts from
    /// scratch, so its first deep window opens 2 h after the screen goes off.
    func testScreenOnEndsDozeAndTheNextQuietPeriodStartsAfresh() {
        let on = SimTime.zero + .hours(3), off = SimTime.zero + .hours(9)
        let s = refreshStarts(extra: [.init(start: on, end: off, app: 1)])
        let during = s.filter { $0 > on && $0 < off }
        XCTAssertGreaterThanOrEqual(during.count, 23)
        for (a, b) in zip(during, during.dropFirst()) { XCTAssertEqual(b - a, .minutes(15)) }
        let after = s.filter { $0 >= off }
        XCTAssertTrue(after.contains(off + .hours(2)), "\(after)")
        XCTAssertFalse(after.contains { $0 > off + .minutes(60) && $0 < off + .hours(2) }, "deep idle defers: \(after)")
    }

    /// The reason a policy is told, and the agenda slot: in deep idle the
    /// refusal is `doze` and the platform's next event is the window opening.
    func testRefusalAndNextEventInDeepIdle() {
        let android = AndroidPlatform(rules: AndroidWorkRules(), apps: 1)
        let state = DeviceState()
        android.sync(now: .zero, state: state)
        let r = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: .zero, submittedAt: .zero)
        let t = SimTime.zero + .minutes(90)
        android.sync(now: t, state: state)
        XCTAssertEqual(android.refusal(for: r, at: t, state: state), .doze)
        XCTAssertEqual(Refusal.doze.name, "doze")
        XCTAssertEqual(android.nextEventTime, .zero + .hours(2))
        XCTAssertNil(android.refusal(for: r, at: .zero + .hours(2), state: state), "in the window")
        var charging = state
        charging.isCharging = true
        XCTAssertNil(android.refusal(for: r, at: t, state: charging), "plugged in before the sync")
    }
}
