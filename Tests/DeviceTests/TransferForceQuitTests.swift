@testable import Device
import SimCore
import XCTest

private func minutes(_ m: Int64) -> SimTime { SimTime(microseconds: m * 60_000_000) }

/// A force-quit app's waiting background URLSession transfer is cancelled.
final class TransferForceQuitTests: XCTestCase {
    func testForceQuitCancelsTheWaitingTransfer() throws {
        // A discretionary transfer waits for Wi-Fi and a charger (never here).
        var app = AppModel(refresh: .instant)
        app.backgroundTransfer = BackgroundTransferModel(probability: 1, bytesDown: 1_000_000, discretionary: true)
        app.forceQuitProbability = 0.5
        let config = DeviceConfiguration(apps: [:], defaultApp: app)
        // A device key whose user does not force-quit at the first session end and does at the second.
        let key = try XCTUnwrap((0..<UInt64(1_000)).first {
            let r = DeviceRandom(key: $0)
            return r.uniform(RandomPurpose.forceQuit.rawValue, 0, 0) >= 0.5 && r.uniform(RandomPurpose.forceQuit.rawValue, 0, 1) < 0.5
        })
        let trace = flatTrace(days: 1, sessions: sessions(at: [minutes(60), minutes(120)]))
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: PullNothing(), randomKey: key)
        let rows = log.events.filter { $0.kind == .urlSession }
        XCTAssertEqual(rows.map(\.detail), ["handed", "cancelled_force_quit"])
        XCTAssertEqual(rows.last?.time, minutes(120) + .seconds(10 as Int64))
        XCTAssertEqual(rows.last?.requestedAt, minutes(60) + .seconds(10 as Int64))
        XCTAssertEqual(m.urlSession[.cancelledForceQuit], 1)
        XCTAssertEqual(m.urlSession[.completed], 0)
        XCTAssertEqual(m.forceQuits, 1)
    }
}
