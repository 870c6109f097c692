import Foundation

/// Where one app's last hour-bound walk (`LaunchModel.hourBounds`) stopped,
/// kept for the app's current rates (`LaunchHourTerms.walks`), so that the
/// bound for the next hour at the same rates goes on from it (`carried`)
/// instead of walking the same hours again. Why: most bounds are asked an
/// hour after the app's last one with its rates unchanged, and the walk
/// over a dozen hours was most of their cost.
///
/// Why the carried sums still bound the rule's: the walk for hour T sums
/// x_T = Σ_k S_{k−1} · h_k · s_k over the whole hours k = 1 … J after T
/// (h_k, s_k: the kept steps of their bins; S_k = Π_{i ≤ k} (1 − h_i)).
/// Its first hour is hour T + 1, the first step of the next hour's bound,
/// and the walk for T + 1 over the same hours has the same terms without
/// the first, each divided by 1 − h₁: x_{T+1} = (x_T − h₁ · s₁) / (1 − h₁)
/// over J − 1 hours, with P(neither) S_J / (1 − h₁) after them. From there
/// the walk goes on as it would have (one more hour at the horizon's end,
/// or the tail where what is left is small), so the bound is the walk's
/// but for rounding. All of that rounds by a few ulps relative to the
/// values, as the walk itself does, except the subtraction, which can
/// cancel: its error is absolute, at most (slack + 4.5e-16 · (x_T + h₁ ·
/// s₁)) / (1 − h₁) with `slack` the error carried in, and `slack` keeps
/// that with room to spare (1e-15, and a factor 1 + 1e-12 for its own
/// rounding). The bound adds `slack` to the upper sum and takes it from the
/// lower one, so both still hold. Each carry can multiply the error by
/// 1 / (1 − h₁), so the walk starts afresh once `slack` would be more than
/// 1e-11 of the sum (h₁ near 1 included): the bound then stays within that
/// of the walk's, far inside the relative 1e-9 margin the caller keeps.
/// The lower sum covers the first `shortest` hours: the carried sum where
/// it has no more than that, else the lower sum carried the same way
/// (one hour fewer: dropping a term ≥ 0 keeps it a lower bound; and at
/// least 0, as every term is).
struct LaunchHourWalk: Sendable {
    /// The hour (since the trace's start) of the bound walked for; `Int64.min`: none.
    var hour = Int64.min
    /// The horizon walked for, microseconds.
    var horizon: Int64 = 0
    /// Whole hours summed (J), from the hour after `hour` on.
    var steps: Int64 = 0
    /// Their sum, with no tail, and that over the first `shortest` of them.
    var sum = 0.0
    var low = 0.0
    /// P(neither a launch nor an update) over them.
    var survive = 1.0
    /// The most `sum` and `low` can be off by after carries (0 walked afresh).
    var slack = 0.0

    /// The walk for hour `next`, this one (for hour `next` − 1) carried
    /// past its first hour, whose step is `first`; nil where it starts
    /// afresh (a walk for another hour or horizon, none summed, or
    /// `slack` too large).
    func carried(to next: Int64, horizon: Int64, first: LaunchHourTerms.Step, shortest: Int64) -> LaunchHourWalk? {
        guard hour == next - 1, self.horizon == horizon, steps > 0 else { return nil }
        // The walk's first term, with P(neither) 1 before it.
        let term = first.happens * first.share, rest = 1 - first.happens
        let sum = (self.sum - term) / rest
        let slack = (self.slack + 1e-15 * (self.sum + term)) / rest * (1 + 1e-12)
        // Also false for a NaN or infinite sum (h₁ = 1).
        guard rest > 0 && sum.isFinite && slack <= 1e-11 * sum else { return nil }
        return LaunchHourWalk(hour: next, horizon: horizon, steps: steps - 1, sum: sum,
                              low: steps - 1 <= shortest ? sum : max(0, (low - term) / rest), survive: survive / rest,
                              slack: slack)
    }
}
