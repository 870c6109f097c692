import TestSupport
import XCTest
@testable import SimCore

final class SimTimeTests: XCTestCase {
    func testDayAndTimeOfDay() {
        let t = SimTime(day: 3, plus: .hours(8) + .minutes(15))
        XCTAssertEqual(t.day, 3)
        XCTAssertEqual(t.timeOfDay, .hours(8) + .minutes(15))
        XCTAssertEqual(SimTime.zero.day, 0)
        XCTAssertEqual(SimTime.zero.timeOfDay, .zero)
        XCTAssertEqual(SimTime(day: 1).day, 1)
        XCTAssertEqual(SimTime(day: 1, plus: SimDuration(microseconds: -1)).day, 0)
    }

    func testNegativeTimesFloorToThePreviousDay() {
        let oneBeforeStart = SimTime(microseconds: -1)
        XCTAssertEqual(oneBeforeStart.day, -1)
        XCTAssertEqual(oneBeforeStart.timeOfDay, .days(1) - SimDuration(microseconds: 1))
        XCTAssertEqual(oneBeforeStart.weekday, 6)  // the Sunday before day 0 (a Monday)
        XCTAssertTrue(oneBeforeStart.isWeekend)
        XCTAssertEqual(SimTime(day: -1).day, -1)
        XCTAssertEqual(SimTime(day: -1).timeOfDay, .zero)
        XCTAssertEqual(SimTime(day: -7).weekday, 0)
        XCTAssertEqual(SimTime(day: -8, plus: .hours(23)).weekday, 6)
        XCTAssertEqual(SimTime(day: -8, plus: .hours(23)).day, -8)
    }

    func testFloorDivisionMatchesReferenceForManyTimes() {
        var random = TestRandom(seed: 11)
        let day = SimDuration.microsecondsPerDay
        for _ in 0..<10_000 {
            let us = Int64(bitPattern: random.bits()) >> 12  // about ±2^51 µs, ±71 years
            let t = SimTime(microseconds: us)
            let reference = Int64((Double(us) / Double(day)).rounded(.down))
            // The Double reference can be off by one only when us is an exact
            // multiple of a day: check the defining property instead.
            XCTAssertTrue(Int64(t.day) * day <= us && us < (Int64(t.day) + 1) * day, "\(us)")
            XCTAssertLessThanOrEqual(abs(Int64(t.day) - reference), 1)
            XCTAssertEqual(Int64(t.day) * day + t.timeOfDay.microseconds, us)
            XCTAssertTrue((0..<7).contains(t.weekday))
            XCTAssertEqual(((t.day % 7) + 7) % 7, t.weekday)
        }
    }

    func testWeekdays() {
        XCTAssertEqual(SimTime(day: 0).weekday, 0)
        XCTAssertFalse(SimTime(day: 4).isWeekend)
        XCTAssertTrue(SimTime(day: 5).isWeekend)
        XCTAssertTrue(SimTime(day: 6, plus: .hours(23)).isWeekend)
        XCTAssertEqual(SimTime(day: 7).weekday, 0)
        XCTAssertEqual(SimTime(day: 15).weekday, 1)
    }

    func testArithmeticAndOrder() {
        var t = SimTime.zero + .minutes(5)
        XCTAssertEqual(t.microseconds, 300_000_000)
        t += .seconds(1)
        XCTAssertEqual(t - SimTime.zero, .seconds(301))
        XCTAssertEqual(t - .seconds(301), .zero)
        XCTAssertTrue(SimTime.zero < t)
        XCTAssertTrue(t < .distantFuture)
        XCTAssertEqual(SimTime(microseconds: 1_500_000).seconds, 1.5)
    }

    func testDescription() {
        XCTAssertEqual(SimTime.zero.description, "d0+00:00:00")
        XCTAssertEqual(SimTime(day: 3, plus: .hours(8) + .minutes(15) + .milliseconds(250)).description,
                       "d3+08:15:00.250000")
        XCTAssertEqual(SimTime(microseconds: -1).description, "d-1+23:59:59.999999")
    }
}
