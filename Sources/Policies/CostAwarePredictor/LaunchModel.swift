import Device
import Foundation
import SimCore

/// The `cost-aware-predictor`'s launch model: a launch intensity per app
/// (launches per hour) learnt from the launches it observes, as the sum of
///
/// - a **time-of-week** rate: decayed launch counts per hour of the day,
///   weekdays and weekend days apart (48 bins, the structure the world's
///   routines have), shrunk toward the app's flat hourly mean with the
///   weight of `priorDays` days (so one launch a week ago does not make a
///   bin likely on its own); with `timeOfWeek` off, the flat mean only;
/// - a **recency** term: for `recencyWindow` after a launch of the app, the
///   fraction of its launches that came within that window of its previous
///   launch, spread over the window (bursts of re-opening); nil window: off;
/// - a **previous-app** term: for `transitionWindow` after a session of app
///   `b` ends, the fraction of `b`'s sessions followed within that window by
///   a launch of `a`, spread over the window (the world's app-to-app
///   transitions, as FALCON and PREPP use the previous app); nil: off.
///
/// Every count decays by `decay` a day, so habits can change.
struct LaunchModel: Sendable {
    var decay: Double
    var priorDays: Double { didSet { seenChanged() } }
    var timeOfWeek: Bool { didSet { seenChanged() } }
    var recencyWindow: SimDuration? {
        didSet { for a in 0..<apps { recencyEnds[a] = Self.end(of: recencyWindow, from: lastLaunch[a]) } }
    }
    var transitionWindow: SimDuration? { didSet { transitionEnd = Self.end(of: transitionWindow, from: lastEnded?.at) } }

    private(set) var apps = 0
    /// Decayed launches per app and bin: counts[app * 48 + (weekend ? 24 : 0) + hour].
    var counts: [Double] = []
    /// Decayed launches per app.
    var totals: [Double] = []
    /// Per app, its largest count over the 48 bins (for `maxBaseRate`).
    var maxCount: [Double] = []
    /// Decayed number of weekdays and weekend days observed.
    private(set) var weekdaysSeen = 0.0
    private(set) var weekendDaysSeen = 0.0
    /// Whether every time-of-week bin is a number: a bin with no day of
    /// its kind seen and no prior weight is 0/0. The shortcuts (the kept
    /// sums and the hour bounds) answer only where it holds. Kept as the
    /// days seen change: every gain test asks it.
    private(set) var binsAreNumbers: Bool
    var currentDay = -1
    /// Per app: its last launch (nil: none yet) and the decayed count of
    /// launches that came within `recencyWindow` of the one before.
    private(set) var lastLaunch: [SimTime?] = []
    var relaunches: [Double] = []
    /// Per app `b`: decayed sessions ended; follows[b * apps + a]: of those,
    /// the ones followed by a launch of `a` within `transitionWindow`.
    var sessionsEnded: [Double] = []
    var follows: [Double] = []
    /// The app whose session ended last and when, until a launch follows it.
    private(set) var lastEnded: (app: Int, at: SimTime)? {
        didSet { transitionEnd = Self.end(of: transitionWindow, from: lastEnded?.at) }
    }
    /// When each app's recency term ends, and the previous-app term
    /// (`lastEnded` plus the window; `noTerm`: none): `mayBoost` reads
    /// them at every gain test, two comparisons.
    private(set) var recencyEnds: [SimTime] = []
    private(set) var transitionEnd = LaunchModel.noTerm
    /// The end of a term that is not on: before every time.
    static let noTerm = SimTime(microseconds: .min)
    /// Per app: a count bumped whenever its time-of-week rates may change
    /// (its launch, a new day), so what is derived from them
    /// (`LaunchHourTerms`) can tell when it is out of date.
    private(set) var revision: [UInt32] = []

    init(decay: Double, priorDays: Double, timeOfWeek: Bool, recencyWindow: SimDuration?,
         transitionWindow: SimDuration?) {
        self.decay = decay
        self.priorDays = priorDays
        self.timeOfWeek = timeOfWeek
        self.recencyWindow = recencyWindow
        self.transitionWindow = transitionWindow
        binsAreNumbers = Self.binsAreNumbers(timeOfWeek: timeOfWeek, priorDays: priorDays, weekdays: 0, weekendDays: 0)
    }

