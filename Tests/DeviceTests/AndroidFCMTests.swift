@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// Silent push as FCM on a simulated Android device (Docs/AndroidPlatform.md
/// A15): a normal-priority message waits for Doze's next maintenance
/// window, a high-priority one wakes the app at once, up to its bucket's
/// daily cap on Android ≤ 12.
final class AndroidFCMTests: XCTestCase {
    /// App 0's server pushes every update (at `updates`); app 0 used for
    /// 10 s at 1 min (plus `extra` sessions); unplugged, Wi-Fi, no
    /// background refresh. Returns (sent, delivered start) per delivery.
    func deliveries(priority: FCMPriority, table: JobQuotaGeneration = .android13Plus, updates: [SimTime],
                    extra: [DeviceTrace.Session] = [], days: Int = 1, fcm: FCMRules? = nil) -> [(sent: SimTime, start: SimTime)] {
        var config = DeviceConfiguration()
        config.platform = .android
        config.android.fcmPriority = priority
        config.android.quotaTable = table
        if let fcm { config.android.fcm = fcm }
        config.defaultApp.silentPush = .everyUpdate
        config.defaultApp.backgroundAppRefreshEnabled = false
        config.defaultApp.refresh.failureProbabilityWifi = 0
        let trace = flatTrace(days: days, apps: ["news", "other"], sessions: sessions(at: [.zero + .minutes(1)]) + extra,
                              updates: [updates, []], network: [.init(start: .zero, end: SimTime(day: 30), kind: .wifi)])
        let (_, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 7)
        return log.events.filter { $0.kind == .silentPush && $0.app == 0 && $0.start != nil }
            .map { (sent: $0.requestedAt!, start: $0.start!) }
    }

    let quiet = SimTime.zero + .minutes(1) + .seconds(10 as Int64)

    /// Sent 3 h into quiet time (deep idle; windows at 2 h and 4 h 05):
    /// a normal message is delivered when the 4 h 05 window opens, a
    /// high-priority one at once.
    func testNormalWaitsForAWindowHighWakesAtOnce() {
        let sent = quiet + .hours(3)
        let normal = deliveries(priority: .normal, updates: [sent])
        XCTAssertEqual(normal.map(\.start), [quiet + .minutes(245)])
        let high = deliveries(priority: .high, updates: [sent])
        XCTAssertEqual(high.map(\.start), [sent])
        // Before light idle (4 min of quiet time) at once; in light idle
        // (from 4 min) at its first window (9 min).
        XCTAssertEqual(deliveries(priority: .normal, updates: [quiet + .minutes(3)]).map(\.start), [quiet + .minutes(3)])
        XCTAssertEqual(deliveries(priority: .normal, updates: [quiet + .minutes(5)]).map(\.start), [quiet + .minutes(9)])
    }

    /// Android ≤ 12, the app in frequent (last used 24 h ago, another app
    /// on screen 1 h 30 since): 10 high-priority messages a day, the rest
    /// normal priority, which in deep idle wait for the window (the two
    /// late ones folded into one delivery).
    func testHighPriorityCapOnAndroid12() {
        let other = DeviceTrace.Session(start: .zero + .hours(2), end: .zero + .hours(3) + .minutes(30), app: 1)
        let first = SimTime.zero + .hours(26)
        let sends = (0..<12).map { first + .minutes(10 * Int64($0)) }
        let d = deliveries(priority: .high, table: .upToAndroid12, updates: sends, extra: [other], days: 2)
        let atOnce = d.filter { $0.sent == $0.start }
        XCTAssertEqual(atOnce.map(\.sent), Array(sends.prefix(10)))
        let late = d.filter { $0.sent != $0.start }
        XCTAssertEqual(late.count, 1)
        XCTAssertEqual(late.first?.sent, sends[10])
        // Android 13+: no bucket caps, all 12 at once.
        let now13 = deliveries(priority: .high, updates: sends, extra: [other], days: 2)
        XCTAssertEqual(now13.filter { $0.sent == $0.start }.count, 12)
        // `device.android.fcm`: the caps switched on for Android 13+ with
        // a frequent cap of 3: the first 3 at once, the rest in the window.
        var capped = FCMRules()
        capped.bucketCapsApply = true
        capped.frequentPerDay = 3
        let d3 = deliveries(priority: .high, updates: sends, extra: [other], days: 2, fcm: capped)
        XCTAssertEqual(d3.filter { $0.sent == $0.start }.map(\.sent), Array(sends.prefix(3)))
        XCTAssertFalse(d3.filter { $0.sent != $0.start }.isEmpty)
    }
}
