import SimCore
import Traces

/// An Android app's standby bucket (AOSP `UsageStatsManager.STANDBY_BUCKET_*`):
/// how much background work the system lets it do. Ordered from the most
/// to the least allowed, as AOSP's bucket values are (10, 20, 30, 40, 45, 50;
/// exempted is 5). Docs/Android.md, rules A1–A3.
public enum StandbyBucket: Int, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// System and allow-listed apps (`STANDBY_BUCKET_EXEMPTED`, 5): never
    /// assigned from usage here; a simulated app is in it only if the caller
    /// puts it there.
    case exempted = 5
    /// Used very recently (`STANDBY_BUCKET_ACTIVE`, 10).
    case active = 10
    /// In regular use (`STANDBY_BUCKET_WORKING_SET`, 20).
    case workingSet = 20
    /// Used often but not daily (`STANDBY_BUCKET_FREQUENT`, 30).
    case frequent = 30
    /// Rarely used (`STANDBY_BUCKET_RARE`, 40).
    case rare = 40
    /// Unused for long (or misbehaving) (`STANDBY_BUCKET_RESTRICTED`, 45).
    case restricted = 45
    /// Installed and never used (`STANDBY_BUCKET_NEVER`, 50): AOSP's
    /// `AppIdleHistory.getThresholdIndex` returns -1 for an app with no usage
    /// history, and QuotaController allows it no job time at all.
    case never = 50

    public static func < (a: StandbyBucket, b: StandbyBucket) -> Bool { a.rawValue < b.rawValue }

    /// The name used in outputs and specs (`working-set`).
    public var name: String {
        switch self {
        case .exempted: "exempted"
        case .active: "active"
        case .workingSet: "working-set"
        case .frequent: "frequent"
        case .rare: "rare"
        case .restricted: "restricted"
        case .never: "never"
        }
    }
}

/// The thresholds of the system's fallback bucket assignment (no
/// prediction app): AOSP `AppStandbyController.DEFAULT_ELAPSED_TIME_THRESHOLDS`
/// and `DEFAULT_SCREEN_TIME_THRESHOLDS`, read with `THRESHOLD_BUCKETS`
/// (active, working set, frequent, rare, restricted) by
/// `AppIdleHistory.getThresholdIndex`: an app is in the LEAST active bucket
/// whose two thresholds are both reached, where "elapsed" is the time since
/// the app's last use and "screen" the screen-on time since it. JSON key
/// `device.android.standby` (``AndroidWorkRules/standby``). Docs/Android.md, rule A2.
public struct StandbyRules: DeclaredParameters, Hashable {
    /// Elapsed time since last use from which the app is in working set
    /// (index 1; screen threshold 0).
    public var workingSetAfter: SimDuration = .hours(12)
    /// Elapsed time since last use from which the app is frequent (index 2)...
    public var frequentAfter: SimDuration = .hours(24)
    /// ...once the screen has also been on this long since that use.
    public var frequentAfterScreenOn: SimDuration = .hours(1)
    /// Elapsed time since last use from which the app is rare (index 3)...
    public var rareAfter: SimDuration = .hours(48)
    /// ...once the screen has also been on this long since that use.
    public var rareAfterScreenOn: SimDuration = .hours(2)
    /// Elapsed time since last use from which the app is restricted (index 4)...
    public var restrictedAfter: SimDuration = .days(8)
    /// ...once the screen has also been on this long since that use.
    public var restrictedAfterScreenOn: SimDuration = .hours(6)
    /// Whether an unused app times out into restricted at all (false: rare
    /// is the lowest bucket reached by timeout, as before the restricted
    /// bucket existed, Android 9–10).
    public var timesOutToRestricted = true
    /// After a use the app stays active at least this long whatever the
    /// thresholds say (`ConstantsObserver.DEFAULT_STRONG_USAGE_TIMEOUT`,
    /// the expiry `reportEventLocked` gives a user interaction). With the
    /// default thresholds (active for 12 h) it never decides anything; it
    /// is kept so that a spec lowering `workingSetAfter` below it behaves
    /// as AOSP does.
    public var strongUsageTimeout: SimDuration = .hours(1)

    public init() {}

    static let aosp = "AOSP AppStandbyController"

