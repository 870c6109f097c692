import SimCore

/// App Standby Buckets and QuotaController's job quotas applied on one
/// simulated Android device (Docs/AndroidPlatform.md A10–A13): every app's
/// bucket from its usage recency, the quota its jobs' run time on battery
/// uses up, the refusal while it is used up, the time it frees again and
/// the time a running job must stop. The pure models are ``AppStandby``,
/// ``ScreenOnClock`` and ``JobQuota`` (Docs/Android.md A1–A8); this type
/// only feeds them what the device does.
///
/// Owned by ``AndroidPlatform`` (nil when `device.android.buckets` is false).
struct BucketQuotas {
    let standbyRules: StandbyRules
    let table: JobQuotaTable
    /// The device's cumulative screen-on time (the screen thresholds' base).
    private(set) var screen: ScreenOnClock
    /// Per app, its last use.
    private(set) var standby: [AppStandby]
    /// Per app, its quota accounting.
    private(set) var quotas: [JobQuota]
    /// The app in the foreground at the last sync (its session's end is a use).
    private var foreground: Int32?
    /// The running job's app, and since when the quota tracks it (nil: the
    /// run is quota-free now, charging, or no job runs).
    private var runningApp: Int?
    private var trackedSince: SimTime?
    /// Whether the running job's first tracked stretch has been recorded
    /// (it carries the job; a later stretch after an unplug carries none).
    private var runningJobCounted = false
    /// When the running job uses up its app's quota (nil: no tracked run).
    private(set) var stopAt: SimTime?
    /// Per app out of quota, when it is in quota again (A12's decision
    /// point; `.distantFuture` for none). Set where the app's quota is
    /// used, at a run's end, never by a query: the run does not depend on
    /// what a policy asks.
    private var freeAt: [SimTime]
    /// Times a run left its app out of quota (runs.csv `quota_exhausted`):
    /// counted once per run, at its end (`jobEnded`), however many of its
    /// tracked stretches (split by the charger or the foreground) ended out
    /// of quota.
    private(set) var exhaustions = 0
    /// A tracked stretch of the running job ended with its app out of quota.
    private var runLeftOutOfQuota = false

    /// Every app counts as used at time 0 (assumption, A10: the trace
    /// starts with the user's apps installed and in use).
    init(apps: Int, table: JobQuotaTable, standbyRules: StandbyRules = StandbyRules(),
         at time: SimTime, screenOn: Bool) {
        self.standbyRules = standbyRules
        self.table = table
        screen = ScreenOnClock(screenOn: screenOn, at: time)
        standby = Array(repeating: AppStandby(lastUsed: time, screenOnAtLastUse: .zero), count: apps)
        quotas = Array(repeating: JobQuota(table: table), count: apps)
        freeAt = Array(repeating: .distantFuture, count: apps)
    }

    /// The bucket of `app` at `now` (the system's fallback assignment, A10).
    func bucket(of app: Int, at now: SimTime) -> StandbyBucket {
        standby[app].bucket(at: now, screen: screen, rules: standbyRules)
    }

    /// The execution time `app` has left at `now` in its bucket's window
    /// (QuotaController's `getRemainingExecutionTimeLocked`, what
    /// JobScheduler tells the app as a job's remaining time): the recorded
    /// sessions' time and the running job's tracked stretch so far taken
    /// from the bucket's allowed time and the 24 h maximum. Zero when out
    /// of quota. No side effect.
    func timeLeft(app: Int, at now: SimTime) -> SimDuration {
        let left = quotas[app].timeLeft(at: now, bucket: bucket(of: app, at: now))
        guard runningApp == app, let since = trackedSince, now > since else { return left }
        return max(.zero, left - (now - since))
    }

