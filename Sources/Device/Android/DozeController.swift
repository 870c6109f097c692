import SimCore

/// Deep Doze's states (AOSP `DeviceIdleController.STATE_*`; SENSING and
/// LOCATING are folded into `idlePending`: a stationary phone passes them
/// in `DozeRules.stationaryCheck`).
public enum DeepDozeState: String, Sendable, Hashable, Codable {
    /// Screen on or charging.
    case active
    case inactive
    case idlePending = "idle-pending"
    case idle
    case maintenance
}

/// Light Doze's states (AOSP `LIGHT_STATE_*`).
public enum LightDozeState: String, Sendable, Hashable, Codable {
    case active
    case inactive
    case idle
    case maintenance
    /// Deep Doze took over (`LIGHT_STATE_OVERRIDE`).
    case overridden
}

/// Doze at one instant: both machines' states and until when they hold.
public struct DozePhase: Sendable, Hashable {
    public var deep: DeepDozeState
    public var light: LightDozeState
    /// When the phase started (for a quiet device; the quiet start for the first phases).
    public var since: SimTime
    /// When it next changes if the device stays quiet (`.distantFuture`: never).
    public var until: SimTime

    /// Screen on or charging: no Doze.
    public static func awake(since: SimTime) -> DozePhase {
        DozePhase(deep: .active, light: .active, since: since, until: .distantFuture)
    }

    /// Jobs, syncs and (non-exempt) network access are deferred now: deep
    /// or light idle (rules A10, A11).
    public var defersBackgroundWork: Bool { deep == .idle || light == .idle }
    /// In a maintenance window: deferred work runs (rule A12).
    public var isMaintenanceWindow: Bool { deep == .maintenance || light == .maintenance }
    /// In deep Doze (idle or its maintenance windows).
    public var isDeep: Bool { deep == .idle || deep == .maintenance }
}

/// One maintenance window.
public struct DozeWindow: Sendable, Hashable {
    public var start: SimTime
    public var end: SimTime
    /// A deep (true) or light maintenance window.
    public var deep: Bool
}

/// Doze as a pure function of how long the device has been quiet: screen
/// off, unplugged and (by assumption) not moving since `quietSince`. Deep
/// Doze: inactive for `inactiveTimeout`, idle-pending for
/// `idleAfterInactiveTimeout` (+ `stationaryCheck`), then idle periods of
/// 1 h, 2 h, 4 h, 6 h, 6 h … each followed by a maintenance window of
/// 5 min, 10 min, 10 min …; light Doze meanwhile: inactive for
/// `lightIdleAfterInactiveTimeout`, then idle 5, 10, 15, 15 … min with
/// 1 min windows, until deep idle overrides it. Screen on or plugging in
/// ends all of it; the next quiet period starts from scratch (AOSP
/// `becomeActiveLocked` resets both machines). Docs/Android.md, rules A9–A12.
public struct DozeTimeline: Sendable, Hashable {
    public let rules: DozeRules

    public init(rules: DozeRules) {
        self.rules = rules
    }

    /// The phase at `now` of a device quiet since `quietSince` (`now` not earlier).
    public func phase(quietSince t0: SimTime, at now: SimTime) -> DozePhase {
        let e = now - t0
        let deepIdleAt = rules.deepIdleAfter
        if rules.deepEnabled && e >= deepIdleAt {
            let (state, start, end) = deepCycle(at: e)
            return DozePhase(deep: state, light: rules.lightEnabled ? .overridden : .active,
                             since: t0 + start, until: end == nil ? .distantFuture : t0 + end!)
        }
        var deep = DeepDozeState.active
        var deepStart = SimDuration.zero
        var deepEnd: SimDuration? = nil
        if rules.deepEnabled {
            if e < rules.inactiveTimeout {
                deep = .inactive
                deepEnd = rules.inactiveTimeout
            } else {
                deep = .idlePending
                deepStart = rules.inactiveTimeout
                deepEnd = deepIdleAt
            }
        }
        var light = LightDozeState.active
        var lightStart = SimDuration.zero
        var lightEnd: SimDuration? = nil
        if rules.lightEnabled {
            (light, lightStart, lightEnd) = lightCycle(at: e)
            // Deep idle ends light Doze's cycle where it stands.
            if rules.deepEnabled, let end = lightEnd, end > deepIdleAt { lightEnd = deepIdleAt }
        }
        let until = [deepEnd, lightEnd].compactMap { $0 }.min()
        return DozePhase(deep: deep, light: light, since: t0 + max(deepStart, lightStart),
                         until: until.map { t0 + $0 } ?? .distantFuture)
    }

