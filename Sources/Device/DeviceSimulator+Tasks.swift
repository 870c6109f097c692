import Foundation
import SimCore

// Running background tasks: one at a time, in the order the policy gave.
extension DeviceSimulator {
    /// Starts the next queued task (re-checking the rules: state may have
    /// changed since it was queued). Inlined: called at every task end,
    /// where the queue is nearly always empty.
    @inline(__always)
    mutating func startNextTask() {
        // Nothing starts at or after the end of the run.
        while !isRunning, !runQueue.isEmpty, now < horizon {
            // Most batches are one task: `removeLast` then moves nothing
            // (`removeFirst` called `memmove` even for an empty rest).
            let request = runQueue.count == 1 ? runQueue.removeLast() : runQueue.removeFirst()
            // Its app submitted the same identifier again while it waited
            // (a session ended, a failed refresh was retried): the new
            // request replaced it (rule 2), so it is dropped, not run. A
            // queued request is no longer in `pending`, so a pending one
            // with its identifier is necessarily the newer submission.
            if pending.contains(where: { $0.app == request.app && $0.identifier == request.identifier }) {
                continue
            }
            // The energy of the task before it (its CPU, charged at its end)
            // comes off the battery first: a level it took under the
            // low-battery threshold refuses a refresh (rule 4).
            settleBackgroundEnergy()
            // The state changed while it waited behind another task (e.g. a
            // session started, the level fell): not the policy's fault, it
            // goes back to pending.
            if rules.refusal(for: request, at: now, state: state) != nil {
                withScheduler { $0.restore(request) }
                pendingChangedByScheduler(replaced: -1)   // `restore` only appends
                continue
            }
            start(request)
        }
        if !isRunning { taskEnd = .farFuture }
    }

    mutating func start(_ request: TaskRequest) {
        // Stored first, the rest of `runningTask` at the end field by field:
        // a whole `RunningTask` built at the end kept a copy of the request
        // on the stack across the resubmission. Nothing reads `runningTask`
        // before `isRunning` is set.
        runningTask.request = request
        let app = Int(request.app)
        // Index arithmetic on small values: wrapping operators, no overflow tests.
        let slot = app &* 3 &+ Int(request.kind.rawValue)
        // The slot's work model is read field by field in place
        // (`slotWork[slot]`), not copied: a copy picked between the app
        // model's `processing` and `refresh` is a branch, two bounds checks
        // and a copy spilled to the stack at every start.
        let n = appState[runsOf: slot]
        appState[runsOf: slot] = n &+ 1
        metrics.tasksRun &+= 1   // `&+=`: per-task counts cannot overflow; no test per task
        // Times and budgets below are far from Int64's range: wrapping
        // operators on their microseconds, no overflow tests per task.
        delayMicros &+= now.microseconds &- request.earliestBegin.microseconds

        // Chain scheduling: the handler resubmits first thing (or forgets).
        // The model read through the buffer: `app` is a request's, which the
        // scheduler checked against its registrations (one per model).
        if request.kind == .appRefresh && models.withUnsafeBufferPointer({ $0[app].resubmitsAtStart }) {
            resubmit(request, run: n)
        }

        var ledger = EnergyLedger()
        var dataEnd = now
        // `random.uniform(RandomPurpose.taskFailure.rawValue, UInt64(slot), n)`.
        // The per-slot tables are read through their buffers: `slot` was
        // checked against the app count (`appState[runsOf:]` above), and
        // they hold 2, 1 and 3 entries per slot.
        let network = state.network
        let prefix = taskDrawPrefixes.withUnsafeBufferPointer { $0[2 &* slot] }
        let (failureProbability, cpuSeconds, usesNetwork) = slotWork.withUnsafeBufferPointer {
            ($0[slot].failureProbability(on: network), $0[slot].cpuSeconds, $0[slot].usesNetwork)
        }
        var fails = DeviceRandom.uniform(prefix: prefix, n) < failureProbability
        var cpu = cpuSeconds
        runningTask.network = .offline
        if usesNetwork {
            if network.isOnline {
                runningTask.network = network
                let shape = transferShapes.withUnsafeBufferPointer { $0[slot &* 3 &+ Int(network.rawValue)] }
                let t = radio.backgroundTransfer(at: now, shape: shape, latency: serverLatency(slot: slot, run: n))
                dataEnd = t.end
                ledger = t.ledger
                // The tail gap this transfer settled (from the previous
                // transfer's end to now) is the earlier work's tail, not
                // this task's: it goes to the metrics as a tail row, and
                // the task's ledger holds only its own promotion and active
                // energy (then CPU). So wasted energy never includes it.
                ledger.tail = 0
                syncRadioTail()
            } else {
                fails = true
            }
        }
        metrics.energy.promotion += ledger.promotion
        metrics.energy.active += ledger.active
        if request.kind == .processing { cpu = max(0, cpu - appState[app].processingProgress) }
        // `SimDuration.seconds(cpu)`, rounded without libm (`roundToInt64`).
        let natural = fails ? dataEnd : SimTime(microseconds: dataEnd.microseconds &+ roundToInt64(cpu * 1_000_000))
        let budget = request.kind == .processing ? processingBudget : refreshBudget
        let deadline = SimTime(microseconds: now.microseconds &+ budget.microseconds)
        runningTask.start = now; runningTask.dataEnd = dataEnd; runningTask.naturalEnd = natural
        runningTask.cpuSeconds = cpu; runningTask.fails = fails; runningTask.ledger = ledger
        // An app whose handler never completes: the run is held to its
        // budget (drawn only when the probability is above 0; a failed
        // run then computes nothing, as a failed run that completes).
        let neverP = models.withUnsafeBufferPointer { $0[app].neverCompletesProbability }
        let holds = neverP > 0 && random.uniform(RandomPurpose.neverCompletes.rawValue, UInt64(slot), n) < neverP
        runningTask.neverCompletes = holds
        runningTask.transferredFraction = nil
        if holds && fails { runningTask.cpuSeconds = 0 }
        isRunning = true
        taskEnd = holds ? deadline : min(natural, deadline)
    }

