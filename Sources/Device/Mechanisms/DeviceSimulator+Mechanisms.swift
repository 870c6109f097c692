import SimCore

// Issue 18's mechanisms in the loop: one timer for all of them
// (`mechanismNext`), taken after every other event at the same instant.
// Between mechanisms due at the same instant: silent push, then
// `beginBackgroundTask` ends, then background URLSession. (With the simulator split into components,
// this is the registration point: one line per mechanism here.)
extension DeviceSimulator {
    /// Recomputes `mechanismNext` from the mechanisms' own next times.
    mutating func mechanismsChanged() {
        mechanismNext = min(push?.nextTime ?? .farFuture, extraTime?.nextEnd ?? .farFuture,
                            transfers?.nextTime ?? .farFuture)
    }

    /// The mechanism event due now (`mechanismNext == now`).
    mutating func mechanismEvent() {
        if let t = push?.nextTime, t <= now {
            silentPushEvent()
        } else if let t = extraTime?.nextEnd, t <= now {
            backgroundTaskEvent()
        } else if let t = transfers?.nextTime, t <= now {
            backgroundTransferEvent()
        }
        mechanismsChanged()
    }

    /// After every loop step (only when a mechanism is on).
    mutating func mechanismsAfterStep() {
        silentPushAfterStep()
        if let t = transfers, t.waitingCount > 0 { examineTransfers() }
        mechanismsChanged()
    }

    /// At the horizon, before the metrics are final.
    mutating func finishMechanisms() {
        finishSilentPush()
        finishBackgroundTasks()
    }
}