    public static let parameters: [Parameter<StandbyRules>] = [
        .duration("workingSetAfter", \.workingSetAfter, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_ELAPSED_TIME_THRESHOLDS[1] (12 h)"),
        .duration("frequentAfter", \.frequentAfter, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_ELAPSED_TIME_THRESHOLDS[2] (24 h)"),
        .duration("frequentAfterScreenOn", \.frequentAfterScreenOn, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_SCREEN_TIME_THRESHOLDS[2] (1 h)"),
        .duration("rareAfter", \.rareAfter, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_ELAPSED_TIME_THRESHOLDS[3] (48 h)"),
        .duration("rareAfterScreenOn", \.rareAfterScreenOn, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_SCREEN_TIME_THRESHOLDS[3] (2 h)"),
        .duration("restrictedAfter", \.restrictedAfter, .seconds(0, 60 * 86_400),
                  source: "\(aosp).DEFAULT_ELAPSED_TIME_THRESHOLDS[4] (8 days)"),
        .duration("restrictedAfterScreenOn", \.restrictedAfterScreenOn, .seconds(0, 30 * 86_400),
                  source: "\(aosp).DEFAULT_SCREEN_TIME_THRESHOLDS[4] (6 h)"),
        .flag("timesOutToRestricted", \.timesOutToRestricted,
              source: "\(aosp).THRESHOLD_BUCKETS ends with STANDBY_BUCKET_RESTRICTED (Android 11+)"),
        .duration("strongUsageTimeout", \.strongUsageTimeout, .seconds(0, 86_400),
                  source: "\(aosp).ConstantsObserver.DEFAULT_STRONG_USAGE_TIMEOUT (1 h)"),
    ]

    /// The thresholds must not decrease from one bucket to the next, or the
    /// "least active bucket whose thresholds are reached" would skip buckets.
    public var crossFieldProblem: (key: String, message: String)? {
        let elapsed = [workingSetAfter, frequentAfter, rareAfter, restrictedAfter]
        for i in 1..<elapsed.count where elapsed[i] < elapsed[i - 1] {
            let keys = ["workingSetAfter", "frequentAfter", "rareAfter", "restrictedAfter"]
            return (keys[i], "must be at least \(keys[i - 1]) (\(elapsed[i - 1])); got \(elapsed[i])")
        }
        let screen = [frequentAfterScreenOn, rareAfterScreenOn, restrictedAfterScreenOn]
        for i in 1..<screen.count where screen[i] < screen[i - 1] {
            let keys = ["frequentAfterScreenOn", "rareAfterScreenOn", "restrictedAfterScreenOn"]
            return (keys[i], "must be at least \(keys[i - 1]) (\(screen[i - 1])); got \(screen[i])")
        }
        return nil
    }

    /// The (bucket, elapsed threshold, screen threshold) rows, most active first.
    var rows: [(bucket: StandbyBucket, elapsed: SimDuration, screen: SimDuration)] {
        var r: [(bucket: StandbyBucket, elapsed: SimDuration, screen: SimDuration)] = [
            (.active, .zero, .zero), (.workingSet, workingSetAfter, .zero),
            (.frequent, frequentAfter, frequentAfterScreenOn), (.rare, rareAfter, rareAfterScreenOn),
        ]
        if timesOutToRestricted { r.append((.restricted, restrictedAfter, restrictedAfterScreenOn)) }
        return r
    }

    /// The bucket of an app last used `sinceUse` ago, with the screen on for
    /// `screenOnSinceUse` of that time: the least active row whose two
    /// thresholds are reached, but active within `strongUsageTimeout` of
    /// the use.
    public func bucket(sinceUse: SimDuration, screenOnSinceUse: SimDuration) -> StandbyBucket {
        if sinceUse < strongUsageTimeout { return .active }
        for row in rows.reversed() where sinceUse >= row.elapsed && screenOnSinceUse >= row.screen {
            return row.bucket
        }
        return .active
    }
}

/// The device's cumulative screen-on time (AOSP `AppIdleHistory`'s
/// "screen on time base"): what the bucket thresholds on screen time are
/// measured on. One per device, moved by the simulator at every screen change.
public struct ScreenOnClock: Sendable, Hashable {
    /// Screen-on time before `onSince` (or in total, while off).
    public private(set) var accumulated: SimDuration = .zero
    /// Since when the screen is on (nil: off).
    public private(set) var onSince: SimTime?

    /// A clock at zero at `time`, the screen on or off.
    public init(screenOn: Bool, at time: SimTime) {
        onSince = screenOn ? time : nil
    }

    /// The screen turned on or off at `time` (a repeated state is no change).
    public mutating func screenChanged(on: Bool, at time: SimTime) {
        if on {
            if onSince == nil { onSince = time }
        } else if let s = onSince {
            accumulated = accumulated + (time - s)
            onSince = nil
        }
    }

    public var isOn: Bool { onSince != nil }

    /// Total screen-on time up to `time` (not before the last change).
    public func total(at time: SimTime) -> SimDuration {
        onSince.map { accumulated + (time - $0) } ?? accumulated
    }

    /// When the total reaches `target`, if the screen stays as it is from
    /// `now`: `now` if already reached, nil if the screen is off and it is not.
    public func time(whenTotalReaches target: SimDuration, from now: SimTime) -> SimTime? {
        let t = total(at: now)
        if t >= target { return now }
        return isOn ? now + (target - t) : nil
    }
}

/// One app's standby state under the fallback assignment: its last use
/// and the screen-on total at that use. The bucket is a function of the
/// time since and the screen-on time since (``StandbyRules/bucket(sinceUse:screenOnSinceUse:)``);
/// a use (a session: the app in the foreground) puts it back in active.
/// Docs/Android.md, rules A1–A3.
public struct AppStandby: Sendable, Hashable {
    /// The app's last use (nil: never used, bucket `.never`).
    public private(set) var lastUsed: SimTime?
    /// The screen clock's total at `lastUsed`.
    public private(set) var screenOnAtLastUse: SimDuration = .zero

    /// An app never used.
    public init() {}

    /// An app last used at `lastUsed` with the screen clock at `screenOnAtLastUse`.
    public init(lastUsed: SimTime, screenOnAtLastUse: SimDuration) {
        self.lastUsed = lastUsed
        self.screenOnAtLastUse = screenOnAtLastUse
    }

    /// The user used the app at `time` (a foreground session; AOSP's
    /// `reportEventLocked` for ACTIVITY_RESUMED / USER_INTERACTION). A
    /// session's whole span counts as use: call this at its start and at its end.
    public mutating func used(at time: SimTime, screen: ScreenOnClock) {
        lastUsed = time
        screenOnAtLastUse = screen.total(at: time)
    }

    /// The bucket at `time` (not before the last use).
    public func bucket(at time: SimTime, screen: ScreenOnClock, rules: StandbyRules) -> StandbyBucket {
        guard let used = lastUsed else { return .never }
        return rules.bucket(sinceUse: time - used, screenOnSinceUse: screen.total(at: time) - screenOnAtLastUse)
    }

    /// The next time after `now` at which the bucket changes, if there is
    /// no use meanwhile and the screen stays as it is at `now`
    /// (`.distantFuture`: never, e.g. the lowest bucket reached, or the
    /// screen off and the next row waiting on screen time). The simulator
    /// schedules it and asks again after every screen change.
    public func nextChange(after now: SimTime, screen: ScreenOnClock, rules: StandbyRules) -> SimTime {
        guard let used = lastUsed else { return .distantFuture }
        let current = bucket(at: now, screen: screen, rules: rules)
        var best = SimTime.distantFuture
        // The bucket only moves down with time, so the next change is the
        // earliest time some less active row's two thresholds both hold.
        var candidates: [(elapsed: SimDuration, screen: SimDuration)] =
            rules.rows.filter { $0.bucket > current }.map { (elapsed: $0.elapsed, screen: $0.screen) }
        candidates.append((elapsed: rules.strongUsageTimeout, screen: SimDuration.zero))
        for row in candidates {
            let byElapsed = used + row.elapsed
            guard let byScreen = screen.time(whenTotalReaches: screenOnAtLastUse + row.screen, from: now) else { continue }
            // The screen threshold, if reached later than now, is reached
            // while the screen stays on; the elapsed one whatever it does.
            let t = max(byElapsed, byScreen)
            if t > now && t < best && rules.bucket(sinceUse: t - used,
                                                   screenOnSinceUse: screen.total(at: t) - screenOnAtLastUse) != current {
                best = t
            }
        }
        return best
    }
}
