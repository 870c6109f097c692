@_spi(BuiltInPolicies) import Device
@_spi(BuiltInPolicies) import Policies
import SimCore
import TestSupport
import XCTest

/// Backoff against backend outages on a tiny world (one app on
/// Wi-Fi, one launch at the start to start its refresh chain, no drawn
/// failures: every failure is an outage).
final class BackoffOutageTests: XCTestCase {
    private func world() -> (DeviceTrace, DeviceConfiguration) {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: 1000, serverLatency: .zero,
                                              failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        config.defaultApp.refreshEarliestBeginDelay = .minutes(30)
        // One-hour outages about once a day (σ 0: every outage lasts exactly 1 h).
        config.backendOutages = with(BackendOutageModel()) { $0.perDay = 1; $0.medianDuration = .hours(1); $0.durationSigma = 0 }
        let t = trace(days: 4, apps: ["news"], sessions: makeSessions([(at(day: 0, 0.1), 0)]), updates: [[]])
        return (t, config)
    }

    private func refreshes(_ log: EventRecorder) -> [DeviceEvent] {
        log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
    }

    /// The base retries every minute during an outage (the app's own retry);
    /// the wrapper spaces its attempts 1, 2, 4 … × initial after the failed
    /// run, and after the outage resumes the base's cadence from the first
    /// success.
    func testBackoffSpacesRetriesDuringAnOutageAndResumesAfterSuccess() {
        let (t, config) = world()
        let (baseMetrics, baseLog) = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 7)
        let wrapped = ExponentialBackoffPolicy(base: GreedyPolicy())   // defaults: 2 min initial, factor 2
        let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: wrapped, randomKey: 7)

        let base = refreshes(baseLog)
        XCTAssertGreaterThan(baseMetrics.tasksFailed, 20, "the world has outages")
        for i in 1..<base.count where base[i - 1].outcome == .failed {
            XCTAssertEqual((base[i].start! - base[i - 1].end!).seconds, 60, accuracy: 1e-6)
        }

        let runs = refreshes(log)
        var bursts = 0
        var i = 0
        while i < runs.count {
            guard runs[i].outcome == .failed else { i += 1; continue }
            // A burst of failures in a row: gaps 120, 240, 480 … s.
            var k = 0
            while i + 1 < runs.count && runs[i].outcome == .failed {
                let gap = (runs[i + 1].start! - runs[i].end!).seconds
                XCTAssertEqual(gap, 120 * pow(2, Double(k)), accuracy: 1e-6, "failure \(k + 1) of a burst")
                k += 1
                i += 1
            }
            bursts += 1
            // The run ending the burst succeeds, and the next one is at the
            // app's own 30-minute cadence from its start: nothing held.
            XCTAssertEqual(runs[i].outcome, .success)
            if i + 1 < runs.count {
                XCTAssertEqual((runs[i + 1].start! - runs[i].start!).seconds, 1800, accuracy: 1e-6)
            }
            i += 1
        }
        XCTAssertGreaterThan(bursts, 1)
        // Every failure here is an outage's, and the event log says so.
        XCTAssertTrue(runs.filter { $0.outcome == .failed }.allSatisfy { $0.detail == "backend_outage" })
        XCTAssertFalse(runs.contains { $0.outcome != .failed && $0.detail == "backend_outage" })
        XCTAssertLessThan(m.tasksFailed * 4, baseMetrics.tasksFailed, "a 1 h outage: ≤ 5 attempts, not 60")
        XCTAssertLessThan(m.energy.total, baseMetrics.energy.total)
    }

    /// Outages off (the default): the same runs, byte for byte, as a
    /// configuration that never mentions them.
    func testOutagesOffChangeNothing() {
        var (t, config) = world()
        config.defaultApp.refresh.failureProbabilityWifi = 0.3
        t = trace(days: 2, apps: ["news", "mail"], sessions: makeSessions([(at(day: 0, 9), 0), (at(day: 1, 12), 1)]),
                  updates: [[at(day: 0, 8)], [at(day: 1, 11)]])
        config.backendOutages = BackendOutageModel()
        var plain = config
        plain.backendOutages = with(BackendOutageModel()) { $0.perDay = 0; $0.medianDuration = .hours(5); $0.durationSigma = 2 }
        let a = simulateDeviceWithLog(trace: t, configuration: config, policy: GreedyPolicy(), randomKey: 3)
        let b = simulateDeviceWithLog(trace: t, configuration: plain, policy: GreedyPolicy(), randomKey: 3)
        // (UserMetrics holds NaN means, which never compare equal: its counts and energy.)
        XCTAssertEqual(a.0.tasksFailed, b.0.tasksFailed)
        XCTAssertEqual(a.0.energy, b.0.energy)
        XCTAssertEqual(a.1.events, b.1.events)
        XCTAssertGreaterThan(a.0.tasksFailed, 0)
    }
}
