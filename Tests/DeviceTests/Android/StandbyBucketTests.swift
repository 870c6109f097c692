import Device
import SimCore
import XCTest

/// The fallback bucket assignment (Docs/Android.md, rules A1–A3): the
/// bucket from the time and the screen-on time since the last use, and the
/// time of the next change, against the AOSP thresholds worked by hand.
final class StandbyBucketTests: XCTestCase {
    let rules = StandbyRules()
    func h(_ x: Int64) -> SimTime { SimTime.zero + .hours(x) }

    func testNeverUsedAppIsInTheNeverBucketForever() {
        let app = AppStandby()
        let screen = ScreenOnClock(screenOn: true, at: .zero)
        XCTAssertEqual(app.bucket(at: h(100), screen: screen, rules: rules), .never)
        XCTAssertEqual(app.nextChange(after: .zero, screen: screen, rules: rules), .distantFuture)
    }

    /// Screen on all along: only the elapsed thresholds bind, so the
    /// bucket is active < 12 h <= working set < 24 h <= frequent < 48 h <=
    /// rare < 8 d <= restricted, and each change is announced exactly.
    func testScreenAlwaysOnFollowsTheElapsedThresholds() {
        let screen = ScreenOnClock(screenOn: true, at: .zero)
        var app = AppStandby()
        app.used(at: .zero, screen: screen)
        let expected: [(Int64, StandbyBucket)] = [(0, .active), (11, .active), (12, .workingSet), (23, .workingSet),
                                                 (24, .frequent), (47, .frequent), (48, .rare), (191, .rare),
                                                 (192, .restricted), (1000, .restricted)]
        for (hour, bucket) in expected {
            XCTAssertEqual(app.bucket(at: h(hour), screen: screen, rules: rules), bucket, "at \(hour) h")
        }
        var now = SimTime.zero
        var changes: [SimTime] = []
        while true {
            let next = app.nextChange(after: now, screen: screen, rules: rules)
            if next == .distantFuture { break }
            changes.append(next)
            now = next
        }
        XCTAssertEqual(changes, [h(12), h(24), h(48), h(192)])
        XCTAssertEqual(app.bucket(at: h(12) - .seconds(1 as Int64), screen: screen, rules: rules), .active)
    }

    /// Screen off after the use: working set at 12 h, then nothing (frequent
    /// needs 1 h of screen-on time) until the screen comes on at 30 h;
    /// frequent 1 h of screen later (31 h), rare when both 48 h and 2 h of
    /// screen hold (48 h, the screen still on).
    func testScreenTimeThresholdsWaitForTheScreen() {
        var screen = ScreenOnClock(screenOn: false, at: .zero)
        var app = AppStandby()
        app.used(at: .zero, screen: screen)
        XCTAssertEqual(app.nextChange(after: .zero, screen: screen, rules: rules), h(12))
        XCTAssertEqual(app.nextChange(after: h(12), screen: screen, rules: rules), .distantFuture)
        XCTAssertEqual(app.bucket(at: h(29), screen: screen, rules: rules), .workingSet)
        screen.screenChanged(on: true, at: h(30))
        XCTAssertEqual(app.nextChange(after: h(30), screen: screen, rules: rules), h(31))
        XCTAssertEqual(app.bucket(at: h(31), screen: screen, rules: rules), .frequent)
        XCTAssertEqual(app.nextChange(after: h(31), screen: screen, rules: rules), h(48))
        XCTAssertEqual(app.bucket(at: h(48), screen: screen, rules: rules), .rare)
        // Off again at 49 h (19 h of screen-on time since the use): restricted
        // needs 8 days and 6 h of screen: 8 days it is.
        screen.screenChanged(on: false, at: h(49))
        XCTAssertEqual(screen.total(at: h(60)), .hours(19))
        XCTAssertEqual(app.nextChange(after: h(49), screen: screen, rules: rules), h(192))
    }

    func testAUseMakesTheAppActiveAgain() {
        let screen = ScreenOnClock(screenOn: true, at: .zero)
        var app = AppStandby()
        app.used(at: .zero, screen: screen)
        XCTAssertEqual(app.bucket(at: h(50), screen: screen, rules: rules), .rare)
        app.used(at: h(50), screen: screen)
        XCTAssertEqual(app.bucket(at: h(50), screen: screen, rules: rules), .active)
        XCTAssertEqual(app.nextChange(after: h(50), screen: screen, rules: rules), h(62))
    }

    func testWithoutTheRestrictedTimeoutRareIsTheLowest() {
        var r = rules
        r.timesOutToRestricted = false
        let screen = ScreenOnClock(screenOn: true, at: .zero)
        var app = AppStandby()
        app.used(at: .zero, screen: screen)
        XCTAssertEqual(app.bucket(at: h(24 * 30), screen: screen, rules: r), .rare)
        XCTAssertEqual(app.nextChange(after: h(48), screen: screen, rules: r), .distantFuture)
    }

    /// A strong-usage timeout longer than the working-set threshold keeps
    /// the app active until it expires.
    func testStrongUsageTimeoutIsAFloorOnActive() {
        var r = rules
        r.workingSetAfter = .minutes(30)
        let screen = ScreenOnClock(screenOn: true, at: .zero)
        var app = AppStandby()
        app.used(at: .zero, screen: screen)
        XCTAssertEqual(app.bucket(at: SimTime.zero + .minutes(45), screen: screen, rules: r), .active)
        XCTAssertEqual(app.nextChange(after: .zero, screen: screen, rules: r), h(1))
        XCTAssertEqual(app.bucket(at: h(1), screen: screen, rules: r), .workingSet)
    }

    func testDecreasingThresholdsAreRefused() throws {
        let json = Data(#"{"frequentAfter": "6h"}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(StandbyRules.self, from: json)) { error in
            XCTAssertTrue(String(describing: error).contains("frequentAfter"), "\(error)")
        }
    }
}