    /// Ends the running task at `now`: naturally, at its budget, cut short
    /// by an interruption (session start, unplugged: expired), or by the
    /// network going offline during its transfer (`connectionLost`: failed).
    mutating func finishRunningTask(interrupted: Bool = false, connectionLost: Bool = false) {
        guard isRunning else { return }
        if connectionLost && runningTask.neverCompletes {
            holdAfterConnectionLost()
            return
        }
        isRunning = false
        if connectionLost { runningTask.fails = true }
        // The task's fields are read (and its ledger completed) in place in
        // `runningTask`, not in a copy of its ~100 bytes. It is not
        // replaced before `startNextTask` at the end.
        taskEnd = .farFuture
        // The request's fields too are read in place, when used: a copy of
        // it taken here would be kept (spilled) across the calls below for
        // the report. `runningTask` does not change before `startNextTask`.
        let kind = runningTask.request.kind
        let app = Int(runningTask.request.app)
        let held = runningTask.neverCompletes
        let expired = !connectionLost && (interrupted || now < runningTask.naturalEnd || held)
        // A held run did its work if it ran to its natural end: only the
        // completion call is missing (the app's copy has the content).
        let workDone = held && !runningTask.fails && now >= runningTask.naturalEnd
        countBytes(of: runningTask, at: now)
        if now < runningTask.dataEnd {
            let refund = radio.cutLastTransfer(at: now)
            metrics.energy.active += refund.active
            runningTask.ledger.active += refund.active
        }
        // `(now - dataEnd).seconds`, without the overflow test.
        let cpuRan = max(0, min(runningTask.cpuSeconds, Double(now.microseconds &- runningTask.dataEnd.microseconds) / 1_000_000))
        let cpuJ = (runningTask.fails && !expired) ? 0 : cpuRan * config.energy.cpuWatts
        metrics.energy.cpu += cpuJ
        runningTask.ledger.cpu = cpuJ

        let outcome: TaskOutcome = expired ? .expired : (runningTask.fails ? .failed : .success)
        var fetchResult: FetchResult? = nil
        var newData: Bool? = nil
        switch outcome {
        case .success:
            metrics.tasksSucceeded &+= 1
            if kind.refreshesContent {
                let got = fetchContent(app: app, at: runningTask.dataEnd)
                newData = got
                if !got || appState[app].unconsumedRefresh { metrics.wastedRefreshes &+= 1 }
                if got { appState[app].unconsumedRefresh = true }
                // The model through the buffer, as below: `app` is a request's.
                fetchResult = (got || !models.withUnsafeBufferPointer({ $0[app].reportsHonestly })) ? .newData : .noData
            } else {
                appState[app].processingProgress = 0
                appState[app].lastProcessingDone = now
            }
        case .failed:
            metrics.tasksFailed += 1
            metrics.wastedEnergyJoules += runningTask.ledger.total
            if kind.refreshesContent { fetchResult = models[app].reportsHonestly ? .failed : .newData }
        case .expired:
            metrics.tasksExpired += 1
            metrics.wastedEnergyJoules += runningTask.ledger.total
            if held {
                // No completion call, so no fetch result; the work itself is kept.
                metrics.runsNeverCompleted += 1
                if workDone && kind.refreshesContent {
                    let got = fetchContent(app: app, at: runningTask.dataEnd)
                    newData = got
                    if got { appState[app].unconsumedRefresh = true }
                } else if workDone {
                    appState[app].processingProgress = 0
                    appState[app].lastProcessingDone = runningTask.naturalEnd
                } else if kind == .processing && models[app].checkpointsOnExpiration {
                    appState[app].processingProgress += cpuRan
                }
                break
            }
            if kind == .processing && models[app].checkpointsOnExpiration { appState[app].processingProgress += cpuRan }
            if kind.refreshesContent { fetchResult = models[app].reportsHonestly ? .failed : .newData }
        }
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .task, time: now, device: state)
            e.app = runningTask.request.app; e.taskKind = kind; e.requestID = runningTask.request.id
            e.requestedAt = runningTask.request.submittedAt; e.earliestBegin = runningTask.request.earliestBegin
            e.start = runningTask.start; e.end = now; e.outcome = outcome; e.newData = newData
            e.energy = runningTask.ledger
            if held { e.detail = "never_completed" }
            sink.record(e)
        }
        // Read through the buffer: `app` is a request's, which the
        // scheduler checked against its registrations (one per model).
        if kind == .appRefresh && !models.withUnsafeBufferPointer({ $0[app].resubmitsAtStart }) {
            resubmit(runningTask.request, run: appState[runsOf: app &* 3] &- 1)
        }
        // The app retries a failed refresh soon (replacing the request its
        // handler submitted): `AppModel.retryDelayAfterFailure`.
        if outcome == .failed && kind == .appRefresh, let delay = models[app].retryDelayAfterFailure {
            submit(app: runningTask.request.app, identifier: refreshIdentifier, earliestBegin: now + delay,
                   power: false, network: models[app].refresh.usesNetwork)
        }
        if kind == .legacyFetch { armLegacyFetch(app: runningTask.request.app, after: now) }
        let f = runningTask.network == .offline ? 0 : runningTask.transferFraction(at: now)
        let work = slotWork[app &* 3 &+ Int(kind.rawValue)]
        let report = TaskReport(request: runningTask.request, start: runningTask.start, end: now, outcome: outcome,
                                fetchResult: fetchResult, energyJoules: runningTask.ledger.total,
                                bytesUp: work.bytesUp * f, bytesDown: work.bytesDown * f, network: runningTask.network)
        policyObserve(.taskFinished, .taskFinished(report))
        startNextTask()
        if !isRunning { consultPolicy() }
    }

    /// This run's server latency: the median `serverLatency` times
    /// exp(σ·Z), Z standard normal (inverse normal CDF of one uniform)
    /// keyed like the failure draw (app, kind, run number): the same task
    /// has the same latency under every policy (common random numbers).
    /// Read from `memo` when an earlier configuration drew it.
    @inline(__always)
    mutating func serverLatency(slot: Int, run n: UInt64) -> SimDuration {
        guard slotWork[slot].serverLatencySigma > 0 else { return slotWork[slot].serverLatency }
        let known = memo.latencyMicros[slot].count
        if n < UInt64(known) { return SimDuration(microseconds: memo.latencyMicros[slot][Int(n)]) }
        let median = slotWork[slot].serverLatency, sigma = slotWork[slot].serverLatencySigma
        let prefix = taskDrawPrefixes[2 &* slot &+ 1]
        if n == UInt64(known) {
            // The slot's next runs: drawn ahead and kept together (the values
            // are those the runs would draw; a memo entry is a pure function
            // of the run, so drawing early changes nothing but the cost).
            Self.drawAhead(&memo.latencyMicros[slot], median: median, sigma: sigma, prefix: prefix, from: n)
            return SimDuration(microseconds: memo.latencyMicros[slot][Int(n)])
        }
        return Self.drawServerLatency(median: median, sigma: sigma, prefix: prefix, run: n)
    }

    /// How many runs' latencies a memo miss draws (the missed run and the
    /// next ones). Why: keeping one value per miss pays the uniqueness
    /// checks of both memo arrays and the registers saved around them in
    /// `start` for every latency; drawing a few for runs that never happen
    /// (at most 7 per slot and user) is cheaper.
    static var latencyDrawAhead: UInt64 { 8 }

    /// Appends the latencies of runs `n ..< n + latencyDrawAhead` to `runs`
    /// (the memo's runs of one slot, which hold runs `0 ..< n`).
    @inline(never)
    static func drawAhead(_ runs: inout [Int64], median: SimDuration, sigma: Double, prefix: UInt64, from n: UInt64) {
        var m = n
        let end = n &+ latencyDrawAhead   // run numbers are task counts: no overflow
        while m < end {
            runs.append(drawServerLatency(median: median, sigma: sigma, prefix: prefix, run: m).microseconds)
            m &+= 1
        }
    }

    /// `serverLatency` drawn (no memo), from the slot's draw prefix
    /// (`taskDrawPrefixes[2·slot + 1]`).
    ///
    /// Static, taking only what it reads: as a method on the simulator it
    /// could make Swift copy the whole simulator (about 2 kB) before the
    /// call (Docs/Performance.md).
    /// The two fields it reads are passed, not the work model (which the
    /// call copied to the stack).
    static func drawServerLatency(median: SimDuration, sigma: Double, prefix: UInt64, run n: UInt64) -> SimDuration {
        // `random.uniform(RandomPurpose.serverLatency.rawValue, UInt64(slot), n)`.
        let u = DeviceRandom.uniform(prefix: prefix, n)
        let z = standardNormalQuantile(u)
        let micros = min(Double(median.microseconds) * Foundation.exp(sigma * z), 8.64e10)
        return SimDuration(microseconds: Int64(micros + 0.5))   // ≥ 0: rounds half up without libm
    }

    /// The handler resubmits its refresh request, unless it forgets (rule 6).
    /// Inlined: it runs at nearly every task start, and is short.
    @inline(__always)
    mutating func resubmit(_ request: TaskRequest, run n: UInt64) {
        let a = Int(request.app)
        // Through the buffer: `a` is a request's app (see `start`).
        let (p, delay, network) = models.withUnsafeBufferPointer {
            ($0[a].forgetProbability, $0[a].refreshEarliestBeginDelay, $0[a].refresh.usesNetwork)
        }
        let forgets = p > 0 && random.uniform(RandomPurpose.forgetsToResubmit.rawValue, UInt64(request.app), n) < p
        if forgets {
            metrics.chainBreaks += 1
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .chainBreak, time: now, device: state)
                e.app = request.app
                sink.record(e)
            }
            return
        }
        submit(app: request.app, identifier: refreshIdentifier, earliestBegin: now + delay, power: false, network: network)
    }
}

