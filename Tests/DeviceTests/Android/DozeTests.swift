import Device
import SimCore
import XCTest

/// Doze (Docs/Android.md, rules A9–A12) against the closed forms of
/// DeviceIdleController's defaults, for a phone that lies still with the
/// screen off, on battery, from time 0.
final class DozeTests: XCTestCase {
    let timeline = DozeTimeline(rules: DozeRules())
    func at(_ h: Int64, _ m: Int64 = 0) -> SimTime { SimTime.zero + .hours(h) + .minutes(m) }

    /// The closed form of the issue: counting only the time spent in deep
    /// idle, a maintenance window comes after 1 h, 2 h, 4 h, 6 h, 6 h, …
    /// of it. In quiet time from screen-off: idle starts at 60 min (30 min
    /// inactive + 30 min idle-pending), windows at 2 h, 4 h 05, 8 h 15,
    /// 14 h 25, 20 h 35, 26 h 45 lasting 5, 10, 10, … min.
    func testDeepMaintenanceWindowsAfter1h2h4h6h6hOfIdle() {
        let windows = timeline.maintenanceWindows(quietSince: .zero, from: .zero, to: at(30)).filter(\.deep)
        XCTAssertEqual(windows.map(\.start), [at(2), at(4, 5), at(8, 15), at(14, 25), at(20, 35), at(26, 45)])
        XCTAssertEqual(windows.map { $0.end - $0.start }, [SimDuration.minutes(5)] + Array(repeating: SimDuration.minutes(10), count: 5))
        var idleBefore: [SimDuration] = []
        var previousEnd = at(1)
        for w in windows {
            idleBefore.append(w.start - previousEnd)
            previousEnd = w.end
        }
        XCTAssertEqual(idleBefore, [.hours(1), .hours(2), .hours(4), .hours(6), .hours(6), .hours(6)])
    }

    /// Far into the steady cycle (6 h idle + 10 min window), the phase is
    /// the closed form's: window k >= 3 starts at 14 h 25 + (k - 3) × 6 h 10.
    func testSteadyCycleFarAhead() {
        let k: Int64 = 100
        let start = at(14, 25) + (SimDuration.hours(6) + .minutes(10)) * (k - 3)
        let p = timeline.phase(quietSince: .zero, at: start + .minutes(3))
        XCTAssertEqual(p.deep, .maintenance)
        XCTAssertEqual(p.since, start)
        XCTAssertEqual(p.until, start + .minutes(10))
        let q = timeline.phase(quietSince: .zero, at: start - .seconds(1 as Int64))
        XCTAssertEqual(q.deep, .idle)
        XCTAssertEqual(q.until, start)
    }

    /// Light Doze before deep idle: inactive 4 min, then idle 5, 10, 15,
    /// 15 min, each followed by a 1-minute window (at 9, 20, 36, 52 min);
    /// the next would end after deep idle starts (60 min), which overrides it.
    func testLightDozeCycleUntilDeepIdle() {
        let windows = timeline.maintenanceWindows(quietSince: .zero, from: .zero, to: at(1, 59))
        XCTAssertEqual(windows.filter { !$0.deep }.map(\.start), [at(0, 9), at(0, 20), at(0, 36), at(0, 52)])
        XCTAssertTrue(windows.filter { !$0.deep }.allSatisfy { $0.end - $0.start == .minutes(1) })
        let p0 = timeline.phase(quietSince: .zero, at: .zero)
        XCTAssertEqual(p0.deep, .inactive)
        XCTAssertEqual(p0.light, .inactive)
        XCTAssertEqual(p0.until, at(0, 4))
        XCTAssertFalse(p0.defersBackgroundWork)
        let p1 = timeline.phase(quietSince: .zero, at: at(0, 40))
        XCTAssertEqual(p1.deep, .idlePending)
        XCTAssertEqual(p1.light, .idle)
        XCTAssertTrue(p1.defersBackgroundWork)
        XCTAssertEqual(p1.until, at(0, 52))
        let p2 = timeline.phase(quietSince: .zero, at: at(0, 55))
        XCTAssertEqual(p2.light, .idle)
        XCTAssertEqual(p2.until, at(1), "light idle cut short by deep idle")
        let p3 = timeline.phase(quietSince: .zero, at: at(1))
        XCTAssertEqual(p3.deep, .idle)
        XCTAssertEqual(p3.light, .overridden)
        XCTAssertEqual(p3.until, at(2))
    }

    func testNextMaintenanceStart() {
        XCTAssertEqual(timeline.nextMaintenanceStart(quietSince: .zero, at: at(1, 30)), at(2))
        XCTAssertEqual(timeline.nextMaintenanceStart(quietSince: .zero, at: at(2, 2)), at(2, 2), "inside a window")
        XCTAssertEqual(timeline.nextMaintenanceStart(quietSince: .zero, at: at(0, 5)), at(0, 9))
        var rules = DozeRules()
        rules.deepEnabled = false
        rules.lightEnabled = false
        XCTAssertEqual(DozeTimeline(rules: rules).nextMaintenanceStart(quietSince: .zero, at: at(5)), .distantFuture)
    }

    /// Screen on or the charger ends Doze; the next quiet period starts
    /// from scratch.
    func testControllerResetsOnScreenOnAndCharger() {
        var doze = DozeController(rules: DozeRules(), at: .zero, screenOn: false, charging: false)
        XCTAssertEqual(doze.phase(at: at(3)).deep, .idle)
        doze.screenChanged(on: true, at: at(3))
        XCTAssertEqual(doze.phase(at: at(3, 5)), .awake(since: at(3)))
        XCTAssertEqual(doze.nextTransition(after: at(3, 5)), .distantFuture)
        XCTAssertEqual(doze.nextRunOpportunity(at: at(3, 5)), at(3, 5))
        doze.screenChanged(on: false, at: at(3, 10))
        XCTAssertEqual(doze.nextTransition(after: at(3, 10)), at(3, 14))
        XCTAssertEqual(doze.phase(at: at(4, 10)).deep, .idle)
        XCTAssertEqual(doze.nextRunOpportunity(at: at(4, 30)), at(5, 10))
        doze.chargingChanged(true, at: at(4, 30))
        XCTAssertFalse(doze.phase(at: at(10)).defersBackgroundWork)
        doze.screenChanged(on: true, at: at(11))
        doze.screenChanged(on: false, at: at(12))
        XCTAssertEqual(doze.phase(at: at(20)).deep, .active, "still charging")
        doze.chargingChanged(false, at: at(21))
        XCTAssertEqual(doze.quietSince, at(21))
    }

    func testDisabledDeepDozeLeavesLightCycling() {
        var rules = DozeRules()
        rules.deepEnabled = false
        let t = DozeTimeline(rules: rules)
        let p = t.phase(quietSince: .zero, at: at(10))
        XCTAssertEqual(p.deep, .active)
        XCTAssertNotEqual(p.light, .overridden)
        // Steady light cycle (15 min idle + 1 min window): windows at
        // 52 + 16 k min, so 9 h 56, 10 h 12, 10 h 28, 10 h 44, 11 h 00.
        XCTAssertEqual(t.maintenanceWindows(quietSince: .zero, from: at(10), to: at(11)).map(\.start),
                       [at(10, 12), at(10, 28), at(10, 44)])
    }

    func testRulesChecks() {
        XCTAssertNil(DozeRules().rangeProblem)
        XCTAssertEqual(DozeRules().deepIdleAfter, .hours(1))
        let json = Data(#"{"maxIdleTimeout": "30m"}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(DozeRules.self, from: json))
    }
}
