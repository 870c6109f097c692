import SimCore

// The handlers of the session stream's events (`SessionStream`): screen,
// foreground app, launches and the foreground fetch, backgrounding. They
// touch sessions, power, the worker, the apps, metrics and the policy.
extension DeviceSimulator {
    mutating func startSession() {
        let s = sessions.begin()
        setForeground(s.app)
        // The app-switcher rule ends at the app's next launch.
        if !state.forceQuitApps.isEmpty { setForceQuit(app: s.app, false) }
        scheduleBatteryAlarm()
        // Rule 3: processing is expired the moment the user uses the device.
        if worker.isRunning && worker.running.request.kind == .processing { finishRunningTask(interrupted: true) }
        if state.network.isOnline {
            networks.radio.foreground(from: s.start, to: s.end)
            syncRadioTail()
        }
        recordLaunch(app: Int(s.app))
        if mechanisms.isOn { mechanismsSeeLaunch(s) }
        if Sink.isEnabled { logState("screen_on") }
        policyObserve(.stateChanged, .stateChanged(.screenOn))
        policyObserve(.launch, .launch(app: s.app))
        // A decision point at session start, only for policies that read
        // launches or ask for it (most decisions would not change here).
        if decidesAtSessionStart { consultPolicy() }
    }

    /// The screen and the app in the foreground (nil: screen off): the one
    /// writer of `DeviceState.isScreenOn` and `foregroundApp`. The battery
    /// power follows the screen.
    @inline(__always)
    mutating func setForeground(_ app: Int32?) {
        state.isScreenOn = app != nil
        state.foregroundApp = app
        screenOrChargerChanged()
    }

    mutating func endSession() {
        let session = sessions.index
        let s = sessions.end()
        setForeground(nil)
        lastSessionEnd = now
        scheduleBatteryAlarm()
        if Sink.isEnabled { logState("screen_off") }
        policyObserve(.stateChanged, .stateChanged(.screenOff))
        policyObserve(.sessionEnded, .sessionEnded(app: s.app))
        appEntersBackground(app: s.app)
        appBehaviourAtSessionEnd(app: s.app, session: session)
        if mechanisms.isOn { mechanismsSeeSessionEnd(app: s.app, session: session) }
        consultPolicy()
    }

    /// Content age and freshness at a launch, measured before the foreground
    /// fetch, then the foreground fetch itself (rule 7).
    @inline(__always)   // one caller, `startSession`
    mutating func recordLaunch(app: Int) {
        let (stale, age, since) = apps.launchContent(app: app, at: now)
        metrics.launch(fresh: !stale, ageSeconds: age, sinceRefreshSeconds: since)
        apps.state[app].unconsumedRefresh = false
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .launch, time: now, device: state)
            e.app = Int32(app); e.fresh = !stale; e.ageSeconds = age; e.sinceRefreshSeconds = since
            sink.record(e)
        }
        if config.foregroundFetch && state.network.isOnline { _ = apps.fetchContent(app: app, at: now) }
    }

    /// The app goes to the background: it submits its refresh request (rule 6)
    /// and, if due, its processing request.
    @inline(__always)   // one caller, `endSession`
    mutating func appEntersBackground(app: Int32) {
        let a = Int(app)   // fields read through `models[a]`: no copy of the whole model
        if !apps.models[a].usesLegacyFetch {
            submit(app: app, identifier: refreshIdentifier, earliestBegin: now + apps.models[a].refreshEarliestBeginDelay,
                   power: false, network: apps.models[a].refresh.usesNetwork)
        }
        if let interval = apps.models[a].processingInterval {
            let due = apps.state[a].lastProcessingDone.map { now - $0 >= interval } ?? true
            if due {
                submit(app: app, identifier: processingIdentifier, earliestBegin: now,
                       power: apps.models[a].processingRequiresExternalPower, network: apps.models[a].processingRequiresNetwork)
            }
        }
    }

    /// Inlined: it runs once or twice per task, mostly from `start`.
    @inline(__always)
    mutating func submit(app: Int32, identifier: Int32, earliestBegin: SimTime, power: Bool, network: Bool,
                         cause: SubmissionCause = .enqueue) {
        var earliestBegin = earliestBegin
        if let android {
            guard let e = androidEarliestBegin(android, app: app, identifier: identifier,
                                               requested: earliestBegin, cause: cause) else { return }
            earliestBegin = e
        }
        let now = self.now
        let result = withScheduler {
            $0.submit(app: app, identifierIndex: identifier, earliestBegin: earliestBegin,
                      requiresExternalPower: power, requiresNetworkConnectivity: network, at: now)
        }
        switch result {
        case .success(let r):
            pendingChangedByScheduler(replaced: scheduler.lastReplaced)
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .submitted, time: now, device: state)
                e.app = app; e.requestID = r.id; e.taskKind = r.kind; e.requestedAt = now
                e.earliestBegin = r.earliestBegin
                sink.record(e)
            }
            policyObserve(.submitted, .submitted(r))
        case .failure(let error):
            metrics.user.submissionsRejected += 1
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .rejected, time: now, device: state)
                e.app = app; e.detail = "\(error)"
                sink.record(e)
            }
        }
    }

    /// Legacy Background Fetch: the system keeps one fetch pending, not
    /// before `minimumFetchInterval` after the last one.
    mutating func armLegacyFetch(app: Int32, after t: SimTime) {
        let a = Int(app)
        submit(app: app, identifier: 2, earliestBegin: t + apps.models[a].minimumFetchInterval, power: false,
               network: apps.models[a].refresh.usesNetwork)
    }
}
