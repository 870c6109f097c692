/// Welch's unequal-variances t-test for two independent samples.
///
/// t = (x̄ − ȳ) / √(s²ₓ/nₓ + s²ᵧ/nᵧ); degrees of freedom by
/// Welch–Satterthwaite: (s²ₓ/nₓ + s²ᵧ/nᵧ)² / ((s²ₓ/nₓ)²/(nₓ−1) + (s²ᵧ/nᵧ)²/(nᵧ−1));
/// two-sided p-value and the 95 % interval of x̄ − ȳ with those degrees of
/// freedom. Non-finite values are excluded first. Fewer than two values in
/// either sample, or both variances zero → t, df, p and interval NaN.
public struct WelchTest: Sendable, Equatable {
    public let meanDifference: Double
    public let t: Double
    public let degreesOfFreedom: Double
    public let pValue: Double
    public let ciLow: Double
    public let ciHigh: Double

    public init(_ x: [Double], _ y: [Double]) {
        let sx = SampleSummary(x), sy = SampleSummary(y)
        meanDifference = sx.mean - sy.mean
        guard sx.n >= 2, sy.n >= 2 else {
            t = .nan; degreesOfFreedom = .nan; pValue = .nan; ciLow = .nan; ciHigh = .nan
            return
        }
        let vx = sx.sd * sx.sd / Double(sx.n), vy = sy.sd * sy.sd / Double(sy.n)
        let se = (vx + vy).squareRoot()
        guard se > 0 else {
            t = .nan; degreesOfFreedom = .nan; pValue = .nan; ciLow = .nan; ciHigh = .nan
            return
        }
        t = meanDifference / se
        degreesOfFreedom = (vx + vy) * (vx + vy)
            / (vx * vx / Double(sx.n - 1) + vy * vy / Double(sy.n - 1))
        pValue = StudentT.twoSidedPValue(t, degreesOfFreedom: degreesOfFreedom)
        let half = StudentT.quantile(0.975, degreesOfFreedom: degreesOfFreedom) * se
        ciLow = meanDifference - half
        ciHigh = meanDifference + half
    }
}