    /// Deep idle's state at quiet time `e` (>= deepIdleAfter), with the
    /// quiet times its segment starts and ends.
    private func deepCycle(at e: SimDuration) -> (DeepDozeState, SimDuration, SimDuration?) {
        var t = rules.deepIdleAfter
        var d = rules.idleTimeout
        var m = rules.idlePendingTimeout
        while true {
            if rules.nextIdle(d) == d && rules.nextPending(m) == m {
                // Steady cycle from here: skip whole periods at once.
                let period = d + m
                let k = (e - t).microseconds / period.microseconds
                t = t + period * k
            }
            if e < t + d { return (.idle, t, t + d) }
            t = t + d
            if e < t + m { return (.maintenance, t, t + m) }
            t = t + m
            d = rules.nextIdle(d)
            m = rules.nextPending(m)
        }
    }

    /// Light Doze's state at quiet time `e`, with its segment's start and end.
    private func lightCycle(at e: SimDuration) -> (LightDozeState, SimDuration, SimDuration?) {
        var t = rules.lightIdleAfterInactiveTimeout
        if e < t { return (.inactive, .zero, t) }
        var d = rules.lightIdleTimeout
        let m = rules.lightMaintenance
        while true {
            if rules.nextLightIdle(d) == d {
                let period = d + m
                t = t + period * ((e - t).microseconds / period.microseconds)
            }
            if e < t + d { return (.idle, t, t + d) }
            t = t + d
            if e < t + m { return (.maintenance, t, t + m) }
            t = t + m
            d = rules.nextLightIdle(d)
        }
    }

    /// The maintenance windows that start in [from, to) for a device quiet
    /// since `quietSince` and staying quiet (a window under way at `from`
    /// is included from its start).
    public func maintenanceWindows(quietSince t0: SimTime, from: SimTime, to: SimTime) -> [DozeWindow] {
        var out: [DozeWindow] = []
        var p = phase(quietSince: t0, at: max(from, t0))
        while true {
            if p.isMaintenanceWindow && p.since < to {
                out.append(DozeWindow(start: p.since, end: p.until, deep: p.deep == .maintenance))
            }
            if p.until >= to || p.until == .distantFuture { break }
            p = phase(quietSince: t0, at: p.until)
        }
        return out
    }

    /// The start of the first maintenance window at or after `now` (now
    /// itself while in one; `.distantFuture` if none comes while quiet):
    /// when deferred work of a dozing device runs next.
    public func nextMaintenanceStart(quietSince t0: SimTime, at now: SimTime) -> SimTime {
        var p = phase(quietSince: t0, at: max(now, t0))
        while !p.isMaintenanceWindow {
            if p.until == .distantFuture { return .distantFuture }
            p = phase(quietSince: t0, at: p.until)
        }
        return max(now, p.since)
    }
}

/// Doze driven by its inputs: the simulator reports screen and charger
/// changes; the controller keeps when the current quiet period began and
/// answers from ``DozeTimeline``. Owns only that.
public struct DozeController: Sendable, Hashable {
    public let timeline: DozeTimeline
    public private(set) var screenOn: Bool
    public private(set) var charging: Bool
    /// Since when the device is quiet (nil: screen on or charging), or,
    /// while not quiet, since when it is awake (`awakeSince`).
    public private(set) var quietSince: SimTime?
    public private(set) var awakeSince: SimTime

    public init(rules: DozeRules, at time: SimTime, screenOn: Bool, charging: Bool) {
        timeline = DozeTimeline(rules: rules)
        self.screenOn = screenOn
        self.charging = charging
        quietSince = !screenOn && !charging ? time : nil
        awakeSince = time
    }

    public mutating func screenChanged(on: Bool, at time: SimTime) {
        screenOn = on
        inputsChanged(at: time)
    }

    public mutating func chargingChanged(_ on: Bool, at time: SimTime) {
        charging = on
        inputsChanged(at: time)
    }

    private mutating func inputsChanged(at time: SimTime) {
        let quiet = !screenOn && !charging
        if quiet && quietSince == nil {
            quietSince = time
        } else if !quiet && quietSince != nil {
            quietSince = nil
            awakeSince = time
        }
    }

    /// The phase at `now` (not earlier than the last input change).
    public func phase(at now: SimTime) -> DozePhase {
        guard let t0 = quietSince else { return .awake(since: awakeSince) }
        return timeline.phase(quietSince: t0, at: now)
    }

    /// When the phase next changes if the inputs do not (`.distantFuture`: never).
    public func nextTransition(after now: SimTime) -> SimTime { phase(at: now).until }

    /// When deferred work runs next: now if Doze defers nothing now, else
    /// the next maintenance window's start (or screen on / plug in, which
    /// the simulator sees as an input change).
    public func nextRunOpportunity(at now: SimTime) -> SimTime {
        guard let t0 = quietSince else { return now }
        let p = timeline.phase(quietSince: t0, at: now)
        return p.defersBackgroundWork ? timeline.nextMaintenanceStart(quietSince: t0, at: now) : now
    }
}
