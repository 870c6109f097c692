import SimCore

/// Android's rules on one simulated device (`device.platform: "android"`):
/// the one home of "may this request run now, and when might that change"
/// on Android, in place of iOS's ``EligibilityRules`` (Docs/AndroidPlatform.md).
///
/// The simulator keeps one (nil on iOS, so nothing here runs there) and
/// brings it up to date at every step (``sync(now:state:)``); the policy's
/// context holds the same instance, so a policy asking
/// `PolicyContext.refusal(for:)` gets Android's answer, and can read what
/// the OS tells it (``screenOffSince``, ``deviceIdle(at:)``).
///
/// A class, read by the policy through its context without a copy; it
/// belongs to one device's simulation, which runs on one thread, and only
/// the simulator (this module) writes it.
public final class AndroidPlatform: @unchecked Sendable {
    /// The constants (JSON `device.android`).
    public let rules: AndroidWorkRules
    /// Periodic intervals, flex and backoff as closed forms.
    public let timing: WorkRequestTiming
    /// Since when the screen has been off (nil: on).
    public private(set) var screenOffSince: SimTime?
    /// Per app, the failed runs of its refresh since its last success
    /// (the backoff's attempt count).
    var failedAttempts: [Int]
    /// The next time a rule of this platform changes its answer without
    /// any other event of the device (`.farFuture`: none): a decision
    /// point on the loop's agenda.
    private(set) var nextEventTime: SimTime = SimTime(microseconds: .max)
    /// Doze's timings (Docs/Android.md A9–A11; `device.android.dozeTimings`).
    public let dozeRules: DozeRules
    /// Doze, driven by the screen and charger this platform sees at each
    /// ``sync(now:state:)`` (nil before the first).
    public private(set) var doze: DozeController?
    /// Standby buckets and job quotas (A10–A13; nil with
    /// `device.android.buckets` false, or before the first sync).
    private(set) var quotas: BucketQuotas?
    private let apps: Int
    /// What Doze and the quotas did (runs.csv's Android columns).
    private(set) var metrics = AndroidMetrics()
    /// Doze's phase at the last sync (a window opening is counted).
    private var lastPhase: DozePhase?
    /// The running job started in a maintenance window.
    private var runStartedInWindow = false
    /// What events.csv shows of this platform, kept until the simulator
    /// logs it (only when ``logs`` is set: a run with an event sink).
    var logs = false
    /// FCM's high-priority caps (`device.android.fcm`: Android ≤ 12's with
    /// `quotaTable` `android-12`, none later) and each app's high-priority deliveries.
    let fcmRules: FCMRules
    var fcmHighPriority: [[SimTime]]
    private(set) var log: [(kind: DeviceEvent.Kind, app: Int32, detail: String)] = []

    init(rules: AndroidWorkRules, apps: Int) {
        self.rules = rules
        self.timing = WorkRequestTiming(rules: rules)
        self.failedAttempts = Array(repeating: 0, count: apps)
        self.dozeRules = rules.dozeTimings
        self.apps = apps
        self.fcmRules = rules.fcm
        self.fcmHighPriority = Array(repeating: [], count: apps)
    }

    /// The standby bucket of `app` at `now` (A10; nil with buckets off):
    /// what the OS tells a policy.
    public func bucket(of app: Int, at now: SimTime) -> StandbyBucket? {
        quotas?.bucket(of: app, at: now)
    }

    /// The job execution time `app` has left at `now` before its bucket's
    /// quota is used up (A11; nil with buckets off): what the OS tells a
    /// policy, whether or not the quota applies now (charging and the
    /// foreground app are quota-free, A12: ``refusal(for:at:state:)`` says so).
    public func quotaLeft(of app: Int, at now: SimTime) -> SimDuration? {
        quotas?.timeLeft(app: app, at: now)
    }

    /// Follows the device's state at `now` (called after every step of the
    /// loop and before each use): the screen-off clock, Doze's inputs, and
    /// the next time an answer changes.
    func sync(now: SimTime, state: DeviceState) {
        if rules.buckets {
            if quotas == nil {
                quotas = BucketQuotas(apps: apps, table: rules.jobQuota, standbyRules: rules.standby,
                                      at: now, screenOn: state.isScreenOn)
            }
            quotas!.sync(now: now, state: state)
        }
        syncDoze(now: now, state: state)
        if state.isScreenOn {
            screenOffSince = nil
        } else if screenOffSince == nil {
            screenOffSince = now
        }
        var next = SimTime(microseconds: .max)
        if let off = screenOffSince {
            let idle = off + rules.idleThreshold
            if idle > now { next = min(next, idle) }
        }
        // Doze's next phase change (a window opening or closing) is a
        // decision point: deferred work starts when a window opens.
        if let d = doze { next = min(next, d.nextTransition(after: now)) }
        // A12: an app out of quota is in quota again; A13: a running job
        // uses up its app's quota.
        if quotas != nil {
            next = min(next, quotas!.nextFree(after: now))
            if let stop = quotas!.stopAt { next = min(next, max(stop, now)) }
        }
        nextEventTime = next
    }

    /// Doze follows the screen and charger (not at all with `device.android.doze` false).
    private func syncDoze(now: SimTime, state: DeviceState) {
        guard rules.doze else { return }
        if var d = doze {
            if d.screenOn != state.isScreenOn { d.screenChanged(on: state.isScreenOn, at: now) }
            if d.charging != state.isCharging { d.chargingChanged(state.isCharging, at: now) }
            doze = d
        } else {
            doze = DozeController(rules: dozeRules, at: now, screenOn: state.isScreenOn, charging: state.isCharging)
        }
        let phase = doze!.phase(at: now)
        if phase.deep != lastPhase?.deep || phase.light != lastPhase?.light {
            if phase.isMaintenanceWindow && lastPhase?.isMaintenanceWindow != true {
                metrics.counters[.dozeWindows] += 1
                if logs { log.append((.dozeWindow, -1, phase.deep == .maintenance ? "deep" : "light")) }
            }
            lastPhase = phase
        }
    }

