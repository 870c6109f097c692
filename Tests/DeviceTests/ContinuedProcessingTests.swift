@testable import Device
import Foundation
import SimCore
import XCTest

private func minutes(_ m: Int64) -> SimTime { SimTime(microseconds: m * 60_000_000) }

/// Continued-processing tasks on tiny worlds with exact outcomes: two apps
/// ("a" = 0, "b" = 1), the user starting a job at every session.
final class ContinuedProcessingTests: XCTestCase {
    func cpu(_ seconds: Double) -> WorkModel {
        WorkModel(cpuSeconds: seconds, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                  failureProbabilityWifi: 0, failureProbabilityCellular: 0, usesNetwork: false)
    }

    func config(_ jobs: [ContinuedProcessingJob], rules: ContinuedProcessingRules = ContinuedProcessingRules(maxRunning: 1),
                forceQuit: [Double] = [0, 0]) -> DeviceConfiguration {
        var models: [String: AppModel] = [:]
        for (i, name) in ["a", "b"].enumerated() {
            var m = AppModel(refresh: .instant)
            m.continuedProcessing = jobs[i]
            m.forceQuitProbability = forceQuit[i]
            models[name] = m
        }
        var c = DeviceConfiguration(apps: models, defaultApp: AppModel(refresh: .instant))
        c.continuedProcessing = rules
        return c
    }

    /// Sessions of app "a" at 10 min and of app "b" at 20 min (10 s each).
    func twoSessions(battery: Double = 100) -> [DeviceTrace.Session] {
        sessions(at: [minutes(10)], app: 0) + sessions(at: [minutes(20)], app: 1)
    }

