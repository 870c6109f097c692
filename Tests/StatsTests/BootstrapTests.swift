import XCTest
@testable import Stats

final class BootstrapTests: XCTestCase {
    func testSameStreamGivesSameInterval() {
        let gen = RandomStream(seed: 1, user: 0, stream: "data")
        let data = (0..<40).map { _ in gen.lognormal(mu: 1, sigma: 0.8) }
        let i1 = Bootstrap.medianInterval(data, using: RandomStream(seed: 1, user: 0, stream: "boot"))
        let i2 = Bootstrap.medianInterval(data, using: RandomStream(seed: 1, user: 0, stream: "boot"))
        let i3 = Bootstrap.medianInterval(data, using: RandomStream(seed: 2, user: 0, stream: "boot"))
        XCTAssertEqual(i1, i2)
        XCTAssertNotEqual(i1, i3)
        XCTAssertLessThanOrEqual(i1.low, i1.estimate)
        XCTAssertGreaterThanOrEqual(i1.high, i1.estimate)
    }

    /// Coverage: over many samples of N(10, 2²), the 95 % interval of the
    /// median contains the true median 10 about 95 % of the time (percentile
    /// bootstrap of a median is slightly conservative at this n).
    func testMedianIntervalCoverage() {
        let data = RandomStream(seed: 5, user: 0, stream: "data")
        let boot = RandomStream(seed: 5, user: 0, stream: "boot")
        let trials = 200
        var covered = 0
        for _ in 0..<trials {
            let sample = (0..<41).map { _ in data.normal(mean: 10, sd: 2) }
            let i = Bootstrap.medianInterval(sample, resamples: 400, using: boot)
            if i.low <= 10 && 10 <= i.high { covered += 1 }
        }
        // Binomial(200, 0.95): sd ≈ 3.1; accept 0.88–1.0.
        XCTAssertGreaterThanOrEqual(covered, 176)
    }

    func testRatioOfMeansCoverage() throws {
        let data = RandomStream(seed: 6, user: 0, stream: "data")
        let boot = RandomStream(seed: 6, user: 0, stream: "boot")
        // True ratio E[a]/E[b] = 30/10 = 3.
        var covered = 0
        let trials = 200
        for _ in 0..<trials {
            let b = (0..<60).map { _ in data.exponential(mean: 10) }
            let a = b.map { 3 * $0 + data.normal(mean: 0, sd: 5) }
            let i = try Bootstrap.ratioOfMeansInterval(a, b, resamples: 400, using: boot)
            if i.low <= 3 && 3 <= i.high { covered += 1 }
        }
        XCTAssertGreaterThanOrEqual(covered, 176)
        XCTAssertLessThanOrEqual(covered, 200)
    }

    func testRatioEstimateIsRatioOfSums() throws {
        let i = try Bootstrap.ratioOfMeansInterval([1, 2, 3], [2, 2, 2], resamples: 50,
                                                   using: RandomStream(key: 9))
        XCTAssertEqual(i.estimate, 1.0, accuracy: 1e-12)
    }

    func testEmptyAndMismatchedInputs() {
        XCTAssertTrue(Bootstrap.medianInterval([.nan], using: RandomStream(key: 1)).estimate.isNaN)
        XCTAssertThrowsError(try Bootstrap.ratioOfMeansInterval([1], [1, 2], using: RandomStream(key: 1)))
    }
}
