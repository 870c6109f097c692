import Foundation
import SimCore

/// Per app, a time before which the `cost-aware-predictor`'s gain test is
/// sure to answer no, kept from the last no. Why: the policy asks the test
/// for every pending refresh at every decision point, most answers are
/// no, and within an hour nothing the answer depends on moves except the
/// clock — and the clock moves it only through P(stale), which grows
/// toward 1 at a known rate. So one no bounds the next ones: they cost a
/// comparison instead of a test (Docs/Performance.md).
///
/// Within the hour of `now`, with no short-lived term on (checked when a
/// kept no is read: a session end may start one for any app), the rule's
/// P(launch first) is h₀ · s₀ + (1 − h₀) · X: a mix of the share s₀ =
/// l/(l+u) of the part-hour to the next boundary and the sum X from that
/// boundary on, which is at most P_j + R_j · share after any j whole
/// hours the horizon always covers (the kept window of that boundary;
/// `share` bounds every step's l/(l+u)). So P(launch first) ≤ Pmax =
/// max(s₀, P_j + R_j · share), and P(stale) = 1 − e^{−u·Δ} (Δ: hours since
/// the last fetch) stays below bar / Pmax until Δ = −log1p(−bar/Pmax) / u.
/// Both bounds carry a relative margin of 1e-9, far above the rounding of
/// the sums, so each no given here is the rule's
/// (`GainTestDifferentialTests`, `GainWindowDifferentialTests`).
struct LaunchNoUntil: Sendable {
    /// What a kept no was worked out for: the app's rates (its launch
    /// model revision and its content rate), its last fetch, the bar and
    /// the hour.
    struct Key: Equatable, Sendable {
        var app: Int
        var hour: Int64
        var revision: UInt32
        var updatesPerHour: UInt64
        var fetched: Int64
        var bar: UInt64

        /// nil where none is kept (an app the launch model has not seen).
        init?(app a: Int, launches: borrowing LaunchModel, updatesPerHour u: Double, fetched: SimTime?, bar: Double,
              now: SimTime) {
            guard a < launches.apps else { return nil }
            app = a
            hour = now.microseconds / LaunchWindows.hour
            revision = launches.revision[a]
            updatesPerHour = u.bitPattern
            self.fetched = fetched?.microseconds ?? .min
            self.bar = bar.bitPattern
        }
    }

    /// Two per app (index app · 2 + k): the bar takes a few values (it
    /// scales with the cost of a refresh now, which the radio's state and
    /// the network change), so one would be overwritten back and forth.
    var keys: [Key?] = []
    var until: [SimTime] = []

    /// The test of `key` is sure to answer no at `now`.
    func holds(_ key: Key?, at now: SimTime) -> Bool {
        guard let key, 2 * key.app + 1 < keys.count else { return false }
        let i = 2 * key.app
        if keys[i] == key { return now < until[i] }
        if keys[i + 1] == key { return now < until[i + 1] }
        return false
    }

    /// Keeps `key` until `end`, in place of the same bar's or else of the
    /// older of the app's two.
    mutating func keep(_ key: Key, until end: SimTime) {
        let i = 2 * key.app
        if i + 1 >= keys.count {
            keys += Array(repeating: nil, count: i + 2 - keys.count)
            until += Array(repeating: .zero, count: i + 2 - until.count)
        }
        // Slot i is the newer one.
        if keys[i]?.bar != key.bar {
            keys[i + 1] = keys[i]
            until[i + 1] = until[i]
        }
        keys[i] = key
        until[i] = end
    }
}

extension LaunchHourTerms {
    /// After a no at `now`: keeps the time until which the answer stays no
    /// for `key`, where the app's window from the next hour boundary is
    /// kept for its current rates and no short-lived term is on.
    mutating func keepNo(_ key: LaunchNoUntil.Key, launches: borrowing LaunchModel, horizon: SimDuration, now: SimTime) {
        let a = key.app, bar = Double(bitPattern: key.bar), u = Double(bitPattern: key.updatesPerHour)
        let hour = LaunchWindows.hour
        // Whole hours from the next boundary that every time of this hour's
        // horizon covers.
        let covered = Int((horizon.microseconds - hour) / hour)
        guard bar > 0, u.isFinite, u >= 0, covered >= 0, now.microseconds % hour != 0,
              a < windows.start.count, windows.start[a] == key.hour + 1,
              // The window is for these rates (`prepare` may not have run since they changed).
              revision[a] == key.revision, updatesPerHour[a].bitPattern == key.updatesPerHour else { return }
        guard !launches.boosted(app: a, at: now) else { return }
        let l = launches.baseRate(app: a, at: now), most = launches.maxBaseRate(app: a)
        let first = l + u > 0 ? l / (l + u) : 0, share = most + u > 0 ? most / (most + u) : 0
        let j = min(windows.filled[a] - 1, covered), base = a * windows.stride
        let pmax = max(first, windows.launched[base + j] + windows.survive[base + j] * share) * (1 + 1e-12)
        let no = bar / (1 + LaunchWindows.margin)
        let hourEnd = SimTime(microseconds: (key.hour + 1) * hour)
        var end = hourEnd
        if pmax >= no {
            // P(stale) must stay below no / pmax: after the last fetch, for
            // −log1p(−no/pmax)/u hours (less the margin).
            guard key.fetched != .min, u > 0 else { return }
            let hours = -log1p(-no / pmax) / u * (1 - LaunchWindows.margin)
            guard hours.isFinite else { return }
            let micro = hours * Double(hour)
            if micro < Double(hourEnd.microseconds - key.fetched) { end = SimTime(microseconds: key.fetched + Int64(micro)) }
        }
        guard end > now else { return }
        noUntil.keep(key, until: end)
    }
}

extension LaunchModel {
    /// A short-lived term (recency or previous app) of `app` is on at `t`.
    func boosted(app a: Int, at t: SimTime) -> Bool {
        let extra = boosts(app: a, at: t)
        return (extra.recency > 0 && extra.recencyUntil > t) || (extra.previous > 0 && extra.previousUntil > t)
    }
}
