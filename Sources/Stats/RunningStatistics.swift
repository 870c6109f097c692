internal import CGSL

/// A streaming accumulator for metrics too numerous to keep
/// (`gsl_rstat`): count, mean, variance (n − 1), sd, min, max, and the
/// median by the P² algorithm (Jain & Chlamtac 1985), an *estimate* that
/// uses O(1) memory. Non-finite values are counted in ``excluded`` and not added.
///
/// Owns GSL memory, freed in `deinit`; not shared across threads.
public final class RunningStatistics {
    private let w: UnsafeMutablePointer<gsl_rstat_workspace>
    public private(set) var excluded = 0

    public init() {
        GSL.prepare()
        guard let w = gsl_rstat_alloc() else { fatalError("gsl_rstat_alloc failed: out of memory") }
        self.w = w
    }

    deinit { gsl_rstat_free(w) }

    public func add(_ x: Double) {
        guard x.isFinite else { excluded += 1; return }
        do { try GSL.check(gsl_rstat_add(x, w), "gsl_rstat_add") } catch { preconditionFailure("\(error)") }
    }

    public var count: Int { Int(gsl_rstat_n(w)) }
    /// NaN when empty.
    public var mean: Double { count == 0 ? .nan : gsl_rstat_mean(w) }
    /// Sample variance (n − 1); NaN with fewer than two values.
    public var variance: Double { count < 2 ? .nan : gsl_rstat_variance(w) }
    public var sd: Double { count < 2 ? .nan : gsl_rstat_sd(w) }
    public var min: Double { count == 0 ? .nan : gsl_rstat_min(w) }
    public var max: Double { count == 0 ? .nan : gsl_rstat_max(w) }
    /// P² estimate of the median (exact for up to five values).
    public var medianEstimate: Double { count == 0 ? .nan : gsl_rstat_median(w) }

    public func reset() {
        excluded = 0
        do { try GSL.check(gsl_rstat_reset(w), "gsl_rstat_reset") } catch { preconditionFailure("\(error)") }
    }
}
