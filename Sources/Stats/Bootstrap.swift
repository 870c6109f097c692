/// Percentile bootstrap confidence intervals (Efron 1979), seeded.
///
/// Draws `resamples` samples of size n with replacement using the stream
/// passed in, computes the statistic on each, and returns the type-7
/// quantiles at (1 − level)/2 and (1 + level)/2 of those replicates. The
/// same stream state gives the same interval. Non-finite values are excluded
/// before resampling (pairs with either value non-finite, for the ratio).
public enum Bootstrap {
    public struct Interval: Sendable, Equatable {
        /// The statistic on the original sample.
        public let estimate: Double
        public let low: Double
        public let high: Double
    }

    /// Interval for the median of `values`. Empty input → all NaN.
    public static func medianInterval(
        _ values: [Double], level: Double = 0.95, resamples: Int = 2000, using rng: RandomStream
    ) -> Interval {
        let x = values.filter { $0.isFinite }
        guard !x.isEmpty else { return Interval(estimate: .nan, low: .nan, high: .nan) }
        let estimate = SampleSummary(x).median
        var buffer = [Double](repeating: 0, count: x.count)
        var replicates = [Double]()
        replicates.reserveCapacity(resamples)
        for _ in 0..<resamples {
            for i in 0..<x.count { buffer[i] = x[rng.integer(below: x.count)] }
            buffer.sort()
            replicates.append(SampleSummary.quantile(sortedValues: buffer, 0.5))
        }
        return interval(estimate: estimate, replicates: &replicates, level: level)
    }

    /// Interval for Σa / Σb over pairs (aᵢ, bᵢ) resampled together — e.g.
    /// joules per fresh launch across users: Σ energy / Σ fresh launches.
    /// A replicate whose Σb is 0 is NaN and dropped from the quantiles.
    public static func ratioOfMeansInterval(
        _ a: [Double], _ b: [Double], level: Double = 0.95, resamples: Int = 2000, using rng: RandomStream
    ) throws(PairedComparison.InputError) -> Interval {
        guard a.count == b.count else { throw .lengthMismatch(a.count, b.count) }
        let pairs = a.indices.filter { a[$0].isFinite && b[$0].isFinite }.map { (a[$0], b[$0]) }
        guard !pairs.isEmpty else { return Interval(estimate: .nan, low: .nan, high: .nan) }
        func ratio(_ sa: Double, _ sb: Double) -> Double { sb == 0 ? .nan : sa / sb }
        let estimate = ratio(pairs.reduce(0) { $0 + $1.0 }, pairs.reduce(0) { $0 + $1.1 })
        var replicates = [Double]()
        replicates.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var sa = 0.0, sb = 0.0
            for _ in 0..<pairs.count {
                let p = pairs[rng.integer(below: pairs.count)]
                sa += p.0
                sb += p.1
            }
            replicates.append(ratio(sa, sb))
        }
        return interval(estimate: estimate, replicates: &replicates, level: level)
    }

    private static func interval(estimate: Double, replicates: inout [Double], level: Double) -> Interval {
        precondition(level > 0 && level < 1, "confidence level must be in (0, 1)")
        replicates.removeAll { !$0.isFinite }
        replicates.sort()
        return Interval(
            estimate: estimate,
            low: SampleSummary.quantile(sortedValues: replicates, (1 - level) / 2),
            high: SampleSummary.quantile(sortedValues: replicates, (1 + level) / 2)
        )
    }
}
