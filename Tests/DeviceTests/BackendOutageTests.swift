@testable import Device
import SimCore
import TestSupport
import XCTest

/// The per-app outage process (`BackendOutages`).
final class BackendOutageTests: XCTestCase {
    /// Off by default; on, the count and the down fraction match the
    /// renewal process's expectations, and the draws are a function of the
    /// key and the app only.
    func testOutageProcessMatchesItsParameters() {
        let horizon = SimTime(day: 2000)
        XCTAssertFalse(BackendOutageModel().isOn)
        let off = BackendOutages(model: BackendOutageModel(), apps: 3, horizon: horizon, random: DeviceRandom(key: 1))
        XCTAssertTrue(off.perApp.allSatisfy { $0.starts.isEmpty })
        XCTAssertFalse(off.isDown(app: 0, at: SimTime(day: 3)))

        let model = with(BackendOutageModel()) { $0.perDay = 0.5; $0.medianDuration = .minutes(30); $0.durationSigma = 1 }
        let o = BackendOutages(model: model, apps: 2, horizon: horizon, random: DeviceRandom(key: 42))
        // Expected outage length: median · exp(σ²/2); up-time mean 1/perDay.
        let meanDown = 1800 * exp(0.5)
        let meanUp = 86_400 / 0.5
        let expectedCount = 2000 * 86_400 / (meanUp + meanDown)
        XCTAssertEqual(Double(o.perApp[0].starts.count), expectedCount, accuracy: 4 * expectedCount.squareRoot())
        let fraction = o.downtime(app: 0, before: horizon).seconds / (2000 * 86_400)
        XCTAssertEqual(fraction, meanDown / (meanUp + meanDown), accuracy: 0.25 * meanDown / (meanUp + meanDown))
        // Sorted and disjoint; inside an interval the backend is down, just after it up.
        for k in 1..<o.perApp[0].starts.count { XCTAssertGreaterThan(o.perApp[0].starts[k], o.perApp[0].ends[k - 1]) }
        let (s, e) = (o.perApp[0].starts[3], o.perApp[0].ends[3])
        XCTAssertTrue(o.isDown(app: 0, at: s))
        XCTAssertTrue(o.isDown(app: 0, at: s + (e - s) * 0.5))
        XCTAssertFalse(o.isDown(app: 0, at: e))
        XCTAssertFalse(o.isDown(app: 0, at: SimTime(microseconds: s.microseconds - 1)))
        // Apps are independent; the same key gives the same outages.
        XCTAssertNotEqual(o.perApp[0].starts, o.perApp[1].starts)
        let again = BackendOutages(model: model, apps: 2, horizon: horizon, random: DeviceRandom(key: 42))
        XCTAssertEqual(again.perApp, o.perApp)
    }
}
