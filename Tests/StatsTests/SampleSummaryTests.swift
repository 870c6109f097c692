import XCTest
@testable import Stats

/// Reference values computed independently with NumPy 2.4 / SciPy 1.17:
///   a = [2.5, 3.1, 4.7, 1.2, 9.8, 5.5, 6.0, 3.3, 7.7, 2.2]
///   a.mean(), a.std(ddof=1), np.median(a), np.quantile(a, 0.95), np.quantile(a, 0.25)
///   h = scipy.stats.t.ppf(0.975, 9) * a.std(ddof=1) / sqrt(10); (mean - h, mean + h)
final class SampleSummaryTests: XCTestCase {
    let a = [2.5, 3.1, 4.7, 1.2, 9.8, 5.5, 6.0, 3.3, 7.7, 2.2]

    func testMatchesNumPyReference() {
        let s = SampleSummary(a)
        XCTAssertEqual(s.n, 10)
        XCTAssertEqual(s.excluded, 0)
        XCTAssertEqual(s.mean, 4.6000000000000005, accuracy: 1e-12)
        XCTAssertEqual(s.sd, 2.689485700525908, accuracy: 1e-12)
        XCTAssertEqual(s.median, 4.0, accuracy: 1e-12)
        XCTAssertEqual(s.p95, 8.854999999999999, accuracy: 1e-12)
        XCTAssertEqual(s.quantile(0.25), 2.65, accuracy: 1e-12)
        XCTAssertEqual(s.min, 1.2)
        XCTAssertEqual(s.max, 9.8)
        XCTAssertEqual(s.ciLow, 2.6760578306194414, accuracy: 1e-9)
        XCTAssertEqual(s.ciHigh, 6.523942169380559, accuracy: 1e-9)
    }

    func testStudentTQuantilesMatchSciPy() {
        // scipy.stats.t.ppf(0.975, df) for df = 9, 1, 100
        XCTAssertEqual(StudentT.quantile(0.975, degreesOfFreedom: 9), 2.262157162798205, accuracy: 1e-9)
        XCTAssertEqual(StudentT.quantile(0.975, degreesOfFreedom: 1), 12.706204736174694, accuracy: 1e-7)
        XCTAssertEqual(StudentT.quantile(0.975, degreesOfFreedom: 100), 1.9839715185235518, accuracy: 1e-9)
    }

    func testEmptySampleIsAllNaN() {
        let s = SampleSummary([])
        XCTAssertEqual(s.n, 0)
        for v in [s.mean, s.sd, s.min, s.max, s.median, s.p95, s.ciLow, s.ciHigh] { XCTAssertTrue(v.isNaN) }
    }

    func testSingleValueHasNoSpread() {
        let s = SampleSummary([3.5])
        XCTAssertEqual(s.n, 1)
        XCTAssertEqual(s.mean, 3.5)
        XCTAssertEqual(s.median, 3.5)
        XCTAssertEqual(s.p95, 3.5)
        XCTAssertTrue(s.sd.isNaN)
        XCTAssertTrue(s.ciLow.isNaN && s.ciHigh.isNaN)
    }

    func testNonFiniteValuesAreExcludedAndCounted() {
        let s = SampleSummary(a + [.nan, .infinity, -.infinity])
        XCTAssertEqual(s.n, 10)
        XCTAssertEqual(s.excluded, 3)
        XCTAssertEqual(s.mean, SampleSummary(a).mean)
    }

    func testCompactedKeepsStatisticsAndDropsValues() {
        let s = SampleSummary(a), c = s.compacted()
        XCTAssertTrue(c.sorted.isEmpty)
        XCTAssertEqual(c.mean, s.mean)
        XCTAssertEqual(c.p95, s.p95)
        XCTAssertEqual(c.ciHigh, s.ciHigh)
        XCTAssertTrue(c.quantile(0.5).isNaN)
    }

    func testQuantileEndpointsAreMinAndMax() {
        let s = SampleSummary(a)
        XCTAssertEqual(s.quantile(0), 1.2)
        XCTAssertEqual(s.quantile(1), 9.8)
    }
}
