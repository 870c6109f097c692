import XCTest
@testable import Stats

final class AccumulatorTests: XCTestCase {
    func testHistogramBinsAndOutOfRangeCounts() throws {
        let h = try Histogram(binCount: 4, lower: 0, upper: 8)
        for x in [0.0, 1.9, 2.0, 5.5, 7.999, -1, 8, 100, .nan] { h.add(x) }
        XCTAssertEqual(h.counts, [2, 1, 1, 1])
        XCTAssertEqual(h.underflow, 1)
        XCTAssertEqual(h.overflow, 2)
        XCTAssertEqual(h.nonFinite, 1)
        XCTAssertEqual(h.total, 5)
        XCTAssertEqual(h.range(bin: 1).lower, 2)
        XCTAssertEqual(h.range(bin: 1).upper, 4)
    }

    func testHistogramWeights() throws {
        let h = try Histogram(binCount: 2, lower: 0, upper: 1)
        h.add(0.1, weight: 2.5)
        h.add(0.9, weight: 0.5)
        XCTAssertEqual(h.counts, [2.5, 0.5])
    }

    func testHistogramRejectsBadRange() {
        XCTAssertThrowsError(try Histogram(binCount: 0, lower: 0, upper: 1))
        XCTAssertThrowsError(try Histogram(binCount: 3, lower: 2, upper: 1)) { error in
            XCTAssertTrue("\(error)".contains("lower < upper"))
        }
    }

    /// The streaming accumulator agrees with the exact summary of the same values.
    func testRunningStatisticsAgreeWithSampleSummary() {
        let rng = RandomStream(seed: 8, user: 0, stream: "r")
        let values = (0..<10_000).map { _ in rng.gamma(shape: 2, scale: 1.5) }
        let r = RunningStatistics()
        values.forEach(r.add)
        r.add(.nan)
        let s = SampleSummary(values)
        XCTAssertEqual(r.count, s.n)
        XCTAssertEqual(r.excluded, 1)
        XCTAssertEqual(r.mean, s.mean, accuracy: 1e-9)
        XCTAssertEqual(r.sd, s.sd, accuracy: 1e-9)
        XCTAssertEqual(r.min, s.min)
        XCTAssertEqual(r.max, s.max)
        // P² is an estimate; within 2 % of the exact median at n = 10 000.
        XCTAssertEqual(r.medianEstimate, s.median, accuracy: 0.02 * s.median)
    }

    func testRunningStatisticsEmptyAndReset() {
        let r = RunningStatistics()
        XCTAssertTrue(r.mean.isNaN)
        r.add(2)
        XCTAssertEqual(r.mean, 2)
        XCTAssertTrue(r.sd.isNaN)
        r.reset()
        XCTAssertEqual(r.count, 0)
    }

    func testGSLErrorDescribesTheFailure() {
        let e = GSLError(status: 1, operation: "op")
        XCTAssertTrue(e.description.contains("input domain error"))
        XCTAssertTrue(e.description.contains("op"))
        XCTAssertThrowsError(try GSL.check(1, "x"))
        XCTAssertNoThrow(try GSL.check(0, "x"))
    }
}
