@testable import Device
import SimCore
import XCTest

/// What a run's time does to its app's quota (Docs/AndroidPlatform.md A11,
/// A12) when the charger or the app's own session splits it.
final class AndroidQuotaAccountingTests: XCTestCase {
    func quotas() -> BucketQuotas {
        BucketQuotas(apps: 2, table: JobQuotaTable(), at: .zero, screenOn: false)
    }

    func state(charging: Bool = false, foreground: Int32? = nil) -> DeviceState {
        DeviceState(batteryPercent: 80, isCharging: charging, network: .wifi, isScreenOn: foreground != nil,
                    foregroundApp: foreground)
    }

    /// A refresh runs on when its app comes to the foreground; the time in
    /// the foreground is not charged (A11): 2 min before the session and
    /// 3 min after it, of a 10-min run.
    func testTimeInTheForegroundIsNotCharged() {
        var q = quotas()
        let t0 = SimTime.zero + .hours(1)
        q.sync(now: t0, state: state())
        q.jobStarted(app: 0, at: t0, charging: false)
        q.sync(now: t0 + .minutes(2), state: state(foreground: 0))
        XCTAssertNil(q.stopAt, "no quota stop while the app is in the foreground")
        q.sync(now: t0 + .minutes(7), state: state())
        XCTAssertNotNil(q.stopAt, "tracked again after the session")
        q.jobEnded(at: t0 + .minutes(10))
        // The session made the app active; 20 min per hour there.
        XCTAssertEqual(q.bucket(of: 0, at: t0 + .minutes(10)), .active)
        XCTAssertEqual(q.timeLeft(app: 0, at: t0 + .minutes(10)), .minutes(15))
    }

    /// A run that left its app out of quota is counted once, however many
    /// of its stretches (split by the charger) ended out of quota.
    func testARunOutOfQuotaIsCountedOnce() {
        var q = quotas()
        let t0 = SimTime.zero + .minutes(10)
        q.sync(now: t0, state: state())
        q.jobStarted(app: 0, at: t0, charging: false)
        q.sync(now: t0 + .minutes(21), state: state(charging: true))   // 21 min on battery: out of the 20
        q.sync(now: t0 + .minutes(25), state: state())                 // unplugged again
        XCTAssertEqual(q.exhaustions, 0, "counted at the run's end")
        q.jobEnded(at: t0 + .minutes(26))
        XCTAssertEqual(q.exhaustions, 1)
        XCTAssertTrue(q.refuses(app: 0, at: t0 + .minutes(26), state: state()))
    }
}
