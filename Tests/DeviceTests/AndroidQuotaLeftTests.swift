@testable import Device
import SimCore
import XCTest

/// The quota left that the OS tells a policy (`AndroidPlatform.quotaLeft`,
/// Docs/AndroidPlatform.md A11): the bucket's allowed time at first, less
/// a running job's time on battery as it runs and after it ends; nil with
/// buckets off.
final class AndroidQuotaLeftTests: XCTestCase {
    func testQuotaLeftFallsWithARunningJobOnBattery() {
        let p = AndroidPlatform(rules: AndroidWorkRules(), apps: 2)
        let battery = DeviceState(batteryPercent: 80)
        let t0 = SimTime.zero + .minutes(1)
        p.sync(now: t0, state: battery)
        let bucket = p.bucket(of: 0, at: t0)!
        let allowed = JobQuotaTable(.android13Plus).limits(for: bucket).allowedTime
        XCTAssertEqual(p.quotaLeft(of: 0, at: t0), allowed)
        p.jobStarted(app: 0, at: t0, state: battery)
        p.sync(now: t0 + .minutes(2), state: battery)
        XCTAssertEqual(p.quotaLeft(of: 0, at: t0 + .minutes(2)), allowed - .minutes(2), "the running job's time counts")
        XCTAssertEqual(p.quotaLeft(of: 1, at: t0 + .minutes(2)), allowed, "another app's quota is its own")
        p.jobEnded(app: 0, at: t0 + .minutes(3))
        XCTAssertEqual(p.quotaLeft(of: 0, at: t0 + .minutes(4)), allowed - .minutes(3), "the ended run is recorded")
    }

    func testNoQuotaLeftWithBucketsOff() {
        var rules = AndroidWorkRules()
        rules.buckets = false
        let p = AndroidPlatform(rules: rules, apps: 1)
        p.sync(now: .zero, state: DeviceState())
        XCTAssertNil(p.quotaLeft(of: 0, at: .zero))
        XCTAssertNil(p.bucket(of: 0, at: .zero))
    }
}
