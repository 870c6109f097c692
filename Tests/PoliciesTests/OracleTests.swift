@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import XCTest

/// oracle: latest useful moment, radio preferred, wakes at earliestBeginDate.
final class OracleTests: XCTestCase {
    func oracleContext(now: SimTime, earliestBegin: SimTime, radioUpUntil: SimTime? = nil,
                       launch: SimTime, updates: [SimTime]) -> PolicyContext {
        PolicyContext(now: now, device: DeviceState(), pending: [refresh(earliestBegin: earliestBegin)], appCount: 1,
                      radioUpUntil: radioUpUntil, future: FutureLaunches(launches: [[launch]], contentUpdates: [updates]))
    }

    func testOracleWakesAtEarliestBegin() {
        let launch = at(day: 0, 9)
        let now = launch - .seconds(50 as Int64)
        let eb = launch - .seconds(20 as Int64)
        var oracle = OraclePolicy()
        let d = oracle.decide(context: oracleContext(now: now, earliestBegin: eb, launch: launch, updates: [at(day: 0, 8)]))
        XCTAssertTrue(d.run.isEmpty)
        XCTAssertEqual(d.wakeAt, eb)
    }

    // MARK: 4. Oracle: latest moment, radio preferred

    func testOracleRefreshesLateOrOnARadioThatIsUp() {
        let launch = at(day: 0, 9)
        let update = at(day: 0, 8)
        var oracle = OraclePolicy(leadTime: .minutes(1), radioWindow: .minutes(10))
        let early = launch - .minutes(5)
        // Radio idle: wait for the latest moment.
        var d = oracle.decide(context: oracleContext(now: early, earliestBegin: .zero, launch: launch, updates: [update]))
        XCTAssertTrue(d.run.isEmpty)
        XCTAssertEqual(d.wakeAt, launch - .minutes(1))
        // Radio up within the window: ride it.
        d = oracle.decide(context: oracleContext(now: early, earliestBegin: .zero, radioUpUntil: early + .seconds(10 as Int64),
                                                 launch: launch, updates: [update]))
        XCTAssertEqual(d.run, [RequestID(7)])
        // Radio up, but an update is still to come before the launch: wait for it.
        d = oracle.decide(context: oracleContext(now: early, earliestBegin: .zero, radioUpUntil: early + .seconds(10 as Int64),
                                                 launch: launch, updates: [update, launch - .minutes(3)]))
        XCTAssertTrue(d.run.isEmpty)
        XCTAssertEqual(d.wakeAt, launch - .minutes(1))
        // Nothing published since the last fetch: nothing to do.
        d = oracle.decide(context: oracleContext(now: launch - .seconds(30 as Int64), earliestBegin: .zero, launch: launch, updates: []))
        XCTAssertEqual(d, .none)
    }

}
