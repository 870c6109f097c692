@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// Android's WorkManager / JobScheduler rules (Docs/AndroidPlatform.md):
/// the closed forms alone, then each rule in a run.
final class AndroidPlatformTests: XCTestCase {
    let timing = WorkRequestTiming(rules: AndroidWorkRules())

    func testPeriodicIntervalAndFlexAreClampedToTheirMinimums() {
        XCTAssertEqual(timing.interval(requested: .minutes(5)), .minutes(15))
        XCTAssertEqual(timing.interval(requested: .hours(2)), .hours(2))
        // No flex given: the whole interval, so the first period may run at once.
        XCTAssertEqual(timing.flex(interval: .hours(1)), .hours(1))
        XCTAssertEqual(timing.firstRun(enqueuedAt: .zero + .minutes(3), interval: .hours(1)), .zero + .minutes(3))
        var rules = AndroidWorkRules()
        rules.periodicFlex = .minutes(2)
        let t = WorkRequestTiming(rules: rules)
        XCTAssertEqual(t.flex(interval: .hours(1)), .minutes(5), "flex raised to 5 min")
        XCTAssertEqual(t.firstRun(enqueuedAt: .zero, interval: .hours(1)), .zero + .minutes(55))
        rules.periodicFlex = .hours(3)
        XCTAssertEqual(WorkRequestTiming(rules: rules).flex(interval: .hours(1)), .hours(1), "flex at most the interval")
        XCTAssertEqual(timing.nextRun(lastRunAt: .zero + .hours(1), interval: .minutes(15)), .zero + .minutes(75))
    }

    func testBackoffIsLinearOrExponentialFromThirtySecondsCappedAtFiveHours() {
        XCTAssertEqual((1...6).map { timing.backoff(attempt: $0).seconds }, [30, 60, 120, 240, 480, 960])
        XCTAssertEqual(timing.backoff(attempt: 20), .hours(5))
        XCTAssertEqual(timing.backoff(attempt: 10_000), .hours(5), "no overflow far past the cap")
        var rules = AndroidWorkRules()
        rules.backoffPolicy = .linear
        XCTAssertEqual((1...3).map { WorkRequestTiming(rules: rules).backoff(attempt: $0).seconds }, [30, 60, 90])
        XCTAssertEqual(WorkRequestTiming(rules: rules).backoff(attempt: 1_000).seconds, 18_000)
        rules.backoffDelay = .seconds(2 as Int64)
        XCTAssertEqual(WorkRequestTiming(rules: rules).backoff(attempt: 1).seconds, 10, "the 10 s floor")
    }

    // MARK: - In a run

