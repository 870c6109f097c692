@testable import Device
@testable import Policies
import SimCore
import XCTest

/// Delta mode's Android maps (Docs/ExternalPolicyProtocol.md, "Android"):
/// not sent at all with buckets off, even with nothing pending.
final class ExternalAndroidMapsTests: XCTestCase {
    func testNoMapsWithBucketsOff() {
        var rules = AndroidWorkRules()
        rules.buckets = false
        let android = AndroidPlatform(rules: rules, apps: 2)
        android.sync(now: .zero, state: DeviceState())
        var context = PolicyContext(now: .zero, device: DeviceState(), pending: [])
        context.android = android
        XCTAssertEqual(ExternalMessages.androidMaps(context), "")
        let on = AndroidPlatform(rules: AndroidWorkRules(), apps: 2)
        on.sync(now: .zero, state: DeviceState())
        context.android = on
        XCTAssertEqual(ExternalMessages.androidMaps(context), #","buckets":{},"quotaLeft":{}"#)
    }
}
