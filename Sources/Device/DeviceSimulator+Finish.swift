import SimCore

// End of the run: settle what is owed and turn accumulators into metrics.
extension DeviceSimulator {
    mutating func finish() {
        if isRunning { censorRunningTask() }
        finishMechanisms()
        radio.finish()
        syncRadioTail()
        advanceBattery(to: now)
        if let s = lowPowerSince { metrics.lowPowerModeHours += (now - s).seconds / 3600 }

        metrics.wakesByHour = appState.wakesByHour
        let m = metrics
        metrics.days = trace.horizon.seconds / 86_400
        let launches = Double(m.launches)
        if m.launches > 0 {
            metrics.freshLaunchRatio = Double(m.freshLaunches) / launches
            metrics.meanAgeSeconds = ageSum / launches
            metrics.meanTimeSinceRefreshSeconds = sinceRefreshSum / launches
            // The rank-th smallest age by selection (linear) instead of a
            // full sort: the same element, so the same value.
            let rank = Int((0.95 * launches).rounded(.up))
            metrics.p95AgeSeconds = Self.select(&ages, max(0, rank - 1))
        }
        if m.tasksRun > 0 { metrics.meanDelayPastEarliestBeginSeconds = SimDuration(microseconds: delayMicros).seconds / Double(m.tasksRun) }
        if m.freshLaunches > 0 { metrics.joulesPerFreshLaunch = metrics.energy.total / Double(m.freshLaunches) }
        if metrics.days > 0 {
            metrics.batteryPercentPerDayBackground = metrics.energy.total / capacityJoules * 100 / metrics.days
        }
    }
}

extension DeviceSimulator {
    /// The task still running at the horizon: right-censored, neither
    /// succeeded nor expired (`tasksCensored`); the energy it spent within
    /// the horizon counts (its unfinished transfer is cut there), none of
    /// it as wasted. The policy is not told and nothing else starts.
    mutating func censorRunningTask() {
        guard isRunning else { return }
        isRunning = false
        var task = runningTask
        taskEnd = .farFuture
        metrics.tasksCensored += 1
        if now < task.dataEnd {
            let refund = radio.cutLastTransfer(at: now)
            metrics.energy.active += refund.active
            task.ledger.active += refund.active
        }
        let cpuRan = max(0, min(task.cpuSeconds, (now - task.dataEnd).seconds))
        let cpuJ = task.fails ? 0 : cpuRan * config.energy.cpuWatts
        metrics.energy.cpu += cpuJ
        task.ledger.cpu = cpuJ
        if Sink.isEnabled {
            let request = task.request
            var e = DeviceEvent(kind: .task, time: now, device: state)
            e.app = request.app; e.taskKind = request.kind; e.requestID = request.id
            e.requestedAt = request.submittedAt; e.earliestBegin = request.earliestBegin
            e.start = task.start; e.end = now; e.energy = task.ledger
            e.detail = "censored"
            sink.record(e)
        }
    }

    /// The k-th smallest element of `a` (0-based), as `a.sorted()[k]`;
    /// reorders `a`. Quickselect (Hoare partition, middle pivot).
    static func select(_ a: inout [Double], _ k: Int) -> Double {
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return a[k]
    }
}

// The event log (compiled away when `Sink.isEnabled` is false).
extension DeviceSimulator {
    mutating func logState(_ detail: String) {
        var e = DeviceEvent(kind: .state, time: now, device: state)
        e.detail = detail
        sink.record(e)
    }

    mutating func logTail(_ joules: Double) {
        var e = DeviceEvent(kind: .tail, time: now, device: state)
        e.energy.tail = joules
        sink.record(e)
    }

    /// Content updates are exogenous: logged up front, in time order per app.
    mutating func logUpdates() {
        for (a, updates) in trace.contentUpdates.enumerated() {
            for u in updates where u < trace.horizon {
                var e = DeviceEvent(kind: .update, time: u, device: state)
                e.app = Int32(a)
                sink.record(e)
            }
        }
    }
}
