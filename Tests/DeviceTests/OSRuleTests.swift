import Device
import SimCore
import XCTest

/// Every OS rule: a deliberately misbehaving policy asks to break it and is refused.
final class OSRuleTests: XCTestCase {
    func refusals(_ m: UserMetrics, _ r: Refusal) -> Int { m.refusalsByReason[Int(r.rawValue)] }

    func taskRows(_ log: EventRecorder) -> [DeviceEvent] { log.events.filter { $0.kind == .task } }

    /// Rule 1: never before earliestBeginDate.
    func testNeverStartsBeforeEarliestBegin() {
        let trace = flatTrace(days: 1, sessions: sessions(at: (0..<20).map { SimTime(day: 0, plus: .hours(Int64($0))) }))
        let (m, log) = simulateDeviceWithLog(trace: trace, policy: AsksForEverything(), randomKey: 1)
        XCTAssertGreaterThan(refusals(m, .beforeEarliestBegin), 0)
        XCTAssertGreaterThan(m.tasksRun, 0)
        for t in taskRows(log) { XCTAssertGreaterThanOrEqual(t.start!, t.earliestBegin!) }
    }

    /// Asking for a request that is not pending is refused.
    func testUnknownRequestIsRefused() {
        var p = AsksForEverything()
        p.askUnknown = true
        let m = simulateDevice(trace: flatTrace(days: 1), policy: p, randomKey: 1)
        XCTAssertGreaterThan(refusals(m, .notPending), 0)
        XCTAssertEqual(m.tasksRun, 0)
    }

