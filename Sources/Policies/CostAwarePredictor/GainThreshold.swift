import Foundation

/// The `cost-aware-predictor`'s bar: the expected fresh launches per joule
/// a refresh must bring, adapted toward a daily energy target (IMP's
/// "adapting toward a goal", Higgins et al., MobiSys 2012).
///
/// At each new day the bar is multiplied by (spent / target)^`adaptRate`,
/// the factor held to [1/4, 4] so one odd day cannot swing it far, and the
/// bar to [`minGain`, `maxGain`]: a day over the target raises the bar, a
/// day under it lowers it. `adaptRate` 0 keeps `initialGain` for good (the
/// ablation of this ingredient). Within a day, spending above `capFactor`
/// × target stops further refreshes until midnight (a guard for the first
/// days, before the bar has adapted).
struct GainThreshold: Sendable, Hashable {
    var targetJoulesPerDay: Double
    var adaptRate: Double
    var capFactor: Double
    private(set) var gainPerJoule: Double
    static let minGain = 1e-5
    static let maxGain = 10.0

    /// Background joules at the start of the current day, and that day.
    var dayStartJoules = 0.0
    var day = -1

    init(target: Double, initialGain: Double, adaptRate: Double, capFactor: Double) {
        targetJoulesPerDay = target
        self.adaptRate = adaptRate
        self.capFactor = capFactor
        gainPerJoule = initialGain
    }

    /// Moves to `day` with `joules` spent in all so far (adapting once per
    /// full day passed; a gap of days adapts on the last one only).
    mutating func roll(to today: Int, joules: Double) {
        guard today > day else { return }
        if day >= 0 && adaptRate > 0 && targetJoulesPerDay > 0 {
            let spent = max(0, joules - dayStartJoules) / Double(today - day)
            let ratio = max(1e-3, spent) / targetJoulesPerDay
            let factor = min(4, max(0.25, pow(ratio, adaptRate)))
            gainPerJoule = min(Self.maxGain, max(Self.minGain, gainPerJoule * factor))
        }
        day = today
        dayStartJoules = joules
    }

    /// Spending today has passed the cap.
    func capped(joules: Double) -> Bool {
        joules - dayStartJoules >= capFactor * targetJoulesPerDay
    }
}
