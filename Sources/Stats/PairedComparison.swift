/// Paired comparison of two samples measured on the same units (the same
/// users under two policies: common random numbers make them paired).
///
/// With differences dᵢ = aᵢ − bᵢ over pairs where both values are finite:
/// mean d̄, sd s (n − 1), t = d̄ / (s/√n) with n − 1 degrees of freedom,
/// two-sided p-value 2·P(T > |t|), and the 95 % interval d̄ ± t₀.₉₇₅·s/√n.
///
/// Degenerate cases: fewer than two usable pairs → interval and p-value NaN.
/// All differences equal (s = 0): the interval is [d̄, d̄]; p = 1 when d̄ = 0
/// (no evidence of a difference) and p = 0 otherwise (every pair differs by
/// exactly the same non-zero amount).
public struct PairedComparison: Sendable, Equatable {
    /// Pairs used (both values finite).
    public let n: Int
    /// Pairs dropped because either value was not finite.
    public let excluded: Int
    public let meanDifference: Double
    public let sdDifference: Double
    public let ciLow: Double
    public let ciHigh: Double
    public let t: Double
    public let pValue: Double

    public enum InputError: Error, Equatable, CustomStringConvertible {
        case lengthMismatch(Int, Int)
        public var description: String {
            switch self {
            case let .lengthMismatch(a, b): "paired samples must have equal lengths (got \(a) and \(b))"
            }
        }
    }

    /// Compares `a` against `b` (differences a − b).
    public init(_ a: [Double], _ b: [Double]) throws(InputError) {
        guard a.count == b.count else { throw .lengthMismatch(a.count, b.count) }
        var d: [Double] = []
        d.reserveCapacity(a.count)
        for i in a.indices where a[i].isFinite && b[i].isFinite { d.append(a[i] - b[i]) }
        excluded = a.count - d.count
        let s = SampleSummary(d)
        n = s.n
        meanDifference = s.mean
        sdDifference = s.sd
        guard n >= 2 else {
            ciLow = .nan; ciHigh = .nan; t = .nan; pValue = .nan
            return
        }
        if s.sd == 0 {
            ciLow = s.mean; ciHigh = s.mean
            t = s.mean == 0 ? 0 : (s.mean > 0 ? .infinity : -.infinity)
            pValue = s.mean == 0 ? 1 : 0
            return
        }
        ciLow = s.ciLow
        ciHigh = s.ciHigh
        t = s.mean / (s.sd / Double(n).squareRoot())
        pValue = StudentT.twoSidedPValue(t, degreesOfFreedom: Double(n - 1))
    }
}
