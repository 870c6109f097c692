import SimCore

// `beginBackgroundTask` at a session's end (`BackgroundTaskExtension`):
// the app asks, gets `budget` of extra time and runs its finishing work
// beside the worker (as a push's handler: a `PlannedBackgroundRun`).
extension DeviceSimulator {
    /// At the end of session `session` of `app` (called from `endSession`,
    /// before the policy's decision there: the app asks while it leaves the
    /// foreground, before the system decides anything else).
    mutating func appMayAskForExtraTime(app: Int32, session: Int) {
        guard mechanisms.extraTime != nil else { return }
        let a = Int(app)
        guard mechanisms.extraTime!.asks(app: a, session: session) else { return }
        if mechanisms.extraTime!.runs.entries[a] != nil {
            metrics.user.backgroundTask[.alreadyRunning] &+= 1
            return
        }
        let n = mechanisms.extraTime!.runs.nextRunNumber(app: a)
        metrics.user.backgroundTask[.started] &+= 1
        let work = apps.models[a].beginBackgroundTask?.work ?? FinishingWork.defaultWork
        let run = startPlannedRun(app: app, work: work, wakes: false, budget: mechanisms.extraTime!.budget,
                                  draws: mechanisms.extraTime!.draws, run: n)
        metrics.user.backgroundTask[.energyJoules] += run.ledger.promotion + run.ledger.active
        mechanisms.extraTime!.runs.start(run, app: a)
    }

    /// Runs that reach their end now.
    mutating func backgroundTaskEvent() {
        for a in 0..<mechanisms.extraTime!.runs.appCount {
            guard let r = mechanisms.extraTime!.runs.takeIfEnded(app: a, by: now) else { continue }
            let run = settleCPU(of: r)
            metrics.user.backgroundTask[.energyJoules] += run.ledger.cpu
            switch run.outcome {
            case .success: metrics.user.backgroundTask[.ended] &+= 1
            case .expired: metrics.user.backgroundTask[.expired] &+= 1
            case .failed: metrics.user.backgroundTask[.failed] &+= 1
            }
            if run.outcome != .success { metrics.user.backgroundTask[.wastedJoules] += run.ledger.total }
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .backgroundTask, time: now, device: state)
                e.app = run.app; e.start = run.start; e.end = run.end; e.outcome = run.outcome
                e.energy = run.ledger
                e.detail = run.outcome == .success ? "ended" : run.outcome.name
                sink.record(e)
            }
        }
        mechanisms.extraTime!.runs.recomputeNextEnd()
    }

    /// At the horizon: a run still going counts the CPU it ran, no outcome.
    mutating func finishBackgroundTasks() {
        guard mechanisms.extraTime != nil else { return }
        for r in mechanisms.extraTime!.runs.takeAll() {
            metrics.user.backgroundTask[.energyJoules] += censorAtHorizon(r)
        }
    }
}