    /// Follows the device at `now`: the screen clock, a session's start
    /// and end (each a use, A10), the charger under a running job (A11:
    /// only run time on battery counts).
    mutating func sync(now: SimTime, state: DeviceState) {
        if screen.isOn != state.isScreenOn { screen.screenChanged(on: state.isScreenOn, at: now) }
        if state.foregroundApp != foreground {
            if let old = foreground { standby[Int(old)].used(at: now, screen: screen) }
            if let new = state.foregroundApp { standby[Int(new)].used(at: now, screen: screen) }
            foreground = state.foregroundApp
        }
        guard let app = runningApp else { return }
        // The app coming to the foreground ends the tracked stretch as a
        // plug-in does, its session's end starts a new one (A11: jobs of
        // the top app are not counted).
        let free = JobQuotaTable.isQuotaFree(bucket: bucket(of: app, at: now), charging: state.isCharging,
                                             foreground: state.foregroundApp == Int32(app))
        if free, trackedSince != nil {
            closeTrackedStretch(at: now)
        } else if !free, trackedSince == nil {
            trackedSince = now
            stopAt = now + quotas[app].timeUntilQuotaConsumed(at: now, bucket: bucket(of: app, at: now))
        }
    }

    /// A job of `app` starts at `now`: tracked unless quota-free (A11).
    mutating func jobStarted(app: Int, at now: SimTime, charging: Bool) {
        runningApp = app
        runningJobCounted = false
        runLeftOutOfQuota = false
        trackedSince = nil
        stopAt = nil
        let b = bucket(of: app, at: now)
        guard !JobQuotaTable.isQuotaFree(bucket: b, charging: charging) else { return }
        trackedSince = now
        stopAt = now + quotas[app].timeUntilQuotaConsumed(at: now, bucket: b)
    }

    /// The running job ended at `now`: its tracked run time is charged (A11).
    mutating func jobEnded(at now: SimTime) {
        if trackedSince != nil { closeTrackedStretch(at: now) }
        if runLeftOutOfQuota { exhaustions += 1 }
        runLeftOutOfQuota = false
        runningApp = nil
    }

    private mutating func closeTrackedStretch(at now: SimTime) {
        guard let app = runningApp, let since = trackedSince else { return }
        quotas[app].record(start: since, end: now, jobs: runningJobCounted ? 0 : 1)
        runningJobCounted = true
        trackedSince = nil
        stopAt = nil
        let b = bucket(of: app, at: now)
        if !quotas[app].isInQuota(at: now, bucket: b) {
            runLeftOutOfQuota = true
            freeAt[app] = quotas[app].nextInQuota(at: now, bucket: b)
            return
        }
        // In quota now, but the next bucket change (a smaller quota) may
        // put it out: then the time that frees it is the decision point.
        let change = standby[app].nextChange(after: now, screen: screen, rules: standbyRules)
        guard change != .distantFuture else { return }
        let lower = bucket(of: app, at: change)
        if !quotas[app].isInQuota(at: change, bucket: lower) {
            freeAt[app] = quotas[app].nextInQuota(at: change, bucket: lower)
        }
    }

    /// Whether `app`'s quota holds a job back at `now` (A12): not while
    /// charging (except restricted), nor for the foreground app; otherwise
    /// while QuotaController says it is out of quota. No side effect: a
    /// policy may ask as often as it likes without changing the run.
    func refuses(app: Int, at now: SimTime, state: DeviceState) -> Bool {
        let b = bucket(of: app, at: now)
        if JobQuotaTable.isQuotaFree(bucket: b, charging: state.isCharging,
                                     foreground: state.foregroundApp == Int32(app)) { return false }
        return !quotas[app].isInQuota(at: now, bucket: b)
    }

    /// The earliest time after `now` an app out of quota is in quota
    /// again (`.distantFuture`: none). A time that has passed is worked out
    /// again if the app is still out of quota (its bucket dropped before
    /// the quota freed, so a smaller quota holds it: A12), else forgotten.
    mutating func nextFree(after now: SimTime) -> SimTime {
        var next = SimTime.distantFuture
        for i in freeAt.indices where freeAt[i] != .distantFuture {
            if freeAt[i] <= now {
                let b = bucket(of: i, at: now)
                let again = quotas[i].isInQuota(at: now, bucket: b) ? .distantFuture : quotas[i].nextInQuota(at: now, bucket: b)
                freeAt[i] = again > now ? again : .distantFuture
            }
            next = min(next, freeAt[i])
        }
        return next
    }
}
