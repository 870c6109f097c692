import Device
import Foundation
import SimCore

/// The `cost-aware-predictor`'s content model: per app, when its content
/// was last fetched and how often it changes (updates per hour), learnt
/// from what its background refreshes report.
///
/// A refresh that reports `.noData` after Δ hours since the last fetch saw
/// Δ hours without an update; one that reports `.newData` saw at least one
/// update somewhere in those Δ hours (an interval-censored observation of
/// an exponential waiting time). The estimate is events over exposure,
///
///     λ = (newData + priorRate · priorHours) / (exposure + priorHours),
///
/// where a `.noData` adds Δ to the exposure and a `.newData` adds the
/// expected wait before the first update given that one came within Δ at
/// the current estimate, E[T | T < Δ] = 1/λ − Δ / (e^{λΔ} − 1) (one step of
/// EM per observation). The prior (`priorRate` over `priorHours`) is what
/// an app is believed to do before its first report. With `learn` off the
/// rate stays the prior: the ablation of this ingredient.
///
/// The content counts as fetched at a launch while online (the foreground
/// fetch) and at the start of a successful refresh (conservative: an update
/// during the task counts as missed, as the metric judges). Counts decay
/// by `decay` a day, as the launch model's.
struct ContentRateEstimator: Sendable {
    let priorRate: Double
    let priorHours: Double
    let decay: Double
    var learn: Bool

    /// One app's counts and what follows from them.
    struct App: Sendable {
        /// The last fetch (nil: never).
        var lastFetch: SimTime?
        /// Decayed `.newData` reports and decayed exposure in hours.
        var events = 0.0
        var exposure = 0.0
        /// The learnt rate, (events + priorRate · priorHours) / (exposure +
        /// priorHours), worked out whenever the counts change: the gain
        /// test reads it several times a decision.
        var learntRate: Double
    }

    /// Per app, in one record so that a gain test reads it with one bounds check.
    private(set) var apps: [App] = []

    init(priorRate: Double, priorHours: Double, decay: Double, learn: Bool) {
        self.priorRate = priorRate
        self.priorHours = priorHours
        self.decay = decay
        self.learn = learn
    }

    mutating func ensure(apps n: Int) {
        guard n > apps.count else { return }
        apps += Array(repeating: App(learntRate: rate(events: 0, exposure: 0)), count: n - apps.count)
    }

    mutating func decayOneDay() {
        for i in apps.indices {
            apps[i].events *= decay
            apps[i].exposure *= decay
            apps[i].learntRate = rate(events: apps[i].events, exposure: apps[i].exposure)
        }
    }

    /// The rate that `events` over `exposure` hours and the prior give.
    private func rate(events: Double, exposure: Double) -> Double {
        (events + priorRate * priorHours) / (exposure + priorHours)
    }

    /// The estimated update rate of `app`, updates per hour.
    @inline(__always)
    func rate(app a: Int) -> Double {
        guard learn, a < apps.count else { return priorRate }
        return apps[a].learntRate
    }

    mutating func fetched(app a: Int, at t: SimTime) {
        ensure(apps: a + 1)
        apps[a].lastFetch = t
    }

    /// A successful refresh of `app` that started at `start` reported `result`.
    /// A `.failed` report teaches nothing and fetched nothing.
    mutating func refreshed(app a: Int, start: SimTime, result: FetchResult?) {
        ensure(apps: a + 1)
        guard result != .failed else { return }
        if let result, let last = apps[a].lastFetch, start > last {
            let dt = (start - last).inHours
            if result == .noData {
                apps[a].exposure += dt
            } else {
                let l = rate(app: a), x = l * dt
                // E[T | T < Δ]; Δ/2 in the limit λΔ → 0.
                apps[a].exposure += x < 1e-6 ? dt / 2 : 1 / l - dt / expm1(x)
                apps[a].events += 1
            }
            apps[a].learntRate = rate(events: apps[a].events, exposure: apps[a].exposure)
        }
        fetched(app: a, at: start)
    }

    /// P(the content of `app` changed since it was last fetched); 1 if never fetched.
    func staleProbability(app a: Int, now: SimTime) -> Double {
        Self.staleProbability(exponent: staleExponent(app: a, now: now))
    }

    /// The expected updates of `app` since its last fetch, m in
    /// P(stale) = 1 − e^−m: infinite if never fetched, 0 if fetched at or
    /// after `now`.
    @inline(__always)
    func staleExponent(app a: Int, now: SimTime) -> Double {
        guard a < apps.count, let last = apps[a].lastFetch else { return .infinity }
        guard now > last else { return 0 }
        return rate(app: a) * (now - last).inHours
    }

    /// P(stale) = 1 − e^−m for the exponent m of `staleExponent` (1 for an
    /// infinite m, 0 for m = 0, exactly).
    static func staleProbability(exponent m: Double) -> Double { -expm1(-m) }

    /// At least `staleProbability(exponent: m)`, without an `exp`: for
    /// 0 ≤ m < ∞, min(2m / (2 + m), 1), which holds because e^−m ≥
    /// (2 − m)/(2 + m) for m ≥ 0 ((2 + m) e^−m − (2 − m) is 0 at 0 and
    /// its slope 1 − (1 + m) e^−m ≥ 0); else min(m, 1) (1 − e^−m ≤ m for
    /// every m; 1 for an infinite m, NaN for a NaN one). Why this one: for
    /// small m it is about m³/12 above P(stale) where min(m, 1) is about
    /// m²/2 above, so more tests end before the launch factor is worked out.
    ///
    /// Written so that every gain test pays two comparisons: 2m / (2 + m)
    /// is below 1 exactly for 0 ≤ m < 2; at m ≥ 2 both branches give 1, an
    /// infinite m gives NaN there (so `min(m, 1)`, 1), and a NaN or
    /// negative m fails `m >= 0`.
    @inline(__always)
    static func staleBound(exponent m: Double) -> Double {
        let b = 2 * m / (2 + m)
        return m >= 0 && b < 1 ? b : min(m, 1)
    }
}
