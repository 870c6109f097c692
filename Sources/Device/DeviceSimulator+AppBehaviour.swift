import SimCore

// What apps and their user do beyond the background-task API's normal use,
// the behaviours the iOS scheduler reacts to (`AppModel`'s
// `forceQuitProbability` and `cancelsRequestsProbability`; the never-
// completing handler is in `start`). Each draws only when its probability
// is above 0, from its own `RandomPurpose` keyed by (app, session number):
// the same user does the same thing under every policy.
extension DeviceSimulator {
    /// After the app went to the background (and submitted its requests):
    /// the app may cancel them, then the user may force-quit it.
    @inline(__always)   // one caller, `endSession`
    mutating func appBehaviourAtSessionEnd(app: Int32, session: Int) {
        let a = Int(app)
        let (cancelP, quitP) = (apps.models[a].cancelsRequestsProbability, apps.models[a].forceQuitProbability)
        if cancelP > 0 && random.uniform(RandomPurpose.cancelsRequests.rawValue, UInt64(a), UInt64(session)) < cancelP {
            cancelRequests(app: app, identifiers: [refreshIdentifier, processingIdentifier])
        }
        if quitP > 0 && random.uniform(RandomPurpose.forceQuit.rawValue, UInt64(a), UInt64(session)) < quitP {
            forceQuit(app: app)
        }
    }

    /// Whether `app` is in the app switcher's force-quit set: the one
    /// writer of `DeviceState.forceQuitApps` (set by `forceQuit`, cleared
    /// at the app's next launch in `startSession`).
    @inline(__always)
    mutating func setForceQuit(app: Int32, _ quit: Bool) {
        if quit { state.forceQuitApps.insert(app) } else { state.forceQuitApps.remove(app) }
    }

    /// The user swipes `app` away in the app switcher: no background launch
    /// of any kind until its next launch (`Refusal.appForceQuit`, cleared
    /// in `startSession`). Its pending requests stay pending (iOS keeps
    /// them; they run after the next launch if still due).
    mutating func forceQuit(app: Int32) {
        setForceQuit(app: app, true)
        metrics.user.forceQuits += 1
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .forceQuit, time: now, device: state)
            e.app = app
            sink.record(e)
        }
        policyObserve(.forceQuit, .forceQuit(app: app))
        if mechanisms.isOn { mechanismsSeeForceQuit(app: app) }
    }

    /// Whether the user force-quit `app` and has not opened it since: for
    /// mechanisms other than BGTaskScheduler (pushes, continued
    /// processing), which the same app-switcher rule stops.
    public func appIsForceQuit(_ app: Int32) -> Bool { state.forceQuitApps.contains(app) }

    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)` for each of
    /// `identifiers` of `app`: the pending request goes (and a queued one
    /// that has not started yet); the policy is told for each.
    mutating func cancelRequests(app: Int32, identifiers: [Int32]) {
        for identifier in identifiers {
            worker.runQueue.removeAll { $0.app == app && $0.identifier == identifier }
            guard let (request, i) = withScheduler({ $0.cancel(app: app, identifierIndex: identifier) }) else { continue }
            if planScope != nil { plans.remove(at: i) }
            metrics.user.requestsCancelled += 1
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .cancelled, time: now, device: state)
                e.app = app; e.requestID = request.id; e.taskKind = request.kind
                e.requestedAt = request.submittedAt; e.earliestBegin = request.earliestBegin
                sink.record(e)
            }
            policyObserve(.cancelled, .cancelled(request))
        }
    }
}
