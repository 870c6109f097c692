import SimCore

/// Why an app submits a request: Android's WorkManager treats each
/// differently (Docs/AndroidPlatform.md); iOS does not look at it.
enum SubmissionCause {
    /// The app goes to the background (a session end), or the system keeps
    /// a legacy fetch pending: WorkManager's `enqueueUniquePeriodicWork`
    /// with `KEEP` for a refresh.
    case enqueue
    /// The refresh handler schedules its next run (the chain): the next
    /// period of periodic work.
    case nextPeriod
    /// A failed refresh is retried (`AppModel.retryDelayAfterFailure` on
    /// iOS; `Result.retry()` with backoff on Android).
    case retry
}

// Android's rules applied by the simulator: every call here is behind
// `android != nil`, so an iOS device never reaches this file.
extension DeviceSimulator {
    /// The earliest begin Android gives a submission of `app`'s
    /// `identifier` that the app asked for at `requested` (`cause`: why it
    /// submits), or nil if WorkManager keeps the request already pending
    /// and this one is not enqueued.
    func androidEarliestBegin(_ android: AndroidPlatform, app: Int32, identifier: Int32,
                              requested: SimTime, cause: SubmissionCause) -> SimTime? {
        // One-time work (processing) keeps the app's own delay.
        guard identifier != processingIdentifier else { return requested }
        let interval = android.timing.interval(requested: requested - now)
        if identifier != refreshIdentifier {
            // The legacy fetch, kept pending by the system: periodic work.
            return android.timing.nextRun(lastRunAt: now, interval: interval)
        }
        switch cause {
        case .enqueue:
            if pending.contains(where: { $0.app == app && $0.identifier == identifier }) { return nil }
            return android.timing.firstRun(enqueuedAt: now, interval: interval)
        case .nextPeriod:
            return android.timing.nextRun(lastRunAt: now, interval: interval)
        case .retry:
            let attempt = android.failedAttempts[Int(app)]
            return now + android.timing.backoff(attempt: attempt)
        }
    }

    /// A task of `app` ended with `outcome`: the backoff's attempt count.
    mutating func androidTaskEnded(_ android: AndroidPlatform, app: Int, kind: TaskKind, outcome: TaskOutcome) {
        android.jobEnded(app: app, at: now)  // A11: the quota charges its run time
        if Sink.isEnabled { logAndroid(android) }
        android.countRunEnergy(worker.running.ledger.total)
        guard kind == .appRefresh else { return }
        if outcome == .success { android.failedAttempts[app] = 0 } else { android.failedAttempts[app] += 1 }
    }

    /// Writes the platform's events (quota exhausted, Doze windows) to the event log.
    mutating func logAndroid(_ android: AndroidPlatform) {
        for entry in android.takeLog() {
            var e = DeviceEvent(kind: entry.kind, time: now, device: state)
            e.app = entry.app
            e.detail = entry.detail
            sink.record(e)
        }
    }

    /// The platform's own event (a constraint that starts to hold with no
    /// other event of the device): a decision point.
    mutating func androidEvent() {
        if let android, worker.isRunning, android.runningJobOutOfQuota(at: now) {
            // A13: QuotaController stops a job whose app used up its quota
            // (the run expires; the next task and decision follow its end).
            android.countQuotaStop()
            finishRunningTask(interrupted: true)
            return
        }
        android?.sync(now: now, state: state)
        consultPolicy()
    }

    /// Android's answer where the simulator checks whether a request may
    /// start now (decisions, a queued task at its turn).
    @inline(__always)
    func platformRefusal(for request: TaskRequest) -> Refusal? {
        if let android { return android.refusal(for: request, at: now, state: state) }
        return rules.refusal(for: request, at: now, state: state)
    }
}

extension DeviceConfiguration {
    /// The configuration a device of this platform runs with: on Android,
    /// every kind of work has JobScheduler's execution limit as its budget.
    var effectiveForPlatform: DeviceConfiguration {
        guard platform == .android else { return self }
        var c = self
        c.rules.refreshBudget = android.executionLimit
        c.rules.processingBudget = android.executionLimit
        return c
    }
}
