internal import CGSL

/// A histogram with `binCount` equal-width bins over [lower, upper)
/// (`gsl_histogram` with uniform ranges). Bin i covers
/// [lower + i·w, lower + (i+1)·w). Values outside the range, and NaN, are
/// not binned but counted in ``underflow``, ``overflow`` and ``nonFinite``,
/// so nothing is silently lost.
///
/// Owns GSL memory, freed in `deinit`; not shared across threads.
public final class Histogram {
    private let h: UnsafeMutablePointer<gsl_histogram>
    public let lower: Double
    public let upper: Double
    public private(set) var underflow = 0
    public private(set) var overflow = 0
    public private(set) var nonFinite = 0

    public init(binCount: Int, lower: Double, upper: Double) throws(GSLError) {
        GSL.prepare()
        guard binCount > 0, lower.isFinite, upper.isFinite, lower < upper else {
            throw GSLError(status: Int32(GSL_EINVAL), operation: "Histogram(binCount: \(binCount), lower: \(lower), upper: \(upper)): need binCount > 0 and finite lower < upper")
        }
        guard let h = gsl_histogram_alloc(binCount) else {
            throw GSLError(status: Int32(GSL_ENOMEM), operation: "gsl_histogram_alloc")
        }
        self.h = h
        self.lower = lower
        self.upper = upper
        try GSL.check(gsl_histogram_set_ranges_uniform(h, lower, upper), "gsl_histogram_set_ranges_uniform")
    }

    deinit { gsl_histogram_free(h) }

    public var binCount: Int { gsl_histogram_bins(h) }

    /// Adds `weight` to the bin holding `x`.
    public func add(_ x: Double, weight: Double = 1) {
        guard !x.isNaN else { nonFinite += 1; return }
        if x < lower { underflow += 1; return }
        if x >= upper { overflow += 1; return }
        // In range, so GSL can only succeed; check anyway, through the one path.
        do { try GSL.check(gsl_histogram_accumulate(h, x, weight), "gsl_histogram_accumulate") } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The (weighted) count in bin i.
    public func count(bin i: Int) -> Double {
        precondition(i >= 0 && i < binCount, "bin index out of range")
        return gsl_histogram_get(h, i)
    }

    /// Lower and upper edge of bin i.
    public func range(bin i: Int) -> (lower: Double, upper: Double) {
        var lo = 0.0, hi = 0.0
        _ = gsl_histogram_get_range(h, i, &lo, &hi)
        return (lo, hi)
    }

    /// All bin counts in order.
    public var counts: [Double] { (0..<binCount).map { count(bin: $0) } }

    /// Sum of all binned weights (not the out-of-range counts).
    public var total: Double { gsl_histogram_sum(h) }
}
