@testable import Device
import Foundation
import SimCore
import TestSupport
import XCTest

/// The per-device dead-zone process (`DeadZones`).
final class DeadZoneProcessTests: XCTestCase {
    /// Off by default (no component); on, the count and the dead fraction
    /// match the renewal process's expectations, the boundaries come in
    /// order, and the draws are a function of the key only.
    func testDeadZoneProcessMatchesItsParameters() throws {
        let horizon = SimTime(day: 2000)
        XCTAssertFalse(DeadZoneModel().isOn)
        XCTAssertNil(DeadZones(model: DeadZoneModel(), horizon: horizon, random: DeviceRandom(key: 1)))

        let model = with(DeadZoneModel()) { $0.perDay = 2; $0.medianDuration = .minutes(5); $0.durationSigma = 1 }
        var z = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 42)))
        let meanDead = 300 * exp(0.5)
        let meanGap = 86_400 / 2.0
        let expected = 2000 * 86_400 / (meanGap + meanDead)
        XCTAssertEqual(Double(z.zones.starts.count), expected, accuracy: 4 * expected.squareRoot())
        let fraction = z.deadTime(before: horizon).seconds / (2000 * 86_400)
        XCTAssertEqual(fraction, meanDead / (meanGap + meanDead), accuracy: 0.1 * meanDead / (meanGap + meanDead))
        let (s, e) = (z.zones.starts[3], z.zones.ends[3])
        XCTAssertTrue(z.isDead(at: s))
        XCTAssertFalse(z.isDead(at: e))
        XCTAssertFalse(z.isDead(at: SimTime(microseconds: s.microseconds - 1)))
        // The events: start 0, end 0, start 1, …
        XCTAssertTrue(z.nextIsStart)
        XCTAssertEqual(z.nextEventTime, z.zones.starts[0])
        z.advance()
        XCTAssertFalse(z.nextIsStart)
        XCTAssertEqual(z.nextEventTime, z.zones.ends[0])
        z.advance()
        XCTAssertEqual(z.nextEventTime, z.zones.starts[1])
        let again = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 42)))
        XCTAssertEqual(again.zones, z.zones)
        let other = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 43)))
        XCTAssertNotEqual(other.zones.starts, z.zones.starts)
    }

    /// `maxDuration` cuts every longer zone to it and leaves the shorter
    /// ones and the zone count's order of magnitude alone; a cap above every
    /// draw gives the uncapped zones exactly. Read from JSON with its range.
    func testMaxDurationCapsEveryZone() throws {
        let horizon = SimTime(day: 200)
        var model = with(DeadZoneModel()) { $0.perDay = 4; $0.medianDuration = .minutes(5); $0.durationSigma = 1.5 }
        let free = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 7))).zones
        let longest = zip(free.starts, free.ends).map { ($1 - $0).seconds }.max() ?? 0
        XCTAssertGreaterThan(longest, 600, "the uncapped draws must exceed the cap for the test to say anything")
        model.maxDuration = .minutes(10)
        let capped = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 7))).zones
        let lengths = zip(capped.starts, capped.ends).map { ($1 - $0).seconds }
        XCTAssertLessThanOrEqual(lengths.max() ?? 0, 600)
        XCTAssertTrue(lengths.contains(600), "a longer draw is cut to the cap")
        XCTAssertEqual(capped.starts[0], free.starts[0])
        model.maxDuration = .days(1)
        let high = try XCTUnwrap(DeadZones(model: model, horizon: horizon, random: DeviceRandom(key: 7))).zones
        if longest < 86_400 { XCTAssertEqual(high, free) }

        let read = try JSONDecoder().decode(DeadZoneModel.self, from: Data(#"{"perDay": 1, "maxDuration": "2m"}"#.utf8))
        XCTAssertEqual(read.maxDuration, .minutes(2))
        XCTAssertNil(try JSONDecoder().decode(DeadZoneModel.self, from: Data(#"{"maxDuration": null}"#.utf8)).maxDuration)
        XCTAssertThrowsError(try JSONDecoder().decode(DeadZoneModel.self, from: Data(#"{"maxDuration": "2d"}"#.utf8)))
    }

    /// What a bound is told: the end of the outage or dead zone holding a
    /// time, through overlaps; nil outside both.
    func testBlockedRunsEndAfterOverlappingIntervals() {
        let s = { (m: Int64) in SimTime(microseconds: m * 60_000_000) }
        let future = FutureLaunches(launches: [[]], contentUpdates: [[]],
                                    backendOutages: [TimeIntervals(starts: [s(10)], ends: [s(20)])],
                                    deadZones: TimeIntervals(starts: [s(15), s(40)], ends: [s(30), s(45)]))
        XCTAssertNil(future.networkedRunBlocked(app: 0, at: s(5)))
        XCTAssertEqual(future.networkedRunBlocked(app: 0, at: s(12)), s(30))
        XCTAssertEqual(future.networkedRunBlocked(app: 0, at: s(25)), s(30))
        XCTAssertNil(future.networkedRunBlocked(app: 0, at: s(30)))
        XCTAssertEqual(future.networkedRunBlocked(app: 0, at: s(41)), s(45))
        // An app with no outage list still sees the dead zones.
        XCTAssertEqual(future.networkedRunBlocked(app: 3, at: s(41)), s(45))
        XCTAssertNil(FutureLaunches(launches: [[]], contentUpdates: [[]]).networkedRunBlocked(app: 0, at: s(12)))
    }
}
