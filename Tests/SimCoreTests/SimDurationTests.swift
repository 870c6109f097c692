import TestSupport
import XCTest
@testable import SimCore

final class SimDurationTests: XCTestCase {
    func testParsesEveryUnit() throws {
        XCTAssertEqual(try SimDuration(parsing: "7us").microseconds, 7)
        XCTAssertEqual(try SimDuration(parsing: "250ms").microseconds, 250_000)
        XCTAssertEqual(try SimDuration(parsing: "30s").microseconds, 30_000_000)
        XCTAssertEqual(try SimDuration(parsing: "15m").microseconds, 900_000_000)
        XCTAssertEqual(try SimDuration(parsing: "2h").microseconds, 7_200_000_000)
        XCTAssertEqual(try SimDuration(parsing: "1d").microseconds, 86_400_000_000)
        XCTAssertEqual(try SimDuration(parsing: "0s"), .zero)
    }

    func testParsesDecimalsExactlyAndNegatives() throws {
        XCTAssertEqual(try SimDuration(parsing: "1.5h"), .minutes(90))
        XCTAssertEqual(try SimDuration(parsing: "0.25s"), .milliseconds(250))
        XCTAssertEqual(try SimDuration(parsing: "1.1ms").microseconds, 1_100)  // 1.1 * 1000 is not 1100 in Double
        XCTAssertEqual(try SimDuration(parsing: "0.000001s").microseconds, 1)
        XCTAssertEqual(try SimDuration(parsing: "2.50000s").microseconds, 2_500_000)
        XCTAssertEqual(try SimDuration(parsing: "-5s"), .seconds(-5))
        XCTAssertEqual(try SimDuration(parsing: "-0.5ms").microseconds, -500)
        XCTAssertEqual(try SimDuration(parsing: "100000d"), .days(100_000))
    }

    func testRejectsMalformedInput() {
        let bad = ["", "s", "10", "10x", "5 s", " 5s", "5s ", "5S", "1e3s", "--5s", "+5s", "5.s", ".5s",
                   "1.2.3s", "5sm", "ms", "-s", "0.0000001s", "1.5us", "abc", "5mss", "1,5s", "٣s"]
        for text in bad {
            XCTAssertThrowsError(try SimDuration(parsing: text), "\"\(text)\" should be rejected") { error in
                guard let error = error as? DurationParseError else { return XCTFail("wrong error type") }
                XCTAssertEqual(error.input, text)
                XCTAssertTrue(error.description.contains("expected a number and a unit"), error.description)
            }
        }
    }

    func testErrorReasons() {
        func reason(_ text: String) -> String? {
            do { _ = try SimDuration(parsing: text); return nil } catch { return error.reason }
        }
        XCTAssertEqual(reason(""), "empty string")
        XCTAssertEqual(reason("10"), "missing or unknown unit")
        XCTAssertEqual(reason("10x"), "missing or unknown unit")
        XCTAssertEqual(reason("1.5us"), "not a whole number of microseconds")
        XCTAssertEqual(reason("99999999999999999999s"), "out of range")
        XCTAssertEqual(reason("200000000d"), "out of range")
        XCTAssertEqual(reason("x5s"), "\"x5\" is not a number")
    }

    func testPrintsLargestExactUnit() {
        XCTAssertEqual(SimDuration.zero.description, "0s")
        XCTAssertEqual(SimDuration.milliseconds(250).description, "250ms")
        XCTAssertEqual(SimDuration.seconds(90).description, "90s")
        XCTAssertEqual(SimDuration.minutes(15).description, "15m")
        XCTAssertEqual(SimDuration.hours(2).description, "2h")
        XCTAssertEqual(SimDuration.hours(48).description, "2d")
        XCTAssertEqual(SimDuration(microseconds: 7).description, "7us")
        XCTAssertEqual(SimDuration(microseconds: 1_500).description, "1500us")
        XCTAssertEqual(SimDuration.seconds(-90).description, "-90s")
    }

    func testPrintParseRoundTrip() throws {
        var random = TestRandom(seed: 7)
        for _ in 0..<5_000 {
            let magnitude = Int64(bitPattern: random.bits() >> (1 + UInt64(random.below(60))))
            let d = SimDuration(microseconds: random.chance(0.5) ? magnitude : -magnitude)
            XCTAssertEqual(try SimDuration(parsing: d.description), d, d.description)
        }
        for text in ["250ms", "30s", "15m", "2h", "1d", "7us", "-3h"] {
            XCTAssertEqual(try SimDuration(parsing: text).description, text)
        }
    }

    func testArithmetic() {
        XCTAssertEqual(SimDuration.seconds(1.5).microseconds, 1_500_000)
        XCTAssertEqual(SimDuration.seconds(0.0000004).microseconds, 0)
        XCTAssertEqual(SimDuration.minutes(1) + .seconds(30), .seconds(90))
        XCTAssertEqual(SimDuration.minutes(1) - .seconds(90), .seconds(-30))
        XCTAssertEqual(SimDuration.seconds(10) * 3, .seconds(30))
        XCTAssertEqual(SimDuration.seconds(10) * 0.25, .milliseconds(2_500))
        XCTAssertEqual(-SimDuration.seconds(3), .seconds(-3))
        XCTAssertEqual(SimDuration.hours(1).seconds, 3_600)
        XCTAssertTrue(SimDuration.seconds(59) < .minutes(1))
    }
}
