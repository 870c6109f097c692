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

/// A declaration quoted in an error names its rules in full, so two
/// processes that declare different rules are told apart.
final class ExternalDeclarationSummaryTests: XCTestCase {
    func testTheSummaryWritesEveryRule() {
        var a = ExternalDeclaration()
        a.mode = .plans
        a.rules = [ExternalRule(runFrom: 0, wakeAt: 0), ExternalRule(app: 3, kind: .processing, runFrom: nil, wakeAt: nil)]
        XCTAssertTrue(a.summary.hasSuffix(#","rules":[{"runFrom":0,"wakeAt":0},{"app":3,"kind":"processing","runFrom":null,"wakeAt":null}]"#),
                      a.summary)
        var b = a
        b.rules = [ExternalRule(runFrom: 0, wakeAt: nil), ExternalRule(app: 3, kind: .processing, runFrom: nil, wakeAt: nil)]
        XCTAssertNotEqual(a.summary, b.summary)
    }
}