    /// Rule 3: processing only with the screen off, and expired when a session starts.
    func testProcessingRefusedWithScreenOnAndExpiredBySession() {
        var config = DeviceConfiguration()
        config.defaultApp = AppModel(processingInterval: .hours(1), processingRequiresExternalPower: false,
                                     processingRequiresNetwork: false)
        config.defaultApp.processing = WorkModel(cpuSeconds: 240, bytesUp: 0, bytesDown: 0, usesNetwork: false)
        // Long sessions with short gaps: the policy asks during sessions (refused) and
        // processing started in a gap is cut by the next session.
        let starts = (0..<40).map { SimTime(day: 0, plus: .minutes(Int64($0) * 12)) }
        let trace = flatTrace(days: 1, sessions: sessions(at: starts, length: .minutes(10)))
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: AsksForEverything(), randomKey: 1)
        // A policy that asks for pending work only while the screen is on.
        struct AsksWhileScreenOn: SchedulingPolicy {
            func decide(context: PolicyContext) -> PolicyDecision {
                PolicyDecision(run: context.device.isScreenOn ? context.pending.map(\.id) : [],
                               wakeAt: context.now + .minutes(1))
            }
        }
        let (m2, log2) = simulateDeviceWithLog(trace: trace, configuration: config, policy: AsksWhileScreenOn(), randomKey: 1)
        XCTAssertGreaterThan(refusals(m2, .screenOn), 0)
        XCTAssertFalse(log2.events.contains { $0.kind == .task && $0.taskKind == .processing })
        for t in taskRows(log) where t.taskKind == .processing {
            XCTAssertFalse(t.device.isScreenOn && t.start == t.end && t.outcome == .success)
        }
        XCTAssertGreaterThan(log.events.filter { $0.kind == .task && $0.taskKind == .processing && $0.outcome == .expired }.count, 0)
        XCTAssertGreaterThan(m.wastedEnergyJoules, 0)
    }

    /// An app's background task never starts while that app is in the
    /// foreground (iOS does not launch it in the background then); other
    /// apps' tasks still run during the session.
    func testNoBackgroundTaskOfTheForegroundApp() {
        let h = SimTime(day: 0, plus: .hours(1))
        let sessions: [DeviceTrace.Session] = [
            .init(start: h, end: h + .seconds(10 as Int64), app: 0),
            .init(start: h + .minutes(1), end: h + .minutes(1) + .seconds(10 as Int64), app: 1),
            .init(start: h + .minutes(20), end: h + .minutes(80), app: 0),
        ]
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: sessions)
        let (m, log) = simulateDeviceWithLog(trace: trace, policy: AsksForEverything(), randomKey: 1)
        XCTAssertGreaterThan(refusals(m, .appInForeground), 0)
        let long = sessions[2]
        let inside = taskRows(log).filter { $0.start! >= long.start && $0.start! < long.end }
        XCTAssertFalse(inside.contains { $0.app == 0 }, "app a ran in the background while in the foreground")
        XCTAssertTrue(inside.contains { $0.app == 1 }, "other apps still run")
        XCTAssertTrue(log.events.filter { $0.kind == .refused && $0.detail == "app_in_foreground" }.allSatisfy {
            $0.time >= long.start && $0.time < long.end
        })
    }

    /// Rule 3: requiresExternalPower only while charging.
    func testExternalPowerRequired() {
        var config = DeviceConfiguration()
        config.defaultApp = AppModel(processingInterval: .hours(1), processingRequiresExternalPower: true,
                                     processingRequiresNetwork: false)
        let trace = flatTrace(days: 1, sessions: sessions(at: [SimTime(day: 0, plus: .hours(1))]),
                              charging: [.init(start: SimTime(day: 0, plus: .hours(5)), end: SimTime(day: 0, plus: .hours(6)))])
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: AsksForEverything(), randomKey: 1)
        XCTAssertGreaterThan(refusals(m, .needsExternalPower), 0)
        let processing = taskRows(log).filter { $0.taskKind == .processing }
        XCTAssertEqual(processing.count, 1)
        XCTAssertTrue(processing.allSatisfy { $0.start! >= SimTime(day: 0, plus: .hours(5)) })
    }

    /// Rule 3: requiresNetworkConnectivity only while online.
    func testNetworkRequired() {
        let offlineUntil = SimTime(day: 0, plus: .hours(3))
        let trace = flatTrace(days: 1, sessions: sessions(at: [SimTime(day: 0, plus: .hours(1))]),
                              network: [.init(start: offlineUntil, end: SimTime(day: 1), kind: .wifi)])
        let (m, log) = simulateDeviceWithLog(trace: trace, policy: AsksForEverything(), randomKey: 1)
        XCTAssertGreaterThan(refusals(m, .needsNetwork), 0)
        XCTAssertTrue(taskRows(log).allSatisfy { $0.start! >= offlineUntil })
        XCTAssertGreaterThan(m.tasksRun, 0)
    }

    /// Rule 4: no app refresh in Low Power Mode, nor under 20 %.
    func testLowPowerModeAndLowBattery() {
        for accepts in [true, false] {
            // 25 % and a 1 W idle drain on 12.4 Wh: 20 % is reached after ~37 min.
            var trace = DeviceTrace(horizon: SimTime(day: 1), appNames: ["news"],
                                    sessions: sessions(at: (0..<24).map { SimTime(day: 0, plus: .hours(Int64($0))) }),
                                    lowPowerAccepted: [[accepts, accepts]], screenOnDrainWatts: 1,
                                    idleDrainWatts: 1, initialBatteryPercent: 25)
            trace.chargingWatts = 0
            let (m, log) = simulateDeviceWithLog(trace: trace, policy: AsksForEverything(), randomKey: 1)
            XCTAssertGreaterThan(refusals(m, accepts ? .lowPowerMode : .lowBattery), 0, "accepts=\(accepts)")
            for t in taskRows(log) {
                XCTAssertFalse(t.device.isLowPowerMode)
                XCTAssertGreaterThanOrEqual(t.device.batteryPercent, 19.99)
            }
            XCTAssertEqual(m.lowPowerModeHours > 0, accepts)
        }
    }

    /// Rule 3 / 5: a refresh that outlives its 30 s budget is expired, its energy wasted.
    func testRefreshBudgetExpires() {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 45, failureProbabilityWifi: 0)
        let trace = flatTrace(days: 1, sessions: sessions(at: [SimTime(day: 0, plus: .hours(1))]))
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        XCTAssertGreaterThan(m.tasksExpired, 0)
        XCTAssertEqual(m.tasksSucceeded, 0)
        for t in taskRows(log) { XCTAssertEqual((t.end! - t.start!).seconds, 30, accuracy: 1e-6) }
        XCTAssertGreaterThan(m.wastedEnergyJoules, 0)
    }

    /// Rule 6: an app that forgets to resubmit breaks its chain until its next launch.
    func testForgettingBreaksTheChain() {
        var config = DeviceConfiguration()
        config.defaultApp.forgetProbability = 1
        let trace = flatTrace(days: 2, sessions: sessions(at: [SimTime(day: 0, plus: .hours(1)), SimTime(day: 1, plus: .hours(1))]))
        let m = simulateDevice(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        XCTAssertEqual(m.tasksRun, 2, "one run per launch, then the chain is broken")
        XCTAssertEqual(m.chainBreaks, 2)
        config.defaultApp.forgetProbability = 0
        let m2 = simulateDevice(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        XCTAssertGreaterThan(m2.tasksRun, 100, "an unbroken chain runs every 15 min")
    }

    /// Rule 8: legacy fetch results are reported, honestly or not.
    func testLegacyFetchResultsReported() {
        struct Recorder: SchedulingPolicy {
            var results: [FetchResult] = []
            mutating func observe(_ o: PolicyObservation, context: PolicyContext) {
                if case .taskFinished(let r) = o, let f = r.fetchResult { results.append(f) }
            }
            func decide(context: PolicyContext) -> PolicyDecision { RunEverythingAllowed().decide(context: context) }
        }
        for honest in [true, false] {
            var config = DeviceConfiguration()
            config.defaultApp = AppModel(usesLegacyFetch: true, minimumFetchInterval: .hours(1), reportsHonestly: honest)
            let trace = flatTrace(days: 1, updates: [[SimTime(day: 0, plus: .minutes(90))]])
            var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 3, sink: NoEventLog())
            let m = sim.run()
            XCTAssertEqual(m.tasksRun, 23)
            let r = sim.policy.results
            XCTAssertEqual(r.filter { $0 == .newData }.count, honest ? 1 : r.count - r.filter { $0 == .failed }.count)
            if honest { XCTAssertGreaterThan(r.filter { $0 == .noData }.count, 15) }
        }
    }
}