    private static func binsAreNumbers(timeOfWeek: Bool, priorDays: Double, weekdays: Double,
                                       weekendDays: Double) -> Bool {
        !timeOfWeek || (weekdays + priorDays > 0 && weekendDays + priorDays > 0)
    }

    private mutating func seenChanged() {
        binsAreNumbers = Self.binsAreNumbers(timeOfWeek: timeOfWeek, priorDays: priorDays, weekdays: weekdaysSeen,
                                             weekendDays: weekendDaysSeen)
    }

    /// The end of a window of `length` from `start`; `noTerm` if either is nil.
    private static func end(of length: SimDuration?, from start: SimTime?) -> SimTime {
        guard let length, let start else { return Self.noTerm }
        return start + length
    }

    static let bins = 48

    mutating func ensure(apps n: Int) {
        guard n > apps else { return }
        follows = follows.grownSquare(from: apps, to: n)
        counts += Array(repeating: 0, count: (n - apps) * Self.bins)
        totals += Array(repeating: 0, count: n - apps)
        maxCount += Array(repeating: 0, count: n - apps)
        lastLaunch += Array(repeating: nil, count: n - apps)
        recencyEnds += Array(repeating: Self.noTerm, count: n - apps)
        relaunches += Array(repeating: 0, count: n - apps)
        sessionsEnded += Array(repeating: 0, count: n - apps)
        revision += Array(repeating: 0, count: n - apps)
        apps = n
    }

    /// Advances to the day of `t`: every count decays once per day passed,
    /// and the new day counts as observed. Returns the number of days passed.
    mutating func roll(to t: SimTime) -> Int {
        guard currentDay < t.day else { return 0 }
        var passed = 0
        while currentDay < t.day {
            currentDay += 1
            if currentDay > 0 {
                for i in counts.indices { counts[i] *= decay }
                // Scaling keeps the order, so the largest stays the largest.
                for i in maxCount.indices { maxCount[i] *= decay }
                for i in totals.indices { totals[i] *= decay; relaunches[i] *= decay; sessionsEnded[i] *= decay }
                for i in follows.indices { follows[i] *= decay }
                weekdaysSeen *= decay
                weekendDaysSeen *= decay
            }
            for i in revision.indices { revision[i] &+= 1 }
            if SimTime(day: currentDay).isWeekend { weekendDaysSeen += 1 } else { weekdaysSeen += 1 }
            seenChanged()
            if currentDay > 0 { passed += 1 }
        }
        return passed
    }

    static func bin(_ t: SimTime) -> Int {
        (t.isWeekend ? 24 : 0) + Int(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour)
    }

    mutating func launched(app a: Int, at t: SimTime) {
        ensure(apps: a + 1)
        counts[a * Self.bins + Self.bin(t)] += 1
        maxCount[a] = max(maxCount[a], counts[a * Self.bins + Self.bin(t)])
        totals[a] += 1
        revision[a] &+= 1
        if let w = recencyWindow, let last = lastLaunch[a], t - last < w { relaunches[a] += 1 }
        lastLaunch[a] = t
        recencyEnds[a] = Self.end(of: recencyWindow, from: t)
        if let (b, end) = lastEnded, let g = transitionWindow, t - end < g, b < apps {
            follows[b * apps + a] += 1
        }
        lastEnded = nil
    }

    mutating func sessionEnded(app b: Int, at t: SimTime) {
        ensure(apps: b + 1)
        sessionsEnded[b] += 1
        lastEnded = (b, t)
    }

    /// The app's flat mean, launches per hour over the days observed.
    func meanRate(app a: Int) -> Double {
        let days = weekdaysSeen + weekendDaysSeen
        guard a < apps, days > 0 else { return 0 }
        return totals[a] / (24 * days)
    }

    /// The time-of-week rate of `app` at `t`, launches per hour.
    func baseRate(app a: Int, at t: SimTime) -> Double { baseRate(app: a, bin: Self.bin(t)) }

    /// The time-of-week rate of `app` in `bin` (`bin(_:)`: weekend bins from 24).
    func baseRate(app a: Int, bin: Int) -> Double { baseRate(app: a, bin: bin, mean: meanRate(app: a)) }