    /// One app, one short session at 1 min, Wi-Fi throughout, no failures,
    /// no drain; `configure` changes the app and the platform. Plugged in
    /// throughout unless `unplugged`, so that Doze (which only a quiet,
    /// unplugged device enters) leaves the WorkManager rules alone.
    func run(_ platform: DevicePlatform, days: Int = 1, sessionsAt: [SimTime] = [.zero + .minutes(1)],
             unplugged: Bool = false, policy: any SchedulingPolicy = RunEverythingAllowed(),
             _ configure: (inout DeviceConfiguration) -> Void = { _ in }) -> (UserMetrics, [DeviceEvent]) {
        var config = DeviceConfiguration()
        config.platform = platform
        config.defaultApp.refresh.failureProbabilityWifi = 0
        config.defaultApp.refresh.failureProbabilityCellular = 0
        config.defaultApp.forgetProbability = 0
        configure(&config)
        let trace = flatTrace(days: days, sessions: sessions(at: sessionsAt),
                              network: [.init(start: .zero, end: SimTime(day: 30), kind: .wifi)],
                              charging: unplugged ? [] : [.init(start: .zero, end: SimTime(day: days))])
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: policy, randomKey: 11)
        return (m, log.events)
    }

    func starts(_ events: [DeviceEvent], _ kind: TaskKind) -> [SimTime] {
        events.filter { $0.kind == .task && $0.taskKind == kind }.compactMap(\.start)
    }

    /// Periodic work asked for every 5 min runs every 15 min (the minimum
    /// interval), the first period at once (no flex): at most once per interval.
    func testPeriodicRefreshRunsOncePerMinimumInterval() {
        let (_, events) = run(.android) { $0.defaultApp.refreshEarliestBeginDelay = .minutes(5) }
        let s = starts(events, .appRefresh)
        XCTAssertGreaterThan(s.count, 80)
        let sessionEnd = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        XCTAssertEqual(s.first, sessionEnd)
        for (a, b) in zip(s, s.dropFirst()) { XCTAssertEqual(b - a, .minutes(15)) }
        // iOS runs the same app every 5 min.
        let (_, ios) = run(.ios) { $0.defaultApp.refreshEarliestBeginDelay = .minutes(5) }
        XCTAssertEqual(starts(ios, .appRefresh).dropFirst(2).first.map { $0 - starts(ios, .appRefresh)[1] }, .minutes(5))
    }

    /// With a flex window the first period starts at interval − flex after
    /// the enqueue; later periods an interval after the last run.
    func testFlexDelaysTheFirstPeriodOnly() {
        let (_, events) = run(.android) {
            $0.defaultApp.refreshEarliestBeginDelay = .hours(1)
            $0.android.periodicFlex = .minutes(10)
        }
        let s = starts(events, .appRefresh)
        let sessionEnd = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        XCTAssertEqual(s.first, sessionEnd + .minutes(50))
        XCTAssertEqual(s.count, 24, "51 min 10 s, then hourly to the end of the day")
        for (a, b) in zip(s, s.dropFirst()) { XCTAssertEqual(b - a, .hours(1)) }
    }

    /// A session end while the periodic work is pending keeps it (KEEP):
    /// on iOS the same session end replaces the request and moves it later.
    func testASessionEndKeepsThePendingPeriodicWork() {
        let at: [SimTime] = [.zero + .minutes(1), .zero + .minutes(20), .zero + .minutes(40)]
        struct RunsNothing: SchedulingPolicy {
            func decide(context: PolicyContext) -> PolicyDecision { PolicyDecision() }
        }
        let (_, android) = run(.android, sessionsAt: at, policy: RunsNothing()) {
            $0.defaultApp.refreshEarliestBeginDelay = .hours(1)
            $0.android.periodicFlex = .minutes(5)
        }
        // Enqueued at the first session end; the later two are kept out.
        XCTAssertEqual(android.filter { $0.kind == .submitted }.count, 1)
        let (_, ios) = run(.ios, sessionsAt: at, policy: RunsNothing()) {
            $0.defaultApp.refreshEarliestBeginDelay = .hours(1)
        }
        XCTAssertEqual(ios.filter { $0.kind == .submitted }.count, 3)
    }

    /// A refresh that always fails is retried after 30 s, 60 s, 120 s …
    /// (exponential backoff, from the end of the failed run).
    func testFailedRefreshBacksOffExponentially() {
        let (_, events) = run(.android) {
            $0.defaultApp.refresh.failureProbabilityWifi = 1
            $0.defaultApp.refreshEarliestBeginDelay = .hours(6)
        }
        let tasks = events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
        XCTAssertGreaterThan(tasks.count, 8)
        for k in 0..<8 {
            XCTAssertEqual(tasks[k].outcome, .failed)
            XCTAssertEqual(tasks[k + 1].start! - tasks[k].end!, timing.backoff(attempt: k + 1), "retry \(k + 1)")
        }
    }

    /// Processing work waits for the "device idle" constraint: 31 min of
    /// screen off (iOS runs it as soon as the screen is off), and every
    /// kind of work gets the 10-minute execution limit as its budget.
    func testProcessingWaitsForDeviceIdleAndRunsUnderTheExecutionLimit() {
        func configure(_ c: inout DeviceConfiguration) {
            c.defaultApp.processingInterval = .hours(24)
            c.defaultApp.processingRequiresExternalPower = false
            c.defaultApp.processing.cpuSeconds = 400
        }
        let sessionEnd = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        let (_, android) = run(.android, configure)
        let a = android.filter { $0.kind == .task && $0.taskKind == .processing }
        XCTAssertEqual(a.first?.start, sessionEnd + .minutes(31))
        XCTAssertEqual(a.first?.outcome, .success, "400 s of CPU fits in 10 min")
        let (_, ios) = run(.ios, configure)
        let i = ios.filter { $0.kind == .task && $0.taskKind == .processing }
        XCTAssertEqual(i.first?.start, sessionEnd)
        XCTAssertEqual(i.first?.outcome, .expired, "400 s is past iOS's 5-minute processing budget")
    }

    /// Battery not low: under 15 % and unplugged no refresh runs on Android
    /// (iOS's line is 20 %: at 17 % iOS refuses and Android runs).
    func testBatteryNotLowConstraintAtFifteenPercent() {
        func at(_ level: Double, _ p: DevicePlatform) -> Int {
            var config = DeviceConfiguration()
            config.platform = p
            let trace = flatTrace(days: 1, sessions: sessions(at: [.zero + .minutes(1)]),
                                  network: [.init(start: .zero, end: SimTime(day: 30), kind: .wifi)], battery: level)
            return simulateDevice(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 3).tasksRun
        }
        XCTAssertGreaterThan(at(17, .android), 0)
        XCTAssertEqual(at(14, .android), 0)
        XCTAssertEqual(at(17, .ios), 0)
    }

    /// The policy's context answers with Android's rules on Android.
    func testTheContextAsksTheDevicesPlatform() {
        // Doze off: this is about the device-idle and battery rules alone
        // (Doze has its own tests, AndroidPlatformDozeTests).
        var rules = AndroidWorkRules()
        rules.dozeTimings.deepEnabled = false
        rules.dozeTimings.lightEnabled = false
        let android = AndroidPlatform(rules: rules, apps: 1)
        var state = DeviceState()
        state.batteryPercent = 17
        android.sync(now: .zero, state: state)
        let r = TaskRequest(id: RequestID(1), app: 0, identifier: 1, kind: .processing, earliestBegin: .zero, submittedAt: .zero)
        var ctx = PolicyContext(now: .zero + .minutes(30), device: state)
        XCTAssertNil(ctx.refusal(for: r), "iOS: processing with the screen off")
        ctx.android = android
        XCTAssertEqual(ctx.refusal(for: r), .deviceNotIdle)
        ctx.now = .zero + .minutes(31)
        XCTAssertNil(ctx.refusal(for: r))
        let refresh = TaskRequest(id: RequestID(2), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: .zero, submittedAt: .zero)
        XCTAssertNil(ctx.refusal(for: refresh), "17 % is not low on Android")
    }

    /// `device.platform` is declared: read, echoed, and refused by name.
    func testPlatformIsADeclaredDeviceParameter() throws {
        let c = try JSONDecoder().decode(DeviceConfiguration.self, from: Data(#"{"platform": "android", "android": {"backoffPolicy": "linear"}}"#.utf8))
        XCTAssertEqual(c.platform, .android)
        XCTAssertEqual(c.android.backoffPolicy, .linear)
        let echo = String(decoding: try JSONEncoder().encode(DeviceConfiguration()), as: UTF8.self)
        XCTAssertTrue(echo.contains(#""platform":"ios""#), echo)
        XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self, from: Data(#"{"platform": "symbian"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self,
                                                      from: Data(#"{"android": {"executionLimit": "0s"}}"#.utf8)))
    }
}
