@testable import Device
@testable import Policies
import Foundation
import SimCore
import TestSupport
import XCTest

/// Dead zones (connected, nothing gets through) on tiny worlds —
/// one app on Wi-Fi, no drawn failures, no server latency: every failure
/// is a dead zone's — and the oracles' foresight of outages and dead zones.
final class DeadZoneTests: XCTestCase {
    private func world(zones: DeadZoneModel, bytesDown: Double = 1000, every delay: SimDuration = .minutes(30),
                       days: Int = 6) -> (DeviceTrace, DeviceConfiguration) {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: bytesDown, serverLatency: .zero,
                                              failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        config.defaultApp.refreshEarliestBeginDelay = delay
        config.deadZones = zones
        let t = trace(days: days, apps: ["news"], sessions: makeSessions([(at(day: 0, 0.1), 0)]), updates: [[]])
        return (t, config)
    }

    private func refreshes(_ log: EventRecorder) -> [DeviceEvent] {
        log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
    }

    /// The dead zones as logged (start, end) pairs.
    private func zones(_ log: EventRecorder) -> [(SimTime, SimTime)] {
        let starts = log.events.filter { $0.kind == .deadZoneStart }.map(\.time)
        let ends = log.events.filter { $0.kind == .deadZoneEnd }.map(\.time)
        return zip(starts, ends).map { ($0, $1) }
    }

    private func inZone(_ t: SimTime, _ zones: [(SimTime, SimTime)]) -> Bool {
        zones.contains { $0.0 <= t && t < $0.1 }
    }

