import XCTest
@testable import Stats

/// References from SciPy 1.17 (see each test):
///   x = [2.5, 3.1, 4.7, 1.2, 9.8, 5.5, 6.0, 3.3, 7.7, 2.2]
///   b = [2.0, 3.5, 4.1, 1.0, 9.0, 5.9, 5.1, 3.0, 7.0, 2.4]
///   y = [1.1, 2.9, 3.0, 0.4, 2.2, 1.7]
final class HypothesisTestTests: XCTestCase {
    let x = [2.5, 3.1, 4.7, 1.2, 9.8, 5.5, 6.0, 3.3, 7.7, 2.2]
    let b = [2.0, 3.5, 4.1, 1.0, 9.0, 5.9, 5.1, 3.0, 7.0, 2.4]
    let y = [1.1, 2.9, 3.0, 0.4, 2.2, 1.7]

    /// scipy.stats.ttest_rel(x, b); CI = d̄ ± t.ppf(0.975, 9)·sd(d)/√10.
    func testPairedMatchesSciPy() throws {
        let c = try PairedComparison(x, b)
        XCTAssertEqual(c.n, 10)
        XCTAssertEqual(c.meanDifference, 0.30000000000000016, accuracy: 1e-12)
        XCTAssertEqual(c.t, 1.945519655252026, accuracy: 1e-9)
        XCTAssertEqual(c.pValue, 0.08356572592247558, accuracy: 1e-9)
        XCTAssertEqual(c.ciLow, -0.04882564512130211, accuracy: 1e-9)
        XCTAssertEqual(c.ciHigh, 0.6488256451213024, accuracy: 1e-9)
    }

    func testPairedRejectsLengthMismatch() {
        XCTAssertThrowsError(try PairedComparison([1, 2], [1])) { error in
            XCTAssertEqual(error as? PairedComparison.InputError, .lengthMismatch(2, 1))
        }
    }

    func testPairedDropsPairsWithNonFiniteValues() throws {
        let c = try PairedComparison(x + [.nan], b + [1])
        XCTAssertEqual(c.n, 10)
        XCTAssertEqual(c.excluded, 1)
        XCTAssertEqual(c.pValue, 0.08356572592247558, accuracy: 1e-9)
    }

    func testPairedIdenticalSamplesGivePValueOne() throws {
        let c = try PairedComparison(x, x)
        XCTAssertEqual(c.meanDifference, 0)
        XCTAssertEqual(c.pValue, 1)
        XCTAssertEqual(c.ciLow, 0)
        XCTAssertEqual(c.ciHigh, 0)
    }

    func testPairedConstantShiftGivesPValueZero() throws {
        // Integers, so every difference is exactly 1 in floating point.
        let ints: [Double] = [3, 8, 1, 9, 4, 4, 7]
        let c = try PairedComparison(ints.map { $0 + 1 }, ints)
        XCTAssertEqual(c.meanDifference, 1, accuracy: 1e-12)
        XCTAssertEqual(c.pValue, 0)
    }

    func testPairedWithOnePairHasNoInterval() throws {
        let c = try PairedComparison([1], [0])
        XCTAssertEqual(c.meanDifference, 1)
        XCTAssertTrue(c.pValue.isNaN && c.ciLow.isNaN)
    }

    /// scipy.stats.ttest_ind(x, y, equal_var=False), with .df and .confidence_interval(0.95).
    func testWelchMatchesSciPy() {
        let w = WelchTest(x, y)
        XCTAssertEqual(w.t, 2.8674261667368515, accuracy: 1e-9)
        XCTAssertEqual(w.pValue, 0.013615103636376871, accuracy: 1e-9)
        XCTAssertEqual(w.degreesOfFreedom, 12.548151237975139, accuracy: 1e-9)
        XCTAssertEqual(w.ciLow, 0.6623653947133743, accuracy: 1e-9)
        XCTAssertEqual(w.ciHigh, 4.770967938619959, accuracy: 1e-9)
    }

    func testWelchNeedsTwoValuesPerSample() {
        XCTAssertTrue(WelchTest([1], y).pValue.isNaN)
        XCTAssertTrue(WelchTest([1, 1], [2, 2]).pValue.isNaN)
    }

    /// Under the null (both samples from one distribution), p < 0.05 about 5 % of the time.
    func testWelchFalsePositiveRateIsNominal() {
        let rng = RandomStream(seed: 11, user: 0, stream: "welch")
        var rejections = 0
        let trials = 2000
        for _ in 0..<trials {
            let a = (0..<12).map { _ in rng.normal() }
            let c = (0..<20).map { _ in rng.normal(mean: 0, sd: 2) }
            if WelchTest(a, c).pValue < 0.05 { rejections += 1 }
        }
        // Binomial(2000, 0.05): sd ≈ 9.7 → ±4 sd ≈ ±39.
        XCTAssertEqual(Double(rejections), 100, accuracy: 39)
    }
}
