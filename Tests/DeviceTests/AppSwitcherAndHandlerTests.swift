@_spi(BuiltInPolicies) @testable import Device
import Foundation
import SimCore
import TestSupport
import XCTest

/// app behaviours, each in isolation on a tiny world: a
/// force-quit app gets nothing until its next launch, a handler that never
/// completes expires every run, a cancelled request never runs, and the
/// bytes of the runs add up to the work model's per network.
final class AppSwitcherAndHandlerTests: XCTestCase {
    /// Records every observation it is given.
    struct Recorder: SchedulingPolicy {
        var seen: [PolicyObservation] = []
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) { seen.append(o) }
        func decide(context: PolicyContext) -> PolicyDecision { RunEverythingAllowed().decide(context: context) }
    }

    let hour1 = SimTime(day: 0, plus: .hours(1))
    let hour10 = SimTime(day: 0, plus: .hours(10))

    func taskStarts(_ log: EventRecorder, app: Int32 = 0) -> [SimTime] {
        log.events.filter { $0.kind == .task && $0.app == app }.map { $0.start! }
    }

    // MARK: Force-quit

    /// Force-quit at every session end: between a session's end and the
    /// next launch nothing of the app runs, however eagerly the policy asks
    /// (each ask refused as app_force_quit); the other app is untouched;
    /// the next launch clears the flag.
    func testAForceQuitAppGetsNothingUntilItsNextLaunch() {
        var config = DeviceConfiguration(apps: ["news": AppModel(forceQuitProbability: 1)])
        config.defaultApp = AppModel()
        let s = sessions(at: [hour1], app: 0) + sessions(at: [hour10], app: 1)
        let trace = flatTrace(days: 1, apps: ["news", "mail"], sessions: s)
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config,
                                             policy: AsksForEverything(every: .minutes(5)), randomKey: 7)
        XCTAssertEqual(m.forceQuits, 1)
        XCTAssertEqual(log.events.filter { $0.kind == .forceQuit }.map(\.app), [0])
        XCTAssertTrue(taskStarts(log, app: 0).isEmpty, "news was force-quit at its only session end")
        XCTAssertGreaterThan(m.refusalsByReason[Int(Refusal.appForceQuit.rawValue)], 50)
        XCTAssertGreaterThan(taskStarts(log, app: 1).count, 10, "mail, never force-quit, refreshes")
        XCTAssertTrue(log.events.contains { $0.kind == .refused && $0.detail == "app_force_quit" })

        // A second launch of news clears the flag: it refreshes after it again.
        let again = flatTrace(days: 1, apps: ["news", "mail"], sessions: sessions(at: [hour1, hour10], app: 0))
        var quitOnce = config
        quitOnce.apps["news"]!.forceQuitProbability = 0
        let (_, base) = simulateDeviceWithLog(trace: again, configuration: quitOnce, policy: RunEverythingAllowed(), randomKey: 7)
        let (_, quit) = simulateDeviceWithLog(trace: again, configuration: config, policy: RunEverythingAllowed(), randomKey: 7)
        XCTAssertTrue(taskStarts(base, app: 0).contains { $0 > hour1 && $0 < hour10 })
        XCTAssertFalse(taskStarts(quit, app: 0).contains { $0 > hour1 && $0 < hour10 })
        XCTAssertFalse(taskStarts(quit, app: 0).contains { $0 > hour10 }, "force-quit again at the second session end")
    }

    /// The policy is told (`.forceQuit`), and the fast eligibility test agrees with the rule.
    func testForceQuitIsObservedAndTheFastTestAgrees() {
        let config = DeviceConfiguration(apps: [:], defaultApp: AppModel(forceQuitProbability: 1))
        var sim = DeviceSimulator(trace: flatTrace(days: 1, sessions: sessions(at: [hour1])), configuration: config,
                                  policy: Recorder(), randomKey: 3, sink: NoEventLog())
        _ = sim.run()
        XCTAssertTrue(sim.policy.seen.contains(.forceQuit(app: 0)))
        XCTAssertTrue(sim.appIsForceQuit(0))
        XCTAssertFalse(sim.appIsForceQuit(1))

        var state = DeviceState(network: .wifi)
        state.forceQuitApps.insert(63)   // the set's last app index
        for app: Int32 in [0, 62, 63, 64, 70] {
            let r = TaskRequest(id: RequestID(1), app: app, identifier: 0, kind: .appRefresh, earliestBegin: .zero,
                                submittedAt: .zero)
            let ctx = PolicyContext(now: .zero, device: state, pending: [r], appCount: 80)
            XCTAssertEqual(EligibilityTest(ctx).allows(r), ctx.isEligible(r), "app \(app)")
            XCTAssertEqual(ctx.refusal(for: r) == .appForceQuit, app == 63, "app \(app)")
        }
        XCTAssertEqual(state.forceQuitApps.apps, [63])
        state.forceQuitApps.remove(63)
        XCTAssertEqual(state.forceQuitApps, AppSet(), "removing the last app gives the empty set")
    }

    // MARK: Handlers that never complete

    /// Every run is held to the 30 s budget and expires, its energy wasted,
    /// with no fetch result; the content it fetched is kept.
    func testANeverCompletingAppExpiresEveryRun() {
        var app = AppModel(neverCompletesProbability: 1)
        app.refresh = WorkModel(cpuSeconds: 1, bytesUp: 100, bytesDown: 1000, serverLatency: .milliseconds(100),
                                serverLatencySigma: 0, failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        let config = DeviceConfiguration(apps: [:], defaultApp: app)
        var random = TestRandom(seed: 5)
        let updates = [random.poissonTimes(perHour: 1, days: 2)]
        let trace = flatTrace(days: 2, sessions: sessions(at: [hour1, SimTime(day: 1, plus: .hours(9))]), updates: updates,
                              network: [.init(start: .zero, end: SimTime(day: 2), kind: .wifi)])
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 9, sink: EventRecorder())
        let m = sim.run()
        let tasks = sim.sink.events.filter { $0.kind == .task && $0.detail != "censored" }
        XCTAssertGreaterThan(tasks.count, 20)
        XCTAssertTrue(tasks.allSatisfy { $0.outcome == .expired && $0.detail == "never_completed" })
        XCTAssertTrue(tasks.allSatisfy { ($0.end! - $0.start!) == .seconds(30 as Int64) }, "held to the refresh budget")
        XCTAssertEqual(m.runsNeverCompleted, tasks.count)
        XCTAssertEqual(m.tasksExpired, tasks.count)
        XCTAssertEqual(m.wastedEnergyJoules, tasks.reduce(0) { $0 + $1.energy.total }, accuracy: 1e-9)
        let reports = sim.policy.seen.compactMap { o -> TaskReport? in if case .taskFinished(let r) = o { r } else { nil } }
        XCTAssertTrue(reports.allSatisfy { $0.outcome == .expired && $0.fetchResult == nil })
        XCTAssertTrue(tasks.contains { $0.newData == true }, "the work was done: new content came in")
        // Completing, the same runs succeed and last 1.1 s.
        var completes = config
        completes.defaultApp.neverCompletesProbability = 0
        let (c, _) = simulateDeviceWithLog(trace: trace, configuration: completes, policy: Recorder(), randomKey: 9)
        XCTAssertEqual(c.tasksExpired, 0)
        XCTAssertEqual(c.runsNeverCompleted, 0)
    }

    // MARK: Cancelled requests

    /// An app that cancels its requests at every session end never runs
    /// in the background; each cancel is counted, logged and observed.
    func testACancelledRequestNeverRuns() {
        let config = DeviceConfiguration(apps: [:], defaultApp: AppModel(cancelsRequestsProbability: 1))
        let trace = flatTrace(days: 1, sessions: sessions(at: [hour1, hour10]))
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 4, sink: EventRecorder())
        let m = sim.run()
        XCTAssertEqual(m.tasksRun, 0)
        XCTAssertEqual(m.requestsCancelled, 2)
        XCTAssertEqual(sim.sink.events.filter { $0.kind == .cancelled }.count, 2)
        let cancelled = sim.policy.seen.filter { if case .cancelled = $0 { true } else { false } }
        XCTAssertEqual(cancelled.count, 2)
        let (kept, _) = simulateDeviceWithLog(trace: trace, configuration: DeviceConfiguration(apps: [:]),
                                              policy: Recorder(), randomKey: 4)
        XCTAssertGreaterThan(kept.tasksRun, 10, "without cancels the same app refreshes")
    }

    /// Cancelling removes a pending request and its kept plan (a planning
    /// policy stays in step): the scheduler's cancel by index returns it.
    func testSchedulerCancelByIndex() {
        var s = BackgroundTaskScheduler(apps: [.init(identifiers: [("r", .appRefresh), ("p", .processing)])])
        _ = s.submit(app: 0, identifierIndex: 0, earliestBegin: .zero, at: .zero)
        _ = s.submit(app: 0, identifierIndex: 1, earliestBegin: .zero, at: .zero)
        let gone = s.cancel(app: 0, identifierIndex: 1)
        XCTAssertEqual(gone?.index, 1)
        XCTAssertEqual(gone?.request.kind, .processing)
        XCTAssertNil(s.cancel(app: 0, identifierIndex: 1))
        XCTAssertEqual(s.pending.map(\.identifier), [0])
    }

    // MARK: Bytes

    /// Each completed transfer reports its work model's bytes and the
    /// network it used, and the per-network totals are their sums.
    func testBytesAddUpToTheWorkModelsBytesPerNetwork() {
        var app = AppModel(retryDelayAfterFailure: nil)
        app.refresh = WorkModel(cpuSeconds: 0.1, bytesUp: 1_000, bytesDown: 5_000, serverLatency: .milliseconds(50),
                                serverLatencySigma: 0, failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        let config = DeviceConfiguration(apps: [:], defaultApp: app)
        let half = SimTime(day: 0, plus: .hours(12))
        let network: [DeviceTrace.Network] = [.init(start: .zero, end: half, kind: .wifi),
                                              .init(start: half, end: SimTime(day: 1), kind: .cellular)]
        let trace = flatTrace(days: 1, sessions: sessions(at: [hour1]), network: network)
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 2, sink: NoEventLog())
        let m = sim.run()
        let reports = sim.policy.seen.compactMap { o -> TaskReport? in if case .taskFinished(let r) = o { r } else { nil } }
        let wifi = reports.filter { $0.network == .wifi }, cellular = reports.filter { $0.network == .cellular }
        XCTAssertGreaterThan(wifi.count, 5)
        XCTAssertGreaterThan(cellular.count, 5)
        XCTAssertTrue(reports.allSatisfy { $0.bytesUp == 1_000 && $0.bytesDown == 5_000 && $0.bytes == 6_000 })
        XCTAssertEqual(m.backgroundBytesWifi, Double(wifi.count) * 6_000)
        XCTAssertEqual(m.backgroundBytesCellular, Double(cellular.count) * 6_000 + (m.tasksCensored > 0 ? 6_000 : 0))
    }

    /// Offline, or with no network use, a run moves no bytes.
    func testNoTransferNoBytes() {
        let config = DeviceConfiguration(apps: [:], defaultApp: AppModel(refresh: .instant))
        var sim = DeviceSimulator(trace: flatTrace(days: 1, sessions: sessions(at: [hour1])), configuration: config,
                                  policy: Recorder(), randomKey: 2, sink: NoEventLog())
        let m = sim.run()
        XCTAssertGreaterThan(m.tasksRun, 5)
        XCTAssertEqual(m.backgroundBytesWifi + m.backgroundBytesCellular, 0)
        let reports = sim.policy.seen.compactMap { o -> TaskReport? in if case .taskFinished(let r) = o { r } else { nil } }
        XCTAssertTrue(reports.allSatisfy { $0.network == .offline && $0.bytes == 0 })
    }
}

extension TestRandom {
    /// Poisson times over `days` days.
    mutating func poissonTimes(perHour: Double, days: Int) -> [SimTime] {
        poisson(perHour: perHour, horizon: SimTime(day: days))
    }
}