    /// `baseRate(app:bin:)` with the app's `meanRate` given: it is the same
    /// in every bin, so a walk over bins (`hourBounds`) works it out once.
    @inline(__always)
    func baseRate(app a: Int, bin: Int, mean: Double) -> Double {
        guard timeOfWeek, a < apps else { return mean }
        let seen = bin >= 24 ? weekendDaysSeen : weekdaysSeen
        return (counts[a * Self.bins + bin] + priorDays * mean) / (seen + priorDays)
    }

    /// At least `baseRate(app:at:)` at any time: the largest bin over the
    /// fewest days seen (each part moves the same way as in `baseRate`, and
    /// rounding keeps that order).
    @inline(__always)
    func maxBaseRate(app a: Int) -> Double {
        let mean = meanRate(app: a)
        guard timeOfWeek, a < apps else { return mean }
        return (maxCount[a] + priorDays * mean) / (min(weekdaysSeen, weekendDaysSeen) + priorDays)
    }

    /// The short-lived terms: each an extra rate (per hour) and when it ends.
    typealias Boosts = (recency: Double, recencyUntil: SimTime, previous: Double, previousUntil: SimTime)

    /// The short-lived terms of `app` at `t`: the recency term and the
    /// previous-app term, each an extra rate (per hour) and when it ends
    /// (a rate of 0 where off or not active).
    @inline(__always)
    func boosts(app a: Int, at t: SimTime) -> Boosts {
        var out = (0.0, SimTime.zero, 0.0, SimTime.zero)
        guard a < apps else { return out }
        if let w = recencyWindow, let last = lastLaunch[a], t - last < w, totals[a] > 0 {
            out.0 = relaunches[a] / totals[a] / w.inHours
            out.1 = last + w
        }
        if let g = transitionWindow, let (b, end) = lastEnded, t - end < g, b < apps, sessionsEnded[b] > 0 {
            out.2 = follows[b * apps + a] / sessionsEnded[b] / g.inHours
            out.3 = end + g
        }
        return out
    }

    /// Whether a short-lived term of `app` (< `apps`) may be on at `t`;
    /// false means `boosts` gives none. Why: most gain tests come with none
    /// on, and this answers that from two stored times, without the rates.
    @inline(__always)
    func mayBoost(app a: Int, at t: SimTime) -> Bool {
        t < recencyEnds[a] || t < transitionEnd
    }

    /// P(the next launch of `app` after `now` comes before the next update
    /// of its content), launches and updates as competing Poisson
    /// processes: launches at this model's rate, updates at
    /// `updatesPerHour`, over `horizon`, hour by hour (and at the end of
    /// each short-lived term).
    func launchBeforeUpdate(app a: Int, now: SimTime, updatesPerHour u: Double, horizon: SimDuration) -> Double {
        let extra = boosts(app: a, at: now)
        let end = now + horizon
        var t = now, survive = 1.0, p = 0.0
        while t < end && survive >= 1e-4 {
            let hour = Int64(t.timeOfDay.microseconds / SimDuration.microsecondsPerHour)
            var next = min(end, SimTime(day: t.day, plus: .hours(hour + 1)))
            var l = baseRate(app: a, at: t)
            if extra.recency > 0 && extra.recencyUntil > t { l += extra.recency; next = min(next, extra.recencyUntil) }
            if extra.previous > 0 && extra.previousUntil > t { l += extra.previous; next = min(next, extra.previousUntil) }
            let length = (next - t).inHours
            if l + u > 0 {
                let happens = -expm1(-(l + u) * length)
                p += survive * happens * l / (l + u)
                survive *= 1 - happens
            }
            t = next
        }
        return p
    }
}

extension SimDuration {
    /// This duration in hours.
    var inHours: Double { Double(microseconds) / Double(SimDuration.microsecondsPerHour) }
}

extension Array where Element == Double {
    /// This `old`×`old` app-by-app matrix (row-major: `self[b * old + a]`)
    /// grown to `n`×`n`, the new rows and columns zero: what `LaunchModel`
    /// and `LaunchTiming` do to their `follows` when a new app appears.
    func grownSquare(from old: Int, to n: Int) -> [Double] {
        var grown = Array(repeating: 0.0, count: n * n)
        for b in 0..<old { for a in 0..<old { grown[b * n + a] = self[b * old + a] } }
        return grown
    }
}
