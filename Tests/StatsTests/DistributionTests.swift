import XCTest
@testable import Stats

/// Sample moments of 200 000 seeded draws against the closed forms.
/// Mean tolerance: 5 standard errors (σ/√n) — for a fixed seed the check is
/// deterministic; 5 SE makes a false alarm after a seed change unlikely (< 1e-6).
final class DistributionTests: XCTestCase {
    let n = 200_000

    private func draws(_ stream: String, _ draw: (RandomStream) -> Double) -> SampleSummary {
        let rng = RandomStream(seed: 2024, user: 0, stream: stream)
        return SampleSummary((0..<n).map { _ in draw(rng) })
    }

    private func assertMoments(_ s: SampleSummary, mean: Double, sd: Double,
                               sdTolerance: Double = 0.02, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(s.mean, mean, accuracy: 5 * sd / Double(n).squareRoot(), "mean", file: file, line: line)
        XCTAssertEqual(s.sd, sd, accuracy: sdTolerance * sd, "sd", file: file, line: line)
    }

    func testUniform() { assertMoments(draws("u") { $0.uniform(2, 5) }, mean: 3.5, sd: 3 / 12.0.squareRoot()) }

    func testExponential() { assertMoments(draws("e") { $0.exponential(mean: 4) }, mean: 4, sd: 4) }

    func testPoisson() { assertMoments(draws("p") { Double($0.poisson(mean: 6.5)) }, mean: 6.5, sd: 6.5.squareRoot()) }

    func testNormal() { assertMoments(draws("n") { $0.normal(mean: -1, sd: 3) }, mean: -1, sd: 3) }

    func testGamma() {
        // shape 2, scale 3: mean 6, variance 18
        assertMoments(draws("g") { $0.gamma(shape: 2, scale: 3) }, mean: 6, sd: 18.0.squareRoot())
    }

    func testWeibull() {
        // scale 2, shape 1.5: mean 2Γ(1+1/1.5), var 4(Γ(1+2/1.5) − Γ(1+1/1.5)²)
        let g1 = tgamma(1 + 1 / 1.5), g2 = tgamma(1 + 2 / 1.5)
        assertMoments(draws("w") { $0.weibull(scale: 2, shape: 1.5) }, mean: 2 * g1, sd: (4 * (g2 - g1 * g1)).squareRoot())
    }

    func testLognormalMeanAndMedian() {
        // mu 0.5, sigma 0.4: mean e^{0.58}, median e^{0.5}; sd √((e^{0.16}−1)e^{1.16})
        let sd = ((exp(0.16) - 1) * exp(1.16)).squareRoot()
        let s = draws("l") { $0.lognormal(mu: 0.5, sigma: 0.4) }
        assertMoments(s, mean: exp(0.58), sd: sd, sdTolerance: 0.03)
        XCTAssertEqual(s.median, exp(0.5), accuracy: 0.01)
    }

    func testParetoTail() {
        // shape 3, scale 2: x ≥ 2, mean 3, P(X > 4) = (2/4)^3 = 0.125
        let s = draws("pa") { $0.pareto(shape: 3, scale: 2) }
        XCTAssertGreaterThanOrEqual(s.min, 2)
        XCTAssertEqual(s.mean, 3, accuracy: 0.03)
        let tail = Double(s.sorted.filter { $0 > 4 }.count) / Double(n)
        XCTAssertEqual(tail, 0.125, accuracy: 5 * (0.125 * 0.875 / Double(n)).squareRoot())
    }

    func testBernoulli() {
        let p = 0.3
        let s = draws("b") { $0.bernoulli(p) ? 1 : 0 }
        assertMoments(s, mean: p, sd: (p * (1 - p)).squareRoot())
    }

    func testDiscreteChoiceFrequencies() throws {
        let weights = [5.0, 0, 3, 2]
        let d = try DiscreteDistribution(weights: weights)
        XCTAssertEqual(d.probabilities, [0.5, 0, 0.3, 0.2])
        let rng = RandomStream(seed: 1, user: 0, stream: "d")
        var counts = [0, 0, 0, 0]
        for _ in 0..<n { counts[d.sample(using: rng)] += 1 }
        XCTAssertEqual(counts[1], 0)
        for (i, p) in d.probabilities.enumerated() where p > 0 {
            let se = (p * (1 - p) / Double(n)).squareRoot()
            XCTAssertEqual(Double(counts[i]) / Double(n), p, accuracy: 5 * se)
        }
    }

    func testDiscreteRejectsBadWeights() {
        XCTAssertThrowsError(try DiscreteDistribution(weights: [])) {
            XCTAssertEqual($0 as? DiscreteDistribution.WeightsError, .empty)
        }
        XCTAssertThrowsError(try DiscreteDistribution(weights: [1, -2])) {
            XCTAssertEqual($0 as? DiscreteDistribution.WeightsError, .invalidWeight(index: 1, value: -2))
        }
        XCTAssertThrowsError(try DiscreteDistribution(weights: [0, 0])) {
            XCTAssertEqual($0 as? DiscreteDistribution.WeightsError, .allZero)
        }
        XCTAssertThrowsError(try DiscreteDistribution(weights: [1, .nan]))
    }
}