/// Rule 2: the submission rules of BGTaskScheduler.
final class SubmissionRuleTests: XCTestCase {
    func scheduler(bar: Bool = true) -> BackgroundTaskScheduler {
        var ids: [(name: String, kind: TaskKind)] = [("a.refresh", .appRefresh), ("a.refresh2", .appRefresh)]
        for i in 0..<11 { ids.append(("a.p\(i)", .processing)) }
        return BackgroundTaskScheduler(apps: [.init(identifiers: ids, backgroundAppRefreshEnabled: bar)])
    }

    func testRules() throws {
        var s = scheduler()
        let t = SimTime.zero
        XCTAssertEqual(s.submit(app: 0, identifier: "nope", earliestBegin: t, at: t).failure, .notPermitted)
        let first = try s.submit(app: 0, identifier: "a.refresh", earliestBegin: t, at: t).get()
        let second = try s.submit(app: 0, identifier: "a.refresh", earliestBegin: t + .minutes(5), at: t).get()
        XCTAssertEqual(s.pending.count, 1, "resubmitting an identifier replaces it")
        XCTAssertEqual(s.pending[0].id, second.id)
        XCTAssertNotEqual(first.id, second.id)
        XCTAssertEqual(s.submit(app: 0, identifier: "a.refresh2", earliestBegin: t, at: t).failure, .tooManyPendingTaskRequests)
        for i in 0..<10 { XCTAssertNotNil(try? s.submit(app: 0, identifier: "a.p\(i)", earliestBegin: t, at: t).get()) }
        XCTAssertEqual(s.submit(app: 0, identifier: "a.p10", earliestBegin: t, at: t).failure, .tooManyPendingTaskRequests)
        XCTAssertEqual(s.pendingRequests(app: 0).count, 11)
        s.cancel(app: 0, identifier: "a.p0")
        XCTAssertEqual(s.pendingRequests(app: 0).count, 10)
        XCTAssertNotNil(try? s.submit(app: 0, identifier: "a.p10", earliestBegin: t, at: t).get())
        s.cancelAll(app: 0)
        XCTAssertTrue(s.pending.isEmpty)
        var off = scheduler(bar: false)
        XCTAssertEqual(off.submit(app: 0, identifier: "a.refresh", earliestBegin: t, at: t).failure, .unavailable)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}
