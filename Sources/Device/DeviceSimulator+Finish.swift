import SimCore

// End of the run: settle what is owed and turn accumulators into metrics.
extension DeviceSimulator {
    mutating func finish() {
        if worker.isRunning { censorRunningTask() }
        finishMechanisms()
        networks.radio.finish()
        syncRadioTail()
        advanceBattery(to: now)
        if let hours = power.lowPowerHours(until: now) { metrics.user.lowPowerModeHours += hours }
        _ = metrics.finish(horizon: trace.horizon, capacityJoules: power.capacityJoules,
                           wakesByHour: apps.state.wakesByHour)
    }

    /// The task still running at the horizon: right-censored, neither
    /// succeeded nor expired (`tasksCensored`); the energy it spent within
    /// the horizon counts (its unfinished transfer is cut there), none of
    /// it as wasted. The policy is not told and nothing else starts.
    mutating func censorRunningTask() {
        guard worker.isRunning else { return }
        worker.stopped()
        metrics.user.tasksCensored += 1
        countBytes(of: worker.running, at: now)
        if now < worker.running.dataEnd { cutRunningTransfer() }
        var task = worker.running
        let cpuRan = max(0, min(task.cpuSeconds, (now - task.dataEnd).seconds))
        let cpuJ = task.fails ? 0 : cpuRan * config.energy.cpuWatts
        metrics.user.energy.cpu += cpuJ
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
}
