import SimCore

// Starting and settling runs beside the worker (`PlannedBackgroundRun`):
// shared by silent push, `beginBackgroundTask` and continued processing.
extension DeviceSimulator {
    /// Starts `work` for `app` now, beside the worker: its transfer on the
    /// radio model (if it uses the network), the whole run planned, a cut
    /// before the bytes are in refunded at once, and the energy so far
    /// (wake if `wakes`, promotion, active) charged to the metrics.user. The CPU
    /// is charged by ``settleCPU(of:)`` at the run's end. `draws` are the
    /// mechanism's, `n` the run's number. Without a network a networked run
    /// fails at once.
    mutating func startPlannedRun(app: Int32, work: WorkModel, wakes: Bool, budget: SimDuration,
                                  draws: PlannedRunDraws, run n: UInt64) -> PlannedBackgroundRun {
        let failurePrefix = draws.failurePrefixes[Int(app)], latencyPrefix = draws.latencyPrefixes[Int(app)]
        var ledger = EnergyLedger()
        if wakes { ledger.wake = config.energy.wakeJoules }
        var dataEnd = now
        let network = state.network
        var fails = DeviceRandom.uniform(prefix: failurePrefix, n) < work.failureProbability(on: network)
        if work.usesNetwork && network.isOnline {
            let latency = work.serverLatencySigma > 0
                ? TaskWorker.drawServerLatency(median: work.serverLatency, sigma: work.serverLatencySigma,
                                         prefix: latencyPrefix, run: n)
                : work.serverLatency
            let shape = RadioModel.shape(bytesUp: work.bytesUp, bytesDown: work.bytesDown,
                                         on: config.energy.radio(network))
            let t = networks.radio.backgroundTransfer(at: now, shape: shape, latency: latency)
            dataEnd = t.end
            ledger.promotion = t.ledger.promotion
            ledger.active = t.ledger.active
            syncRadioTail()   // the tail gap it settled belongs to earlier work (as for tasks)
        } else if work.usesNetwork {
            fails = true
        }
        var run = PlannedBackgroundRun.plan(app: app, start: now, dataEnd: dataEnd, cpuSeconds: work.cpuSeconds,
                                            fails: fails, budget: budget,
                                            offlineAt: work.usesNetwork ? nextOffline(after: now) : .farFuture,
                                            ledger: ledger)
        if run.end < dataEnd {
            // Cut (expired or connection lost) before the bytes were in:
            // the active energy it did not spend is refunded now. Its
            // transfer is the radio's last, just made.
            let refund = networks.radio.cutLastTransfer(at: run.end)
            run.ledger.active += refund.active
        }
        metrics.user.energy.wake += run.ledger.wake
        metrics.user.energy.promotion += run.ledger.promotion
        metrics.user.energy.active += run.ledger.active
        return run
    }

    /// The CPU of a run that reached its end, charged now; returns the run
    /// with its ledger complete.
    mutating func settleCPU(of run: PlannedBackgroundRun) -> PlannedBackgroundRun {
        var run = run
        run.ledger.cpu = run.cpuRan * config.energy.cpuWatts
        metrics.user.energy.cpu += run.ledger.cpu
        return run
    }

    /// A run still going at the horizon (`now`): the CPU it has spent is
    /// charged, and its energy so far (charged at its start, plus that CPU)
    /// told to the sink for apps.csv, since it is on no events.csv row (rows
    /// are logged at a run's end). Returns the CPU joules.
    mutating func censorAtHorizon(_ run: PlannedBackgroundRun) -> Double {
        let cpu = censorCPU(of: run)
        if Sink.isEnabled {
            var ledger = run.ledger
            ledger.cpu = cpu
            sink.attribute(app: run.app, energy: ledger)
        }
        return cpu
    }

    /// The CPU joules a run still going at `now` has spent, charged now.
    mutating func censorCPU(of run: PlannedBackgroundRun) -> Double {
        let cpu = max(0, min(run.cpuRan, (now - run.dataEnd).seconds)) * config.energy.cpuWatts
        metrics.user.energy.cpu += cpu
        return cpu
    }

    /// The next time the device goes offline after `t` (`.farFuture`: none before the horizon).
    func nextOffline(after t: SimTime) -> SimTime {
        var i = networks.index + 1
        while i < networks.segments.count {
            if !networks.segments[i].network.isOnline { return networks.segments[i].start }
            i += 1
        }
        return .farFuture
    }
}
