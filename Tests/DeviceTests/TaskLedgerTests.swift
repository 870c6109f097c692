import Device
import Foundation
import SimCore
import Traces
import XCTest

final class TaskLedgerTests: XCTestCase {
    /// Two refreshes 10 s apart on LTE: the second rides the first one's
    /// tail (no promotion, but it settles the tail gap) and fails. Wasted
    /// energy is the failed task's own radio active energy only: no wake, no
    /// tail (the gap belongs to the first task's transfer, not to the failure).
    func testWastedEnergyExcludesSettledTailGap() {
        let lte = RadioParameters.lte
        let work = WorkModel(cpuSeconds: 0.5, bytesUp: 2_000, bytesDown: 50_000, serverLatency: .milliseconds(300), serverLatencySigma: 0,
                             failureProbabilityWifi: 0, failureProbabilityCellular: 0)
        var failing = work
        failing.failureProbabilityCellular = 1
        var config = DeviceConfiguration()
        // One run each (forget to resubmit, no retry after the failure).
        config.apps = ["a": AppModel(refresh: work, forgetProbability: 1),
                       "b": AppModel(refresh: failing, forgetProbability: 1, retryDelayAfterFailure: nil)]
        let s0 = SimTime(day: 0, plus: .hours(1))
        let sessions: [DeviceTrace.Session] = [
            .init(start: s0, end: s0 + .seconds(10 as Int64), app: 0),
            .init(start: s0 + .seconds(15 as Int64), end: s0 + .seconds(20 as Int64), app: 1),
        ]
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: sessions,
                              network: [.init(start: .zero, end: SimTime(day: 1), kind: .cellular)])
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        let tasks = log.events.filter { $0.kind == .task }
        XCTAssertEqual(tasks.count, 2)
        XCTAssertEqual(m.tasksFailed, 1)
        XCTAssertEqual(tasks.last?.app, 1)
        XCTAssertEqual(tasks.last?.outcome, .failed)
        XCTAssertEqual(tasks.last?.energy.tail, 0)
        XCTAssertEqual(tasks.last?.energy.promotion, 0)
        let upS = 2_000 * 8 / (lte.uplinkMbps * 1e6), downS = 50_000 * 8 / (lte.downlinkMbps * 1e6)
        let active = lte.betaWatts * (0.3 + upS + downS) + lte.alphaUpWattsPerMbps * lte.uplinkMbps * upS
            + lte.alphaDownWattsPerMbps * lte.downlinkMbps * downS
        XCTAssertEqual(m.wastedEnergyJoules, active, accuracy: 1e-9)
        // The event log still adds up to the total (the gap is a tail row).
        XCTAssertEqual(log.events.map { $0.energy.total }.reduce(0, +), m.energy.total, accuracy: 1e-9)
    }
}

