import SimCore

// `beginBackgroundTask` at a session's end (`BackgroundTaskExtension`):
// the app asks, gets `budget` of extra time and runs its finishing work
// beside the worker (as a push's handler: a `PlannedBackgroundRun`).
extension DeviceSimulator {
    /// At the end of session `session` of `app` (called from `endSession`,
    /// before the policy's decision there: the app asks while it leaves the
    /// foreground, before the system decides anything else).
    mutating func appMayAskForExtraTime(app: Int32, session: Int) {
        guard extraTime != nil else { return }
        let a = Int(app)
        guard extraTime!.asks(app: a, session: session) else { return }
        if extraTime!.runs[a] != nil {
            metrics.backgroundTask.alreadyRunning &+= 1
            return
        }
        let n = extraTime!.started[a]
        extraTime!.started[a] = n &+ 1
        metrics.backgroundTask.started &+= 1
        let work = models[a].beginBackgroundTask?.work ?? FinishingWork.defaultWork
        let run = startPlannedRun(app: app, work: work, wakes: false, budget: extraTime!.budget,
                                  failurePrefix: extraTime!.failurePrefixes[a],
                                  latencyPrefix: extraTime!.latencyPrefixes[a], run: n)
        metrics.backgroundTask.energyJoules += run.ledger.promotion + run.ledger.active
        extraTime!.runs[a] = run
        extraTime!.recomputeNextEnd()
        mechanismsChanged()
    }

    /// Runs that reach their end now.
    mutating func backgroundTaskEvent() {
        for a in 0..<extraTime!.runs.count {
            guard let r = extraTime!.runs[a], r.end <= now else { continue }
            extraTime!.runs[a] = nil
            let run = settleCPU(of: r)
            metrics.backgroundTask.energyJoules += run.ledger.cpu
            switch run.outcome {
            case .success: metrics.backgroundTask.ended &+= 1
            case .expired: metrics.backgroundTask.expired &+= 1
            case .failed: metrics.backgroundTask.failed &+= 1
            }
            if run.outcome != .success { metrics.backgroundTask.wastedJoules += run.ledger.total }
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .backgroundTask, time: now, device: state)
                e.app = run.app; e.start = run.start; e.end = run.end; e.outcome = run.outcome
                e.energy = run.ledger
                e.detail = run.outcome == .success ? "ended" : run.outcome.name
                sink.record(e)
            }
        }
        extraTime!.recomputeNextEnd()
    }

    /// At the horizon: a run still going counts the CPU it ran, no outcome.
    mutating func finishBackgroundTasks() {
        guard extraTime != nil else { return }
        for a in 0..<extraTime!.runs.count {
            guard let r = extraTime!.runs[a] else { continue }
            metrics.backgroundTask.energyJoules += censorCPU(of: r)
            extraTime!.runs[a] = nil
        }
    }
}
