internal import CGSL

/// Descriptive statistics of one sample, as reported in `summary.csv`.
///
/// Conventions:
/// - Non-finite values (NaN, ±∞) are excluded and counted in ``excluded``: a
///   per-user ratio with a zero denominator is NaN and must not poison the
///   population mean. ``n`` counts the finite values used.
/// - `sd` is the sample standard deviation (divisor n − 1).
/// - Quantiles interpolate linearly between order statistics at position
///   (n − 1)·p (`gsl_stats_quantile_from_sorted_data`; Hyndman & Fan type 7,
///   the default of R and NumPy).
/// - The 95 % confidence interval of the mean is mean ± t₀.₉₇₅,ₙ₋₁ · sd/√n
///   (Student t, `gsl_cdf_tdist_Pinv`).
/// - Empty sample: n = 0, every statistic NaN. One value: mean, median,
///   min, max and quantiles are that value; sd and the interval are NaN.
public struct SampleSummary: Sendable, Equatable {
    public let n: Int
    public let excluded: Int
    public let mean: Double
    public let sd: Double
    public let min: Double
    public let max: Double
    public let median: Double
    public let p95: Double
    /// 95 % confidence interval of the mean (Student t); NaN when n < 2.
    public let ciLow: Double
    public let ciHigh: Double

    /// The finite values, sorted ascending (kept for further quantiles;
    /// empty after ``compacted()``).
    public private(set) var sorted: [Double]

    /// The same statistics without the sorted values, for keeping many
    /// summaries of large samples (``quantile(_:)`` then returns NaN).
    public func compacted() -> SampleSummary {
        var copy = self
        copy.sorted = []
        return copy
    }

    public init(_ values: [Double]) {
        GSL.prepare()
        var finite = values.filter { $0.isFinite }
        excluded = values.count - finite.count
        finite.sort()
        sorted = finite
        n = finite.count
        guard n > 0 else {
            mean = .nan; sd = .nan; min = .nan; max = .nan; median = .nan; p95 = .nan
            ciLow = .nan; ciHigh = .nan
            return
        }
        let stats = finite.withUnsafeBufferPointer { buf -> (Double, Double) in
            let m = gsl_stats_mean(buf.baseAddress, 1, buf.count)
            let s = buf.count > 1 ? gsl_stats_sd_m(buf.baseAddress, 1, buf.count, m) : .nan
            return (m, s)
        }
        mean = stats.0
        sd = stats.1
        min = finite[0]
        max = finite[n - 1]
        median = Self.quantile(sortedValues: finite, 0.5)
        p95 = Self.quantile(sortedValues: finite, 0.95)
        let half = Self.tHalfWidth95(sd: sd, n: n)
        ciLow = mean - half
        ciHigh = mean + half
    }

    /// The p-quantile, p in [0, 1], type-7 interpolation; NaN when empty.
    public func quantile(_ p: Double) -> Double { Self.quantile(sortedValues: sorted, p) }

    /// Type-7 quantile of already-sorted finite values.
    public static func quantile(sortedValues: [Double], _ p: Double) -> Double {
        precondition(p >= 0 && p <= 1, "quantile needs 0 <= p <= 1")
        guard !sortedValues.isEmpty else { return .nan }
        return sortedValues.withUnsafeBufferPointer {
            gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, p)
        }
    }

    /// Half-width of the two-sided 95 % Student-t interval: t₀.₉₇₅,ₙ₋₁·sd/√n.
    static func tHalfWidth95(sd: Double, n: Int) -> Double {
        guard n > 1, sd.isFinite else { return .nan }
        return StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * sd / Double(n).squareRoot()
    }
}

/// Student's t distribution, through GSL's CDFs.
public enum StudentT {
    /// The p-quantile of t with `df` degrees of freedom (`gsl_cdf_tdist_Pinv`).
    public static func quantile(_ p: Double, degreesOfFreedom df: Double) -> Double {
        GSL.prepare()
        return gsl_cdf_tdist_Pinv(p, df)
    }

    /// Two-sided p-value of a t statistic: 2·P(T > |t|) (`gsl_cdf_tdist_Q`).
    public static func twoSidedPValue(_ t: Double, degreesOfFreedom df: Double) -> Double {
        GSL.prepare()
        guard t.isFinite, df > 0 else { return .nan }
        return Swift.min(1, 2 * gsl_cdf_tdist_Q(abs(t), df))
    }
}
