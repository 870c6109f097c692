/// How many independent pairs a paired comparison needs for a given
/// precision, from the standard deviation of its differences.
public enum SampleSize {
    /// The smallest n ≥ 2 whose two-sided 95 % Student-t half-width,
    /// t₀.₉₇₅,ₙ₋₁·sd/√n, is at most `halfWidth`; nil when no finite n
    /// reaches it (a half-width of 0 with sd > 0) or an input is not finite.
    ///
    /// The estimate treats `sd` as known: it is the sample size at which
    /// the interval would have that half-width if further pairs had the
    /// same spread. Starts from the normal approximation (1.96·sd/h)² and
    /// steps to the exact t-based n, so it costs a few quantile calls.
    public static func pairsForHalfWidth(_ halfWidth: Double, sd: Double) -> Int? {
        guard sd.isFinite, halfWidth.isFinite, sd >= 0, halfWidth >= 0 else { return nil }
        if sd == 0 { return 2 }
        guard halfWidth > 0 else { return nil }
        let start = (1.959963984540054 * sd / halfWidth).squared.rounded(.up)
        guard start < 1e15 else { return nil }
        func reaches(_ n: Int) -> Bool {
            StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * sd / Double(n).squareRoot() <= halfWidth
        }
        // t > z, so the normal start is a lower bound: step up in doubling
        // strides, then bisect down to the smallest n that reaches.
        var low = max(2, Int(start)) - 1, high = max(2, Int(start))
        var stride = 1
        while !reaches(high) { low = high; high += stride; stride *= 2 }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if mid >= 2 && reaches(mid) { high = mid } else { low = mid }
        }
        return high
    }

    /// Pairs needed to halve the half-width a comparison of `n` pairs with
    /// this `sd` has now (about 4n: a half-width shrinks as 1/√n, and the
    /// t quantile a little with n). Nil when n < 2 or sd is not finite.
    public static func pairsToHalve(n: Int, sd: Double) -> Int? {
        guard n >= 2, sd.isFinite, sd >= 0 else { return nil }
        if sd == 0 { return n }
        let now = StudentT.quantile(0.975, degreesOfFreedom: Double(n - 1)) * sd / Double(n).squareRoot()
        return pairsForHalfWidth(now / 2, sd: sd)
    }
}

private extension Double {
    var squared: Double { self * self }
}
