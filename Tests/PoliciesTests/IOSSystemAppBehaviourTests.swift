@testable import Device
import Foundation
@testable import Policies
import SimCore
import XCTest

/// ios-system against app behaviours, in simulations of one
/// app: a force-quit app gets nothing until its next launch, and a
/// never-completing app expires every run and loses opportunities.
final class IOSSystemAppBehaviourTests: XCTestCase {
    /// Sessions of the one app at 08:00 and 20:00 for `days` days, on Wi-Fi, with updates every 30 min.
    func world(days: Int) -> DeviceTrace {
        var starts: [SimTime] = []
        for d in 0..<days { starts += [SimTime(day: d, plus: .hours(8)), SimTime(day: d, plus: .hours(20))] }
        let s = starts.map { DeviceTrace.Session(start: $0, end: $0 + .minutes(2), app: 0) }
        let updates = [stride(from: 0, to: days * 48, by: 1).map { SimTime(microseconds: Int64($0) * 1_800_000_000) }]
        return DeviceTrace(horizon: SimTime(day: days), appNames: ["news"], sessions: s,
                           network: [.init(start: .zero, end: SimTime(day: days), kind: .wifi)],
                           contentUpdates: updates, screenOnDrainWatts: 0, idleDrainWatts: 0)
    }

    func simulate(_ app: AppModel, days: Int = 6) -> (UserMetrics, IOSSystemPolicy, EventRecorder) {
        let config = DeviceConfiguration(apps: [:], defaultApp: app)
        var sim = DeviceSimulator(trace: world(days: days), configuration: config, policy: IOSSystemPolicy(),
                                  randomKey: 11, sink: EventRecorder())
        let m = sim.run()
        return (m, sim.policy, sim.sink)
    }

    /// Force-quit at every session end: ios-system runs nothing for the app
    /// (it is force-quit whenever it is in the background) and does not
    /// even ask (no app_force_quit refusal); force-quit at none, it refreshes.
    func testAForceQuitAppGetsNothingUntilItsNextLaunch() {
        let (quit, _, log) = simulate(AppModel(forceQuitProbability: 1))
        XCTAssertEqual(quit.forceQuits, 12)
        XCTAssertEqual(quit.tasksRun, 0)
        XCTAssertEqual(quit.refusalsByReason[Int(Refusal.appForceQuit.rawValue)], 0, "ios-system does not ask")
        XCTAssertEqual(log.events.filter { $0.kind == .forceQuit }.count, 12)
        let (kept, _, _) = simulate(AppModel())
        XCTAssertGreaterThan(kept.tasksRun, 10)
        XCTAssertLessThan(kept.meanAgeSeconds, quit.meanAgeSeconds, "its refreshes make launches fresher")
    }

    /// Force-quit at half the session ends: no task of the app starts
    /// while it is force-quit (between such a session end and the next launch).
    func testNoRunWhileForceQuit() {
        let (m, _, log) = simulate(AppModel(forceQuitProbability: 0.5), days: 10)
        XCTAssertGreaterThan(m.forceQuits, 3)
        XCTAssertLessThan(m.forceQuits, 17)
        var quitSince: SimTime? = nil
        for e in log.events {
            switch e.kind {
            case .forceQuit: quitSince = e.time
            case .launch: quitSince = nil
            case .task: XCTAssertNil(quitSince, "a task at \(e.time) while force-quit since \(quitSince.map { "\($0)" } ?? "")")
            default: break
            }
        }
        XCTAssertGreaterThan(m.tasksRun, 0)
    }

    /// A handler that never completes: every run expires after the full
    /// budget, ios-system's rate for the app falls (expiration penalty) and
    /// it gets fewer runs than a completing app, for more wasted energy.
    func testANeverCompletingAppExpiresEveryRunAndItsRateFalls() {
        let (never, p, _) = simulate(AppModel(neverCompletesProbability: 1))
        let (completes, q, _) = simulate(AppModel())
        XCTAssertGreaterThan(never.tasksRun, 0)
        XCTAssertEqual(never.tasksExpired, never.tasksRun - never.tasksCensored)
        XCTAssertEqual(never.runsNeverCompleted, never.tasksExpired)
        XCTAssertLessThan(p.rate.rate(app: 0), 0.5)
        XCTAssertEqual(p.rate.penalties[0], never.tasksExpired)
        XCTAssertGreaterThan(q.rate.rate(app: 0), p.rate.rate(app: 0))
        XCTAssertLessThan(never.tasksRun, completes.tasksRun)
        XCTAssertGreaterThan(never.wastedEnergyJoules, completes.wastedEnergyJoules)
    }
}
