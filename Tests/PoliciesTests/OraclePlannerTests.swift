@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import XCTest

/// oracle-planner: waits out updates, then refreshes at the first cheap
/// moment (radio up or Wi-Fi), at the latest just before the launch.
final class OraclePlannerTests: XCTestCase {
    func context(now: SimTime, network: NetworkType, radioUpUntil: SimTime? = nil, earliestBegin: SimTime = .zero,
                 launch: SimTime, updates: [SimTime]) -> PolicyContext {
        PolicyContext(now: now, device: DeviceState(network: network), pending: [refresh(earliestBegin: earliestBegin)],
                      appCount: 1, radioUpUntil: radioUpUntil,
                      future: FutureLaunches(launches: [[launch]], contentUpdates: [updates]))
    }

    func testRefreshesAtTheFirstCheapMomentAfterTheLastUpdate() {
        let launch = at(day: 0, 12), update = at(day: 0, 8)
        var planner = OraclePlannerPolicy()
        // Hours before the launch, on Wi-Fi, after the last update: now (oracle would wait).
        var d = planner.decide(context: context(now: at(day: 0, 9), network: .wifi, launch: launch, updates: [update]))
        XCTAssertEqual(d.run, [RequestID(7)])
        var oracle = OraclePolicy()
        XCTAssertEqual(oracle.decide(context: context(now: at(day: 0, 9), network: .wifi, launch: launch, updates: [update])).run, [])
        // On cellular with the radio idle: wait, at the latest until launch − 1 min.
        d = planner.decide(context: context(now: at(day: 0, 9), network: .cellular, launch: launch, updates: [update]))
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, launch - .minutes(1))
        // On cellular with the radio up: ride it.
        d = planner.decide(context: context(now: at(day: 0, 9), network: .cellular, radioUpUntil: at(day: 0, 9) + .seconds(5 as Int64),
                                            launch: launch, updates: [update]))
        XCTAssertEqual(d.run, [RequestID(7)])
        // At the latest moment on cellular, whatever the cost.
        d = planner.decide(context: context(now: launch - .seconds(30 as Int64), network: .cellular, launch: launch, updates: [update]))
        XCTAssertEqual(d.run, [RequestID(7)])
    }

    func testWaitsOutAnUpdateStillToComeAndSkipsLaunchesFreshAnyway() {
        let launch = at(day: 0, 12)
        var planner = OraclePlannerPolicy()
        // An update at 10:00 is still to come: wait for it, even on Wi-Fi.
        var d = planner.decide(context: context(now: at(day: 0, 9), network: .wifi, launch: launch,
                                                updates: [at(day: 0, 8), at(day: 0, 10)]))
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, at(day: 0, 10))
        // Nothing published since the last fetch: nothing to do.
        d = planner.decide(context: context(now: at(day: 0, 9), network: .wifi, launch: launch, updates: []))
        XCTAssertEqual(d, .none)
        // Not yet allowed: woken at its earliestBeginDate.
        d = planner.decide(context: context(now: at(day: 0, 9), network: .wifi, earliestBegin: at(day: 0, 9.5),
                                            launch: launch, updates: [at(day: 0, 8)]))
        XCTAssertEqual(d.run, [])
        XCTAssertEqual(d.wakeAt, at(day: 0, 9.5))
    }

    func testConformanceAndOnATinyWorldAtLeastAsFreshAsTheOracleForNoMoreEnergy() {
        XCTAssertEqual(PolicyConformance.check(OraclePlannerPolicy()), [])
        // One app opened three times a day on cellular; an update an hour.
        var starts: [(SimTime, Int32)] = []
        for d in 0..<5 { for h in [8.0, 13, 19] { starts.append((at(day: d, h), 0)) } }
        let updates = (0..<(5 * 24)).map { SimTime(microseconds: Int64($0) * 3_600_000_000 + 600_000_000) }
        let t = trace(days: 5, apps: ["feed"], sessions: makeSessions(starts), updates: [updates], network: .cellular)
        let o = simulateDevice(trace: t, policy: OraclePolicy(), randomKey: 5)
        let p = simulateDevice(trace: t, policy: OraclePlannerPolicy(), randomKey: 5)
        XCTAssertGreaterThan(p.freshLaunches, p.launches / 2)
        XCTAssertGreaterThanOrEqual(p.freshLaunches, o.freshLaunches)
        XCTAssertLessThanOrEqual(p.energy.total, o.energy.total * 1.05)
    }
}
