import Foundation

/// Per app and time-of-week bin, the rule's step over that whole hour with
/// no short-lived term on — the launch rate l, P(a launch or an update
/// within the hour) `-expm1(-(l + u))` and the launch share l / (l + u) —
/// for the app's current rates (its `LaunchModel.revision` and its content
/// rate u); forgotten when either changes (l only when the revision does:
/// a refresh changes u alone, and it comes far more often than a launch or
/// a new day), filled as bins are asked for.
///
/// Why: the gain test's sum (`launchBeforeUpdateReaches`, `LaunchWindows`)
/// and the hour bounds (`LaunchModel.hourBounds`) step through the same
/// bins again and again while the rates hold; kept here, a step is a read
/// instead of an `expm1` and two divisions. Each value is the expression
/// the rule writes, of the same numbers, so a sum over kept steps has the
/// rule's bits (`CostAwareGainCacheTests` compares them with steps worked
/// out afresh).
struct LaunchHourTerms: Sendable {
    /// One whole hour at one bin.
    struct Step: Sendable, Equatable {
        /// l; NaN: not worked out for the current revision.
        var rate = Double.nan
        /// P(a launch or an update within the hour); 0 where l + u is 0;
        /// NaN: not worked out for the current rates.
        var happens = Double.nan
        /// l / (l + u); 0 where l + u is 0.
        var share = Double.nan
    }

    var revision: [UInt32] = []
    var updatesPerHour: [Double] = []
    /// Index app · 48 + bin.
    var steps: [Step] = []
    /// Per app, the whole-hour sums from one hour boundary on, for the
    /// same rates (LaunchWindows.swift); `keepWindows` false: summed every
    /// time (what `GainTestDifferentialTests` compares the windows with).
    var windows = LaunchWindows()
    var keepWindows = true
    /// Per app, where its last hour-bound walk stopped, for the same rates
    /// (LaunchHourWalk.swift); `carryWalks` false: every bound walked afresh
    /// (what `CostAwareGainCacheTests` compares the carried ones with).
    var walks: [LaunchHourWalk] = []
    var carryWalks = true

    mutating func prepare(app a: Int, revision r: UInt32, updatesPerHour u: Double) {
        if a >= revision.count {
            let k = a + 1 - revision.count
            revision += Array(repeating: r, count: k)
            updatesPerHour += Array(repeating: .nan, count: k)
            steps += Array(repeating: Step(), count: k * LaunchModel.bins)
            walks += Array(repeating: LaunchHourWalk(), count: k)
        }
        // Bit for bit: the same rate in a different representation
        // (−0.0) would still give the same terms, but NaN would not.
        guard revision[a] != r || updatesPerHour[a].bitPattern != u.bitPattern else { return }
        let launchRatesHold = revision[a] == r
        revision[a] = r
        updatesPerHour[a] = u
        // Through a span: the array's own writes would check its uniqueness each time.
        var bins = steps.mutableSpan
        let app = a * LaunchModel.bins..<(a + 1) * LaunchModel.bins
        if launchRatesHold {
            for bin in app { bins[bin].happens = .nan }
        } else {
            for bin in app { bins[bin] = Step() }
        }
        windows.forget(app: a)
        walks[a].hour = .min
    }

    /// The step `kept` (its launch rate from `baseRate` unless kept too) at
    /// content rate `u`, as the rule works it out.
    @inline(__always)
    static func step(_ kept: Step, updatesPerHour u: Double, _ baseRate: () -> Double) -> Step {
        let l = kept.rate.isNaN ? baseRate() : kept.rate
        return l + u > 0 ? Step(rate: l, happens: -expm1(-(l + u) * 1.0), share: l / (l + u))
            : Step(rate: l, happens: 0, share: 0)
    }

    /// The step of `bin` for `app` at the rates `prepare` was last given,
    /// worked out (its launch rate from `baseRate` unless kept) and kept if
    /// not yet: a read otherwise, as most bins were worked out for an
    /// earlier hour.
    @inline(__always)
    mutating func step(app a: Int, bin: Int, _ baseRate: () -> Double) -> Step {
        let i = a * LaunchModel.bins + bin
        let kept = steps[i]
        guard kept.happens.isNaN else { return kept }
        let worked = Self.step(kept, updatesPerHour: updatesPerHour[a], baseRate)
        steps[i] = worked
        return worked
    }

    /// The launch rate and P(an event) of `bin` for `app` (`step(app:bin:_:)`).
    @inline(__always)
    mutating func term(app a: Int, bin: Int, _ baseRate: () -> Double) -> (rate: Double, happens: Double) {
        let s = step(app: a, bin: bin, baseRate)
        return (s.rate, s.happens)
    }
}