    /// A run that starts in a dead zone fails after the request timeout
    /// (promotion, then the radio active for the timeout; no bytes); one
    /// outside succeeds.
    func testRunInADeadZoneFailsAfterTheTimeoutAndOneOutsideSucceeds() {
        let model = with(DeadZoneModel()) { $0.perDay = 4; $0.medianDuration = .minutes(30); $0.durationSigma = 0; $0.requestTimeout = .seconds(10 as Int64) }
        let (t, config) = world(zones: model)
        let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 11)
        let z = zones(log)
        XCTAssertGreaterThan(z.count, 10)
        for (s, e) in z { XCTAssertEqual((e - s).seconds, 1800, accuracy: 1e-6) }
        let wifi = EnergyParameters.default.wifi
        var inside = 0, outside = 0
        for r in refreshes(log) {
            let start = r.start!
            if inZone(start, z) {
                inside += 1
                XCTAssertEqual(r.outcome, .failed)
                XCTAssertEqual(r.detail, "dead_zone")
                // Active for the timeout after any promotion, then it fails.
                let promoted = r.energy.promotion > 0
                XCTAssertEqual((r.end! - start).seconds, 10 + (promoted ? wifi.promotionSeconds : 0), accuracy: 2e-6)
                XCTAssertEqual(r.energy.active, wifi.betaWatts * 10, accuracy: 1e-6)
                if promoted { XCTAssertEqual(r.energy.promotion, wifi.promotionJoules, accuracy: 1e-9) }
                XCTAssertEqual(r.energy.cpu, 0)
            } else {
                outside += 1
                XCTAssertEqual(r.outcome, .success, "run at \(start) outside every zone")
                XCTAssertNotEqual(r.detail, "dead_zone")
            }
        }
        XCTAssertGreaterThan(inside, 5)
        XCTAssertGreaterThan(outside, 50)
        XCTAssertEqual(m.deadZoneRuns, inside)
        XCTAssertEqual(m.tasksFailed, inside)
        // Nothing got through: the bytes are those of the successes only.
        XCTAssertEqual(m.backgroundBytesWifi, Double(outside) * 1000, accuracy: 1e-6)
    }

    /// At the default timeout (60 s, Apple's) an app refresh's 30 s budget
    /// comes first: the run is expired at its budget, the radio active
    /// until then.
    func testTheBudgetExpiresARunInADeadZoneBeforeTheDefaultTimeout() {
        let (t, config) = world(zones: with(DeadZoneModel()) { $0.perDay = 4; $0.medianDuration = .minutes(30); $0.durationSigma = 0 })
        XCTAssertEqual(config.deadZones.requestTimeout, .seconds(60 as Int64))
        let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 11)
        let z = zones(log)
        let dead = refreshes(log).filter { inZone($0.start!, z) }
        XCTAssertFalse(dead.isEmpty)
        for r in dead {
            XCTAssertEqual(r.outcome, .expired)
            XCTAssertEqual((r.end! - r.start!).seconds, config.refreshBudget.seconds, accuracy: 1e-6)
            let promoted = r.energy.promotion > 0
            let activeSeconds = config.refreshBudget.seconds - (promoted ? EnergyParameters.default.wifi.promotionSeconds : 0)
            XCTAssertEqual(r.energy.active, EnergyParameters.default.wifi.betaWatts * activeSeconds, accuracy: 1e-5)
        }
        XCTAssertEqual(m.tasksFailed, 0)
        XCTAssertEqual(m.tasksExpired, dead.count)
    }

    /// A transfer in flight when a zone starts fails then (the lost-
    /// connection rule), and is counted as a dead-zone run.
    func testATransferInFlightFailsAtAZoneStart() {
        // 2.5 MB at 20 Mbps: 1 s of transfer every minute or so.
        let model = with(DeadZoneModel()) { $0.perDay = 24; $0.medianDuration = .minutes(2); $0.durationSigma = 0; $0.requestTimeout = .seconds(5 as Int64) }
        let (t, config) = world(zones: model, bytesDown: 2_500_000, every: .seconds(1 as Int64), days: 1)
        let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 5)
        let z = zones(log)
        let cut = refreshes(log).filter { !inZone($0.start!, z) && $0.outcome == .failed }
        XCTAssertFalse(cut.isEmpty)
        for r in cut {
            XCTAssertEqual(r.detail, "dead_zone")
            XCTAssertTrue(z.contains { $0.0 == r.end! }, "fails at a zone's start")
        }
        XCTAssertEqual(m.deadZoneRuns, m.tasksFailed)
    }

    /// Off (the default): the same runs and events as a configuration that
    /// never mentions dead zones, whatever the other parameters.
    func testDeadZonesOffChangeNothing() {
        var (t, config) = world(zones: DeadZoneModel())
        config.defaultApp.refresh.failureProbabilityWifi = 0.3
        t = trace(days: 2, apps: ["news", "mail"], sessions: makeSessions([(at(day: 0, 9), 0), (at(day: 1, 12), 1)]),
                  updates: [[at(day: 0, 8)], [at(day: 1, 11)]])
        var other = config
        other.deadZones = with(DeadZoneModel()) { $0.perDay = 0; $0.medianDuration = .hours(5); $0.durationSigma = 2; $0.requestTimeout = .seconds(3 as Int64) }
        let a = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 3)
        let b = simulateDeviceWithLog(trace: t, configuration: other, policy: GreedyPolicy(), randomKey: 3)
        XCTAssertEqual(a.0.tasksFailed, b.0.tasksFailed)
        XCTAssertEqual(a.0.energy, b.0.energy)
        XCTAssertEqual(a.1.events, b.1.events)
        XCTAssertGreaterThan(a.0.tasksFailed, 0)
        XCTAssertEqual(a.0.deadZoneRuns, 0)
    }

    /// A world with frequent outages of the app's backend and dead zones,
    /// many launches and an update before each.
    private func oracleWorld() -> (DeviceTrace, DeviceConfiguration) {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: 1000, serverLatency: .zero,
                                              failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        config.defaultApp.refreshEarliestBeginDelay = .minutes(1)
        config.backendOutages = with(BackendOutageModel()) { $0.perDay = 3; $0.medianDuration = .hours(1); $0.durationSigma = 0 }
        config.deadZones = with(DeadZoneModel()) { $0.perDay = 6; $0.medianDuration = .minutes(30); $0.durationSigma = 0; $0.requestTimeout = .seconds(10 as Int64) }
        var launches: [(SimTime, Int32)] = []
        var updates: [SimTime] = []
        for d in 0..<6 {
            for h in stride(from: 1.0, to: 23.0, by: 0.5) {
                launches.append((at(day: d, h), 0))
                updates.append(at(day: d, h - 0.4))
            }
        }
        return (trace(days: 6, apps: ["news"], sessions: makeSessions(launches), updates: [updates]), config)
    }

    /// The oracles start no networked run inside an outage of the app's
    /// backend or a dead zone (greedy, blind, does), and they put the
    /// refresh after the outage's end when it ends before the launch.
    func testOraclesDoNotStartRunsInOutagesOrDeadZones() {
        let (t, config) = oracleWorld()
        let (_, greedyLog) = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 9)
        XCTAssertTrue(refreshes(greedyLog).contains { $0.detail == "backend_outage" })
        XCTAssertTrue(refreshes(greedyLog).contains { $0.detail == "dead_zone" })
        let outages = BackendOutages(model: config.backendOutages, apps: 1, horizon: t.horizon, random: DeviceRandom(key: 9))
        for policy in [OraclePolicy() as any SchedulingPolicy, OraclePlannerPolicy()] {
            let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: policy, randomKey: 9)
            let runs = refreshes(log)
            let z = zones(log)
            XCTAssertGreaterThan(m.tasksSucceeded, 50, "\(policy)")
            XCTAssertEqual(m.tasksFailed, 0, "\(policy)")
            for r in runs {
                XCTAssertFalse(outages.isDown(app: 0, at: r.start!), "\(policy): a run at \(r.start!) in an outage")
                XCTAssertFalse(inZone(r.start!, z), "\(policy): a run at \(r.start!) in a dead zone")
            }
            // Some refresh starts right at the end of an outage or zone (the oracle's planned wake).
            let ends = Set(outages.perApp[0].ends + z.map(\.1))
            XCTAssertTrue(runs.contains { ends.contains($0.start!) }, "\(policy)")
        }
    }
}
