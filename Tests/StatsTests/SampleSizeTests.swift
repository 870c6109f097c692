import XCTest
@testable import Stats

final class SampleSizeTests: XCTestCase {
    /// The answer is the smallest n that reaches the half-width: n reaches
    /// it and n − 1 does not (checked against the t quantile directly).
    func testSmallestSampleReachingTheHalfWidth() throws {
        for (h, sd) in [(0.01, 0.05), (0.001, 0.05), (1.0, 30.0), (0.5, 1.0), (2.0, 1.0)] {
            let n = try XCTUnwrap(SampleSize.pairsForHalfWidth(h, sd: sd))
            XCTAssertLessThanOrEqual(SampleSummary.tHalfWidth95(sd: sd, n: n), h, "\(h) \(sd)")
            if n > 2 { XCTAssertGreaterThan(SampleSummary.tHalfWidth95(sd: sd, n: n - 1), h, "\(h) \(sd)") }
        }
        // Large n: close to the normal approximation (1.96·sd/h)².
        let n = try XCTUnwrap(SampleSize.pairsForHalfWidth(0.001, sd: 0.05))
        XCTAssertEqual(Double(n), (1.96 * 0.05 / 0.001) * (1.96 * 0.05 / 0.001), accuracy: 10)
    }

    func testHalvingNeedsAboutFourTimesThePairs() throws {
        // At 200 pairs the t quantile barely moves: a little under 4 × 200.
        let n200 = try XCTUnwrap(SampleSize.pairsToHalve(n: 200, sd: 0.03))
        XCTAssertTrue((785...800).contains(n200), "\(n200)")
        // At 5 pairs t₀.₉₇₅,₄ = 2.78 against about 2.1 at 18: far fewer than 4 × 5 × (2.78/1.96)².
        let n5 = try XCTUnwrap(SampleSize.pairsToHalve(n: 5, sd: 1))
        XCTAssertLessThan(n5, 20)
        XCTAssertGreaterThan(n5, 10)
        // Independent of the SD's scale.
        XCTAssertEqual(SampleSize.pairsToHalve(n: 200, sd: 3), n200)
    }

    func testDegenerateInputs() {
        XCTAssertNil(SampleSize.pairsForHalfWidth(0, sd: 1))
        XCTAssertNil(SampleSize.pairsForHalfWidth(.nan, sd: 1))
        XCTAssertNil(SampleSize.pairsForHalfWidth(1, sd: .infinity))
        XCTAssertEqual(SampleSize.pairsForHalfWidth(0, sd: 0), 2)
        XCTAssertNil(SampleSize.pairsToHalve(n: 1, sd: 1))
        XCTAssertEqual(SampleSize.pairsToHalve(n: 50, sd: 0), 50)
    }
}
