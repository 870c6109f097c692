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
        if let android { metrics.user.android = android.finalMetrics(at: now) }
    }

    /// The task still running at the horizon: right-censored, neither
    /// succeeded nor expired (`tasksCensored`); the energy it spent within
    /// the horizon counts (its unfinished transfer is cut there), none of
    /// it as wasted. The policy is not told and nothing else starts.
    mutating func censorRunningTask() {
        guard worker.isRunning else { return }
        worker.stopped()
        countBytes(of: worker.running, at: now)
        if now < worker.running.dataEnd { cutRunningTransfer() }
        let cpu = TaskEnd.cpu(of: worker.running, at: now, cpuWatts: config.energy.cpuWatts, expired: false)
        metrics.taskCensored(cpuJoules: cpu.joules)
        if Sink.isEnabled {
            var ledger = worker.running.ledger
            ledger.cpu = cpu.joules
            logTask(outcome: nil, newData: nil, energy: ledger, detail: "censored")
        }
    }
}
