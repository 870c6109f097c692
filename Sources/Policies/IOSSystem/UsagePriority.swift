import SimCore

/// The usage factor of `ios-system`: how likely the user is to open each app
/// around the current time of day, learnt from `.launch` observations.
///
/// Source: WWDC 2020 "Background execution demystified" (session 10063),
/// factor "app usage": the system favours the apps the user uses the most
/// at the current time of day; Apple's Background Fetch
/// documentation (Docs/References.md) says iOS "analyses when the user usually opens the
/// app, how long it is used and how often the user returns". How long a
/// session lasts is not modelled (a policy observes launches and session
/// ends, but the priority here counts launches only: an assumption).
///
/// Model: each launch adds 1 to the app's counter for its hour of the day;
/// every counter, and the number of days observed, decays by `decay` per
/// day. The priority of an app at `t` is the larger of the decayed launch
/// rate of the hour containing `t` and of the next hour (so the app is
/// refreshed *before* its usual use), capped at 1: about "the probability
/// that the user opens the app in this hour". An app never launched has
/// priority 0 and gets no refresh opportunity.
///
/// Parameters:
/// - `decay` (number, per day, range 0…1, default 0.9; assumption: Apple
///   publishes no learning rate): the weight of yesterday's launches.
/// - the slot is one hour (fixed; assumption).
public struct UsagePriority: Sendable, Hashable {
    public var decay: Double
    /// counts[app * 24 + hour]: decayed launches in that hour of the day.
    var counts: [Double] = []
    /// Decayed number of days observed (the denominator of a rate).
    var daysSeen = 0.0
    var currentDay = -1
    /// When each app was last launched (nil: never), for processing placement.
    var lastLaunch: [SimTime?] = []

    public init(decay: Double = 0.9) { self.decay = decay }

    mutating func ensure(apps: Int) {
        while lastLaunch.count < apps {
            counts.append(contentsOf: repeatElement(0, count: 24))
            lastLaunch.append(nil)
        }
    }

    /// Advances the day counter to the day of `t`, decaying the past.
    mutating func roll(to t: SimTime) {
        while currentDay < t.day {
            currentDay += 1
            if currentDay > 0 {
                daysSeen *= decay
                for i in counts.indices { counts[i] *= decay }
            }
            daysSeen += 1
        }
    }

    /// The user opened `app` at `t`.
    public mutating func recordLaunch(app: Int, at t: SimTime) {
        ensure(apps: app + 1)
        roll(to: t)
        counts[app * 24 + Self.hour(t)] += 1
        lastLaunch[app] = t
    }

    static func hour(_ t: SimTime) -> Int { min(23, Int(t.timeOfDay.microseconds / SimDuration.hours(1).microseconds)) }

    /// The app's priority at `t`, in [0, 1].
    public func priority(app: Int, at t: SimTime) -> Double {
        guard app < lastLaunch.count, daysSeen > 0 else { return 0 }
        let h = Self.hour(t)
        let here = counts[app * 24 + h], next = counts[app * 24 + (h + 1) % 24]
        return min(1, max(here, next) / daysSeen)
    }

    /// The start of the next hour after `t`: when priorities next change
    /// (other than by a launch, which is a decision point anyway).
    static func nextHour(after t: SimTime) -> SimTime {
        SimTime(day: t.day, plus: .hours(Int64(hour(t) + 1)))
    }

    /// When `app` was last launched (nil: never).
    public func lastLaunch(app: Int) -> SimTime? { app < lastLaunch.count ? lastLaunch[app] : nil }
}
