import SimCore

// Silent push on Android is a Firebase Cloud Messaging data message
// (Docs/AndroidPlatform.md A15): the same servers' pushes, the same
// channel (one held push per app, later ones folded into it), but FCM's
// rules instead of iOS's throttle and gates.

extension SilentPushRules {
    /// The channel's rules on Android: no token bucket (FCM has no per-app
    /// hourly budget; the high-priority caps are ``AndroidPlatform``'s).
    /// The handler's budget stays `handlerBudget`.
    var withoutThrottle: SilentPushRules {
        var r = self
        // Finite, so the channel's refill arithmetic stays finite; a
        // billion tokens an hour never run out in a simulated run.
        r.burst = 1e9
        r.perHour = 1e9
        return r
    }
}

extension AndroidPlatform {
    /// Whether FCM delivers a message to `app` at `now` (A15): a
    /// high-priority one at once, Doze or not, unless its bucket's daily
    /// cap (Android ≤ 12 only) is reached, when it is a normal one; a
    /// normal one unless Doze defers background work (it waits for the
    /// next maintenance window, or the screen or charger ending Doze).
    func fcmDeliversNow(app: Int, at now: SimTime, state: DeviceState) -> Bool {
        if rules.fcmPriority == .high && !fcmCapReached(app: app, at: now) { return true }
        return !dozeDefers(at: now, state: state)
    }

    /// A message to `app` was delivered at `now` (counted against the
    /// high-priority cap when it went as high priority).
    func fcmDelivered(app: Int, at now: SimTime) {
        guard rules.fcmPriority == .high, !fcmCapReached(app: app, at: now) else { return }
        fcmHighPriority[app].append(now)
    }

    /// The app's bucket has a high-priority cap (FCMRules, A15) and its
    /// deliveries in the last 24 h reached it.
    func fcmCapReached(app: Int, at now: SimTime) -> Bool {
        guard let bucket = bucket(of: app, at: now), let cap = fcmRules.dailyCap(for: bucket) else { return false }
        return fcmHighPriority[app].filter { $0 > now - .days(1) }.count >= cap
    }
}
