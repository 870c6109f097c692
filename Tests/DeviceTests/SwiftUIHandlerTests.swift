@testable import Device
import Foundation
import SimCore
import XCTest

/// `AppModel.handlerStyle` on tiny worlds: a SwiftUI handler completes when
/// its work returns (never held), a cooperative one stops at the budget, a
/// non-cooperative one runs to the hard limit (budget + cancellation grace).
final class SwiftUIHandlerTests: XCTestCase {
    let hour1 = SimTime(day: 0, plus: .hours(1))

    /// Refresh runs of `cpuSeconds` of CPU, no network, no failure.
    func config(_ style: HandlerStyle, cpuSeconds: Double, neverCompletes: Double = 0) -> DeviceConfiguration {
        var app = AppModel(neverCompletesProbability: neverCompletes)
        app.refresh = WorkModel(cpuSeconds: cpuSeconds, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                failureProbabilityWifi: 0, failureProbabilityCellular: 0, usesNetwork: false)
        app.handlerStyle = style
        return DeviceConfiguration(apps: [:], defaultApp: app)
    }

    func tasks(_ c: DeviceConfiguration) -> (UserMetrics, [DeviceEvent]) {
        let trace = flatTrace(days: 1, sessions: sessions(at: [hour1]))
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: c, policy: RunEverythingAllowed(), randomKey: 9)
        return (m, log.events.filter { $0.kind == .task && $0.detail != "censored" })
    }

    func testSwiftUIHandlersAreNeverHeldByAForgottenCompletion() {
        // With a completion handler every run is held to 30 s; SwiftUI's runs end with their 1 s of work.
        let (held, heldRows) = tasks(config(.completionHandler, cpuSeconds: 1, neverCompletes: 1))
        XCTAssertGreaterThan(heldRows.count, 0)
        XCTAssertEqual(held.runsNeverCompleted, heldRows.count)
        for style in [HandlerStyle.swiftUICooperative, .swiftUINonCooperative] {
            let (m, rows) = tasks(config(style, cpuSeconds: 1, neverCompletes: 1))
            XCTAssertEqual(rows.count, heldRows.count, "\(style)")
            XCTAssertEqual(m.runsNeverCompleted, 0)
            XCTAssertEqual(m.tasksExpired, 0)
            XCTAssertTrue(rows.allSatisfy { $0.outcome == .success && ($0.end! - $0.start!) == .seconds(1 as Int64) })
        }
    }

    func testCooperativeStopsAtTheBudgetAndNonCooperativeRunsToTheHardLimit() {
        let watts = EnergyParameters.default.cpuWatts
        let (c, cRows) = tasks(config(.swiftUICooperative, cpuSeconds: 60))
        XCTAssertGreaterThan(cRows.count, 0)
        XCTAssertTrue(cRows.allSatisfy { $0.outcome == .expired && ($0.end! - $0.start!) == .seconds(30 as Int64) })
        XCTAssertEqual(c.runsIgnoredCancellation, 0)

        let (n, nRows) = tasks(config(.swiftUINonCooperative, cpuSeconds: 60))
        XCTAssertEqual(nRows.count, cRows.count)
        // 30 s budget + 5 s grace: killed at 35 s, all of it wasted.
        XCTAssertTrue(nRows.allSatisfy {
            $0.outcome == .expired && ($0.end! - $0.start!) == .seconds(35 as Int64) && $0.detail == "ignored_cancellation"
        })
        XCTAssertEqual(n.runsIgnoredCancellation, nRows.count)
        XCTAssertEqual(n.tasksExpired, nRows.count)
        XCTAssertEqual(n.wastedEnergyJoules, Double(nRows.count) * 35 * watts, accuracy: 1e-6)
        XCTAssertEqual(c.wastedEnergyJoules, Double(cRows.count) * 30 * watts, accuracy: 1e-6)

        // Work of 32 s returns within the grace: still expired (the system cancelled it), ended at 32 s.
        let (late, lateRows) = tasks(config(.swiftUINonCooperative, cpuSeconds: 32))
        XCTAssertTrue(lateRows.allSatisfy { $0.outcome == .expired && ($0.end! - $0.start!) == .seconds(32 as Int64) })
        XCTAssertEqual(late.runsIgnoredCancellation, lateRows.count)
        XCTAssertEqual(late.tasksSucceeded, 0)

        // A longer grace moves the hard limit.
        var longer = config(.swiftUINonCooperative, cpuSeconds: 60)
        longer.cancellationGrace = .seconds(20 as Int64)
        let (_, longRows) = tasks(longer)
        XCTAssertTrue(longRows.allSatisfy { ($0.end! - $0.start!) == .seconds(50 as Int64) })
    }
}