    func run(_ trace: DeviceTrace, _ c: DeviceConfiguration) -> (UserMetrics, [DeviceEvent]) {
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: c, policy: PullNothing(), randomKey: 5)
        return (m, log.events.filter { $0.kind == .continuedProcessing })
    }

    func testQueueWaitsForRoomAndFailFailsAtOnce() {
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: twoSessions())
        let hour = ContinuedProcessingJob(probability: 1, work: cpu(3_600))
        let (q, rows) = run(trace, config([hour, ContinuedProcessingJob(probability: 1, work: cpu(600), strategy: .queue)]))
        XCTAssertEqual(rows.map { "\($0.app):\($0.detail)" },
                       ["0:started", "1:queued", "0:completed", "1:started", "1:completed"])
        // b waits from 20 min until a's hour ends at 70 min, then runs 10 min.
        XCTAssertEqual(rows[3].time, minutes(70))
        XCTAssertEqual(rows[4].end, minutes(80))
        XCTAssertEqual(q.continuedProcessing[.queueWaitSeconds], 50 * 60, accuracy: 1e-9)
        XCTAssertEqual(q.continuedProcessing[.completed], 2)
        XCTAssertEqual(q.continuedProcessing[.energyJoules], 4_200 * EnergyParameters.default.cpuWatts, accuracy: 1e-6)
        XCTAssertEqual(q.continuedProcessing[.wastedJoules], 0)

        let (f, fRows) = run(trace, config([hour, ContinuedProcessingJob(probability: 1, work: cpu(600), strategy: .fail)]))
        XCTAssertEqual(fRows.map { "\($0.app):\($0.detail)" }, ["0:started", "1:failed_to_start", "0:completed"])
        XCTAssertEqual(f.continuedProcessing[.failedToStart], 1)
        XCTAssertEqual(f.continuedProcessing[.started], 1)
    }

    func testForceQuitDropsTheQueuedRequestOnlyAndTheRunningJobGoesOn() {
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: twoSessions())
        let hour = ContinuedProcessingJob(probability: 1, work: cpu(3_600))
        // Both apps force-quit at their session ends: a's job runs on, b's queued request goes.
        let (m, rows) = run(trace, config([hour, hour], forceQuit: [1, 1]))
        XCTAssertEqual(rows.map { "\($0.app):\($0.detail)" },
                       ["0:started", "1:queued", "1:dropped_force_quit", "0:completed"])
        XCTAssertEqual(rows[2].time, minutes(20) + .seconds(10 as Int64))
        XCTAssertEqual(m.continuedProcessing[.droppedForceQuit], 1)
        XCTAssertEqual(m.continuedProcessing[.completed], 1)
    }

    func testUnderPressureTheJobWithLeastProgressEndsFirst() {
        // 21 % battery draining 1 % an hour (12.4 Wh battery, no screen drain):
        // at or under 20 % (about 1 h in) the device is under pressure.
        let trace = DeviceTrace(horizon: SimTime(day: 1), appNames: ["a", "b"], sessions: twoSessions(),
                                screenOnDrainWatts: 0, idleDrainWatts: 0.124, initialBatteryPercent: 21)
        let long = ContinuedProcessingJob(probability: 1, work: cpu(3 * 3_600))
        let rules = ContinuedProcessingRules(maxRunning: 2, maxRunningUnderPressure: 1)
        let (m, rows) = run(trace, config([long, long], rules: rules))
        XCTAssertEqual(rows.map { "\($0.app):\($0.detail)" }, ["0:started", "1:started", "1:expired_pressure", "0:completed"])
        XCTAssertEqual(m.continuedProcessing[.expiredPressure], 1)
        XCTAssertEqual(m.continuedProcessing[.wastedJoules], rows[2].energy.total, accuracy: 1e-9)
        // b (started 10 min later, so less done) ends when the battery reaches 20 %, about 1 h in.
        XCTAssertGreaterThan(rows[2].time, minutes(50))
        XCTAssertLessThan(rows[2].time, minutes(70))
        // a keeps running (one may run under pressure) and completes at 10 min + 3 h.
        XCTAssertEqual(rows[3].end, minutes(190))
        XCTAssertEqual(m.continuedProcessing[.completed], 1)

        // Nothing starts under pressure: with the battery already at 15 %, .fail fails at once.
        let low = flatTrace(days: 1, apps: ["a", "b"], sessions: twoSessions(), battery: 15)
        let fail = ContinuedProcessingJob(probability: 1, work: cpu(60), strategy: .fail)
        let (l, _) = run(low, config([fail, fail], rules: rules))
        XCTAssertEqual(l.continuedProcessing[.failedToStart], 2)
        XCTAssertEqual(l.continuedProcessing[.started], 0)
    }

    func testTheUserCancelsAtTheDrawnTime() {
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: sessions(at: [minutes(10)], app: 0))
        let perHour = 6.0
        let job = ContinuedProcessingJob(probability: 1, work: cpu(3 * 3_600), cancelPerHour: perHour)
        let (m, rows) = run(trace, config([job, job]))
        let random = DeviceRandom(key: 5)
        let u = DeviceRandom.uniform(prefix: random.prefix(RandomPurpose.continuedProcessingUser.rawValue, 1 << 32), 0)
        let expected = minutes(10) + .seconds(-log1p(-u) / perHour * 3_600)
        XCTAssertEqual(rows.map(\.detail), ["started", "cancelled_by_user"])
        XCTAssertEqual(rows[1].time, expected)
        XCTAssertEqual(m.continuedProcessing[.cancelledByUser], 1)
        // The CPU it ran until the cancel, all wasted.
        XCTAssertEqual(m.continuedProcessing[.energyJoules], (expected - minutes(10)).seconds * EnergyParameters.default.cpuWatts,
                       accuracy: 1e-9)
        XCTAssertEqual(m.continuedProcessing[.wastedJoules], m.continuedProcessing[.energyJoules], accuracy: 1e-12)
    }

    func testOffByDefault() {
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: twoSessions())
        let (m, rows) = run(trace, DeviceConfiguration(apps: [:], defaultApp: AppModel(refresh: .instant)))
        XCTAssertEqual(rows.count, 0)
        XCTAssertEqual(m.continuedProcessing, ContinuedProcessingMetrics())
    }
}

/// The pressure line is the OS's low-battery line unless a spec sets its
/// own: moving `lowBatteryPercent` moves it too (one home per rule).
final class ContinuedProcessingPressureLineTests: XCTestCase {
    func testPressureFollowsTheLowBatteryLineUnlessSet() {
        let at25 = DeviceState(batteryPercent: 25)
        XCTAssertFalse(ContinuedProcessingRules().underPressure(at25, lowBatteryPercent: 20))
        XCTAssertTrue(ContinuedProcessingRules().underPressure(at25, lowBatteryPercent: 30))
        XCTAssertFalse(ContinuedProcessingRules(pressureBatteryPercent: 10).underPressure(at25, lowBatteryPercent: 30))
        XCTAssertTrue(ContinuedProcessingRules().underPressure(DeviceState(batteryPercent: 90, isLowPowerMode: true),
                                                              lowBatteryPercent: 20))
    }
}
