import SimCore

// Foreground sessions: launches, freshness, foreground fetch, backgrounding.
extension DeviceSimulator {
    mutating func startSession() {
        let s = trace.sessions[sessionIndex]
        inSession = true
        state.isScreenOn = true
        screenOrChargerChanged()
        state.foregroundApp = s.app
        scheduleBatteryAlarm()
        // Rule 3: processing is expired the moment the user uses the device.
        if isRunning && runningTask.request.kind == .processing { finishRunningTask(interrupted: true) }
        if state.network.isOnline {
            radio.foreground(from: s.start, to: s.end)
            syncRadioTail()
        }
        recordLaunch(app: Int(s.app))
        if transfers != nil { transfersSeeForegroundLaunch(app: s.app) }
        if Sink.isEnabled { logState("screen_on") }
        policyObserve(.stateChanged, .stateChanged(.screenOn))
        policyObserve(.launch, .launch(app: s.app))
        // A decision point at session start, only for policies that read
        // launches or ask for it (most decisions would not change here).
        if decidesAtSessionStart { consultPolicy() }
    }

    mutating func endSession() {
        let s = trace.sessions[sessionIndex]
        inSession = false
        sessionIndex += 1
        state.isScreenOn = false
        screenOrChargerChanged()
        state.foregroundApp = nil
        lastSessionEnd = now
        scheduleBatteryAlarm()
        if Sink.isEnabled { logState("screen_off") }
        policyObserve(.stateChanged, .stateChanged(.screenOff))
        policyObserve(.sessionEnded, .sessionEnded(app: s.app))
        appEntersBackground(app: s.app)
        if extraTime != nil { appMayAskForExtraTime(app: s.app, session: sessionIndex - 1) }
        if transfers != nil { appMayHandTransfer(app: s.app, session: sessionIndex - 1) }
        consultPolicy()
    }

    /// Content age and freshness at a launch, measured before the foreground
    /// fetch, then the foreground fetch itself (rule 7).
    @inline(__always)   // one caller, `startSession`
    mutating func recordLaunch(app: Int) {
        let updates = trace.contentUpdates[app]
        let c = appState[app].updateCursor
        let stale = c < updates.count && updates[c] <= now
        // Times are far from Int64's range (`lastFetch` starts at zero,
        // updates are trace times): wrapping subtractions (`.seconds` of the
        // difference, as before), and the per-launch counts cannot overflow:
        // `&-`, `&+=`, no overflow tests.
        let age = stale ? Double(now.microseconds &- updates[c].microseconds) / 1_000_000 : 0
        let since = Double(now.microseconds &- appState[app].lastFetch.microseconds) / 1_000_000
        metrics.launches &+= 1
        if !stale { metrics.freshLaunches &+= 1 }
        ageSum += age
        ages.append(age)
        sinceRefreshSum += since
        appState[app].unconsumedRefresh = false
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .launch, time: now, device: state)
            e.app = Int32(app); e.fresh = !stale; e.ageSeconds = age; e.sinceRefreshSeconds = since
            sink.record(e)
        }
        if config.foregroundFetch && state.network.isOnline { _ = fetchContent(app: app, at: now) }
    }

    /// The app's copy now includes every update published up to `t`.
    /// Returns whether anything new came in. Inlined into its two callers
    /// (a task's success, a launch's foreground fetch): short, and called at
    /// most task ends.
    @inline(__always)
    mutating func fetchContent(app: Int, at t: SimTime) -> Bool {
        let updates = trace.contentUpdates[app]
        var c = appState[app].updateCursor
        let start = c
        // Through the buffer: `c` starts at a stored cursor (≥ 0), so no
        // sign test and no overflow test per update read.
        updates.withUnsafeBufferPointer { u in
            while c < u.count && u[c] <= t { c &+= 1 }
        }
        appState[app].updateCursor = c
        if t > appState[app].lastFetch { appState[app].lastFetch = t }
        return c > start
    }

    /// The app goes to the background: it submits its refresh request (rule 6)
    /// and, if due, its processing request.
    @inline(__always)   // one caller, `endSession`
    mutating func appEntersBackground(app: Int32) {
        let a = Int(app)   // fields read through `models[a]`: no copy of the whole model
        if !models[a].usesLegacyFetch {
            submit(app: app, identifier: refreshIdentifier, earliestBegin: now + models[a].refreshEarliestBeginDelay,
                   power: false, network: models[a].refresh.usesNetwork)
        }
        if let interval = models[a].processingInterval {
            let due = appState[a].lastProcessingDone.map { now - $0 >= interval } ?? true
            if due {
                submit(app: app, identifier: processingIdentifier, earliestBegin: now,
                       power: models[a].processingRequiresExternalPower, network: models[a].processingRequiresNetwork)
            }
        }
    }

    /// Inlined: it runs once or twice per task, mostly from `start`.
    @inline(__always)
    mutating func submit(app: Int32, identifier: Int32, earliestBegin: SimTime, power: Bool, network: Bool) {
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
            metrics.submissionsRejected += 1
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
        submit(app: app, identifier: 2, earliestBegin: t + models[a].minimumFetchInterval, power: false,
               network: models[a].refresh.usesNetwork)
    }
}
