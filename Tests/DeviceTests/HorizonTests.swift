import Device
import SimCore
import XCTest

/// The end of the run: a task still running at the horizon is censored
/// (neither succeeded nor expired, its energy not wasted), and nothing is
/// started or decided at the horizon.
final class HorizonTests: XCTestCase {
    func testTaskRunningAtHorizonIsCensored() {
        struct Clock: SchedulingPolicy {
            var calls: [SimTime] = []
            mutating func decide(context: PolicyContext) -> PolicyDecision {
                calls.append(context.now)
                return RunEverythingAllowed().decide(context: context)
            }
        }
        var config = DeviceConfiguration()
        // One fetch, at 10 s before the end of the day, that computes for 20 s.
        config.defaultApp = AppModel(refresh: WorkModel(cpuSeconds: 20, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                                        failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                                                        usesNetwork: false),
                                     usesLegacyFetch: true, minimumFetchInterval: .seconds(86_390 as Int64))
        let trace = flatTrace(days: 1)
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Clock(), randomKey: 1, sink: EventRecorder())
        let m = sim.run()
        XCTAssertEqual(m.tasksRun, 1)
        XCTAssertEqual(m.tasksCensored, 1)
        XCTAssertEqual(m.tasksExpired, 0)
        XCTAssertEqual(m.tasksSucceeded + m.tasksFailed, 0)
        XCTAssertEqual(m.wastedEnergyJoules, 0)
        XCTAssertEqual(m.energy.cpu, 10 * config.energy.cpuWatts, accuracy: 1e-9)
        XCTAssertTrue(sim.policy.calls.allSatisfy { $0 < trace.horizon }, "no decision at the horizon")
        let rows = sim.sink.events.filter { $0.kind == .task }
        XCTAssertEqual(rows.count, 1)
        XCTAssertNil(rows.first?.outcome)
        XCTAssertEqual(rows.first?.detail, "censored")
        XCTAssertEqual(UserMetrics.columns.first { $0.name == "tasks_censored" }?.value(m), 1)
    }
}