    /// The counts at the end of the run, with the apps per bucket at `now`.
    func finalMetrics(at now: SimTime) -> AndroidMetrics {
        var m = metrics
        if let q = quotas {
            m.counters[.quotaExhausted] = q.exhaustions
            m.appsInBucketAtEnd = AndroidMetrics.endBuckets.map { b in (0..<apps).filter { q.bucket(of: $0, at: now) == b }.count }
        }
        return m
    }

    /// Hands over what is to be logged.
    func takeLog() -> [(kind: DeviceEvent.Kind, app: Int32, detail: String)] {
        defer { log.removeAll() }
        return log
    }

    /// A job stopped for its quota (A13).
    func countQuotaStop() { metrics.counters[.quotaStops] += 1 }

    /// The running job ended with `joules` of background energy.
    func countRunEnergy(_ joules: Double) {
        if runStartedInWindow { metrics.counters[.maintenanceEnergyJoules] += joules }
        runStartedInWindow = false
    }

    /// A job of `app` starts at `now` (the quota starts tracking it, A11).
    func jobStarted(app: Int, at now: SimTime, state: DeviceState) {
        runStartedInWindow = !state.isScreenOn && !state.isCharging && lastPhase?.isMaintenanceWindow == true
        if runStartedInWindow { metrics.counters[.dozeWindowRuns] += 1 }
        guard quotas != nil else { return }
        quotas!.jobStarted(app: app, at: now, charging: state.isCharging)
        if let stop = quotas!.stopAt { nextEventTime = min(nextEventTime, stop) }
    }

    /// The running job ended at `now` (its run time on battery is charged, A11).
    func jobEnded(app: Int, at now: SimTime) {
        guard quotas != nil else { return }
        let before = quotas!.exhaustions
        quotas!.jobEnded(at: now)
        if logs && quotas!.exhaustions > before {
            log.append((.quotaExhausted, Int32(app), quotas!.bucket(of: app, at: now).name))
        }
        // A run that left its app out of quota: its freeing is a decision point.
        nextEventTime = min(nextEventTime, quotas!.nextFree(after: now))
    }

    /// Whether the running job has used up its app's quota at `now` (A13).
    func runningJobOutOfQuota(at now: SimTime) -> Bool {
        quotas?.stopAt.map { now >= $0 } ?? false
    }

    /// The "device idle" constraint: the screen off for at least
    /// ``AndroidWorkRules/idleThreshold`` (JobScheduler's `IdleController`).
    public func deviceIdle(at now: SimTime) -> Bool {
        guard let off = screenOffSince else { return false }
        return now - off >= rules.idleThreshold
    }

    /// Doze defers background work at `now`: the device quiet (screen off,
    /// unplugged) and in deep or light idle, not in a maintenance window.
    /// The screen and charger are read from `state` too: at a session
    /// start or plug-in the policy may be asked before this step's `sync`
    /// has woken Doze.
    public func dozeDefers(at now: SimTime, state: DeviceState) -> Bool {
        guard !state.isScreenOn && !state.isCharging, let d = doze else { return false }
        return d.phase(at: now).defersBackgroundWork
    }

    /// A16: processing work that needs the network asks for an unmetered
    /// one (`NETWORK_TYPE_UNMETERED`) with `processingRequiresUnmetered`;
    /// Wi-Fi is the simulator's only unmetered network.
    func unmeteredMissing(for request: TaskRequest, state: DeviceState) -> Bool {
        rules.processingRequiresUnmetered && request.kind == .processing
            && request.requiresNetworkConnectivity && state.network != .wifi
    }

    /// Why Android would not start `request` at `now` in `state`, or nil if
    /// it would. The first broken rule, in this order: earliest begin
    /// (WorkManager's initial delay, period or backoff), Battery Saver,
    /// Doze (deep or light idle), battery not low (refresh and fetch), device idle (processing),
    /// the app in the foreground, charging, network, force-stopped, an
    /// unmetered network (processing, A16), and
    /// last the app's bucket quota (A12), so that a quota refusal counts
    /// only work that would otherwise have run. No side effect.
    public func refusal(for request: TaskRequest, at now: SimTime, state: DeviceState) -> Refusal? {
        if now < request.earliestBegin { return .beforeEarliestBegin }
        if rules.batterySaverHoldsJobs && state.isLowPowerMode { return .lowPowerMode }
        if dozeDefers(at: now, state: state) { return .doze }  // Docs/AndroidPlatform.md A9
        if request.kind.refreshesContent && !state.isCharging && state.batteryPercent < rules.batteryLowPercent {
            return .lowBattery
        }
        // The screen read from `state` too: at a session start the policy
        // may be asked before this step's `sync` has stopped the clock.
        if request.kind == .processing && rules.processingRequiresDeviceIdle
            && (state.isScreenOn || !deviceIdle(at: now)) {
            return .deviceNotIdle
        }
        if let r = EligibilityRules.requestRefusal(for: request, state: state) { return r }  // A8: as on iOS
        if unmeteredMissing(for: request, state: state) { return .needsNetwork }  // A16
        if let q = quotas, q.refuses(app: Int(request.app), at: now, state: state) { return .quota }  // A12
        return nil
    }
}