/// The standard normal quantile Φ⁻¹(p) for p in [0, 1) (0 is moved to
/// 2⁻⁵⁴). Acklam's rational approximation (relative error < 1.2e-9): no
/// libm call in the central 95 % (one `log` and `sqrt` in the tails), which
/// keeps a latency draw per task cheap (Box–Muller needs a log, a cos and a
/// sqrt per draw).
@inline(__always)
func standardNormalQuantile(_ p0: Double) -> Double {
    let p = p0 > 0 ? p0 : 0x1.0p-54
    let pLow = 0.02425
    if p < pLow || p > 1 - pLow {
        let q = (-2 * Foundation.log(p < pLow ? p : 1 - p)).squareRoot()
        var x = (((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
            - 2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
        x /= ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
            + 3.754408661907416e+00) * q + 1)
        return p < pLow ? x : -x
    }
    let q = p - 0.5
    let r = q * q
    let num = (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
        + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
    let den = ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
        + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1
    return num / den
}

// Held runs (handlers that never complete) and the bytes of background work.
extension DeviceSimulator {
    /// A held run lost its connection during its transfer: the transfer
    /// fails and stops now (its energy so far is spent), but the run, whose
    /// handler never completes, is held on to its budget.
    mutating func holdAfterConnectionLost() {
        let refund = radio.cutLastTransfer(at: now)
        metrics.energy.active += refund.active
        runningTask.ledger.active += refund.active
        runningTask.transferredFraction = runningTask.transferFraction(at: now)
        runningTask.fails = true
        runningTask.cpuSeconds = 0
        runningTask.dataEnd = now
        runningTask.naturalEnd = now
    }

    /// Adds the bytes `task` moved by `t` to the per-network totals.
    mutating func countBytes(of task: RunningTask, at t: SimTime) {
        guard task.network != .offline else { return }
        let work = slotWork[Int(task.request.app) &* 3 &+ Int(task.request.kind.rawValue)]
        let bytes = (work.bytesUp + work.bytesDown) * task.transferFraction(at: t)
        if task.network == .cellular { metrics.backgroundBytesCellular += bytes } else { metrics.backgroundBytesWifi += bytes }
    }
}
