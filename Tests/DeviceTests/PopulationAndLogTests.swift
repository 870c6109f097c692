import Device
import SimCore
import Traces
import XCTest

/// Metrics equal under NaN-aware comparison (NaN ratios are "undefined").
func sameMetrics(_ a: UserMetrics, _ b: UserMetrics) -> Bool {
    UserMetrics.columns.allSatisfy { c in
        let x = c.value(a), y = c.value(b)
        return x == y || (x.isNaN && y.isNaN)
    }
}

final class PopulationAndLogTests: XCTestCase {
    static let generator = PopulationGenerator(parameters: .default, seed: 42, days: 3)

    func deviceTrace(_ i: Int) -> DeviceTrace {
        DeviceTrace(Self.generator.user(i), apps: Self.generator.parameters.apps)
    }

    /// A user simulated alone and inside a population gives identical results.
    func testUserAloneEqualsUserInPopulation() {
        let population = (0..<6).map { simulateDevice(trace: deviceTrace($0), policy: RunEverythingAllowed(), randomKey: UInt64($0) &* 7919) }
        let alone = simulateDevice(trace: deviceTrace(4), policy: RunEverythingAllowed(), randomKey: 4 &* 7919)
        XCTAssertTrue(sameMetrics(alone, population[4]))
        XCTAssertGreaterThan(alone.launches, 0)
        XCTAssertGreaterThan(alone.tasksRun, 0)
        // And the event log does not change the result.
        let (logged, _) = simulateDeviceWithLog(trace: deviceTrace(4), policy: RunEverythingAllowed(), randomKey: 4 &* 7919)
        XCTAssertTrue(sameMetrics(alone, logged))
    }

    /// The event log holds enough to recompute the per-user metrics.
    func testMetricsRecomputedFromEventLog() {
        var config = DeviceConfiguration()
        config.defaultApp.forgetProbability = 0.2
        let (m, log) = simulateDeviceWithLog(trace: deviceTrace(1), configuration: config,
                                             policy: RunEverythingAllowed(), randomKey: 99)
        let ev = log.events
        let launches = ev.filter { $0.kind == .launch }
        let tasks = ev.filter { $0.kind == .task }
        XCTAssertEqual(launches.count, m.launches)
        XCTAssertEqual(launches.filter { $0.fresh == true }.count, m.freshLaunches)
        let meanAge = launches.map { $0.ageSeconds! }.reduce(0, +) / Double(launches.count)
        XCTAssertEqual(meanAge, m.meanAgeSeconds, accuracy: 1e-6)
        XCTAssertEqual(tasks.count, m.tasksRun)
        XCTAssertEqual(tasks.filter { $0.outcome == .expired }.count, m.tasksExpired)
        XCTAssertEqual(tasks.filter { $0.outcome == .failed }.count, m.tasksFailed)
        XCTAssertEqual(ev.filter { $0.kind == .wake }.count, m.backgroundWakes)
        XCTAssertEqual(ev.filter { $0.kind == .refused }.count, m.tasksRefused)
        XCTAssertEqual(ev.filter { $0.kind == .chainBreak }.count, m.chainBreaks)
        let energy = ev.map { $0.energy.total }.reduce(0, +)
        XCTAssertEqual(energy, m.energy.total, accuracy: 1e-6)
        let wasted = tasks.filter { $0.outcome != .success }.map { $0.energy.total }.reduce(0, +)
        XCTAssertEqual(wasted, m.wastedEnergyJoules, accuracy: 1e-6)
        let delay = tasks.map { ($0.start! - $0.earliestBegin!).seconds }.reduce(0, +) / Double(tasks.count)
        XCTAssertEqual(delay, m.meanDelayPastEarliestBeginSeconds, accuracy: 1e-6)
        // Wasted refreshes: successful refreshes with nothing new, or replaced before a launch.
        var unconsumed = Set<Int32>(), wastedRefreshes = 0
        for e in ev {
            if e.kind == .launch { unconsumed.remove(e.app) }
            if e.kind == .task, e.outcome == .success, e.taskKind != .processing {
                if e.newData != true || unconsumed.contains(e.app) { wastedRefreshes += 1 }
                if e.newData == true { unconsumed.insert(e.app) }
            }
        }
        XCTAssertEqual(wastedRefreshes, m.wastedRefreshes)
        XCTAssertGreaterThan(m.chainBreaks, 0)
        XCTAssertTrue(log.csv.hasPrefix(DeviceEvent.csvHeader))
    }
}
