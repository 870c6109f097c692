import Foundation
import SimCore

// Starting and ending background tasks (`TaskWorker`'s events): a start
// draws the outcome and the transfer (worker, radio, apps, metrics), an end
// settles energy and outcome, tells the policy, lets the app resubmit.
extension DeviceSimulator {
    /// Starts the next queued task (re-checking the rules: state may have
    /// changed since it was queued). Inlined: called at every task end,
    /// where the queue is nearly always empty.
    @inline(__always)
    mutating func startNextTask() {
        // Nothing starts at or after the end of the run.
        while !worker.isRunning, !worker.runQueue.isEmpty, now < horizon {
            let request = worker.takeNext()
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
            if platformRefusal(for: request) != nil {
                withScheduler { $0.restore(request) }
                pendingChangedByScheduler(replaced: -1)   // `restore` only appends
                continue
            }
            start(request)
        }
        if !worker.isRunning { worker.stopped() }
    }

    /// Starts `request` now. Work it out, then apply: what happens is
    /// worked out as one value (``TaskStart``: the failure, what blocks a
    /// networked run, the transfer asked of the radio, the CPU, a held or
    /// overrunning handler, the budget's end) from the state and the run's
    /// draws, then applied here, in one place.
    mutating func start(_ request: TaskRequest) {
        let app = Int(request.app)
        // Index arithmetic on small values: wrapping operators, no overflow tests.
        let slot = app &* 3 &+ Int(request.kind.rawValue)
        let n = apps.state[runsOf: slot]
        // The per-slot tables and the app's model are read through their
        // buffers: `slot` was checked against the app count
        // (`apps.state[runsOf:]` above), they hold 2, 1 and 3 entries per
        // slot, and `app` is a request's, which the scheduler checked
        // against its registrations (one per model). The slot's work model
        // is read field by field in place, not copied: a copy picked
        // between the app model's `processing` and `refresh` is a branch,
        // two bounds checks and a copy spilled to the stack at every start.
        let network = state.network
        let prefix = worker.drawPrefixes.withUnsafeBufferPointer { $0[2 &* slot] }
        let (failureProbability, cpuSeconds, usesNetwork) = worker.slotWork.withUnsafeBufferPointer {
            ($0[slot].failureProbability(on: network), $0[slot].cpuSeconds, $0[slot].usesNetwork)
        }
        let (neverP, style, resubmitsAtStart) = apps.models.withUnsafeBufferPointer {
            ($0[app].neverCompletesProbability, $0[app].handlerStyle, $0[app].resubmitsAtStart)
        }
        let s = TaskStart(
            kind: request.kind, run: n, at: now, network: network,
            failureDraw: DeviceRandom.uniform(prefix: prefix, n),   // `random.uniform(.taskFailure, slot, n)`
            failureProbability: failureProbability, cpuSeconds: cpuSeconds, usesNetwork: usesNetwork,
            processingProgress: request.kind == .processing ? apps.state[app].processingProgress : 0,
            budget: worker.budget(for: request.kind), cancellationGrace: config.cancellationGrace,
            handlerStyle: style, neverCompletesProbability: neverP,
            neverCompletesDraw: { random.uniform(RandomPurpose.neverCompletes.rawValue, UInt64(slot), n) },
            block: { NetworkedRunBlock.of(deadZone: mechanisms.deadZones?.isDead(at: now) == true,
                                          backendDown: outages.isDown(app: app, at: now)) },
            deadZoneTimeout: { mechanisms.deadZones!.requestTimeout },
            shape: { worker.transferShapes.withUnsafeBufferPointer { $0[slot &* 3 &+ Int(network.rawValue)] } },
            serverLatency: { worker.serverLatency(slot: slot, run: n) })

        apps.state[runsOf: slot] = n &+ 1
        if let android { android.jobStarted(app: app, at: now, state: state) }
        // Chain scheduling: the handler resubmits first thing (or forgets).
        if request.kind == .appRefresh && resubmitsAtStart { resubmit(request, run: n) }
        var ledger = EnergyLedger()
        var dataEnd = now
        if let transfer = s.transfer {
            let t = networks.radio.backgroundTransfer(at: now, shape: transfer.shape, latency: transfer.latency)
            dataEnd = t.end
            ledger = t.ledger
            // The tail gap this transfer settled (from the previous
            // transfer's end to now) is the earlier work's tail, not this
            // task's: it goes to the metrics as a tail row, and the task's
            // ledger holds only its own promotion and active energy (then
            // CPU). So wasted energy never includes it.
            ledger.tail = 0
            syncRadioTail()
        }
        // Times and budgets are far from Int64's range: wrapping operators
        // on their microseconds, no overflow tests per task.
        metrics.taskStarted(s, energy: ledger, delayMicros: now.microseconds &- request.earliestBegin.microseconds)
        let natural = s.naturalEnd(dataEnd: dataEnd)
        // Stored field by field, the request first: a whole `RunningTask`
        // built here kept a copy of the request on the stack across the
        // resubmission. Nothing reads `worker.running` before
        // `worker.isRunning` is set.
        worker.running.request = request
        worker.running.start = now; worker.running.dataEnd = dataEnd; worker.running.naturalEnd = natural
        worker.running.cpuSeconds = s.cpuSeconds; worker.running.fails = s.fails; worker.running.ledger = ledger
        worker.running.network = s.network; worker.running.block = s.block
        worker.running.neverCompletes = s.holds
        worker.running.ignoresCancellation = s.ignoresCancellation
        worker.running.transferredFraction = s.transferredFraction
        worker.started(endingAt: s.end(naturalEnd: natural))
    }

    /// Ends the running task at `now`: naturally, at its budget, cut short
    /// by an interruption (session start, unplugged: expired), or by the
    /// network going offline during its transfer (`connectionLost`: failed).
    ///
    /// Work it out, then apply: the transfer stops where it got to, the end
    /// is worked out as one value (``TaskEnd``: outcome, CPU and its
    /// energy, what happens to the content, the report, the row's detail),
    /// then applied here, in one place: energy, content, metrics
    /// (`MetricsAccumulator.taskEnded`), the task row, the app's
    /// follow-ups (resubmission, retry, legacy fetch), the report to the
    /// policy, the next task.
    mutating func finishRunningTask(interrupted: Bool = false, connectionLost: Bool = false) {
        guard worker.isRunning else { return }
        if connectionLost && worker.running.neverCompletes {
            holdAfterConnectionLost()
            return
        }
        worker.stopped()
        if connectionLost {
            worker.running.fails = true
            // Lost in a dead zone (at a zone's start, or offline inside
            // one): the zone is what made it fail.
            if worker.running.network != .offline && mechanisms.deadZones?.isDead(at: now) == true {
                worker.running.block = .deadZone
            }
        }
        // The task's fields are read (and its ledger completed) in place in
        // `worker.running`, not in a copy of its ~100 bytes. It is not
        // replaced before `startNextTask` at the end.
        // The request's fields too are read in place, when used: a copy of
        // it taken here would be kept (spilled) across the calls below for
        // the report. `worker.running` does not change before `startNextTask`.
        let kind = worker.running.request.kind
        let app = Int(worker.running.request.app)
        countBytes(of: worker.running, at: now)
        if now < worker.running.dataEnd { cutRunningTransfer() }
        // The model through the buffer: `app` is a request's, which the
        // scheduler checked against its registrations (one per model).
        let end = TaskEnd(worker.running, at: now, interrupted: interrupted, connectionLost: connectionLost,
                          budget: worker.budget(for: kind), cpuWatts: config.energy.cpuWatts,
                          reportsHonestly: apps.models.withUnsafeBufferPointer { $0[app].reportsHonestly },
                          checkpointsOnExpiration: apps.models[app].checkpointsOnExpiration)

        worker.running.ledger.cpu = end.cpuJoules
        var newData: Bool? = nil
        var wastedRefresh = false
        var fetchResult = end.failureReport
        switch end.content {
        case .none:
            break
        case .fetch(let reported):
            let got = apps.fetchContent(app: app, at: worker.running.dataEnd)
            newData = got
            if reported {
                wastedRefresh = !got || apps.state[app].unconsumedRefresh
                fetchResult = (got || !apps.models.withUnsafeBufferPointer({ $0[app].reportsHonestly })) ? .newData : .noData
            }
            if got { apps.state[app].unconsumedRefresh = true }
        case .processingDone(let t):
            apps.state[app].processingProgress = 0
            apps.state[app].lastProcessingDone = t
        case .checkpoint(let seconds):
            apps.state[app].processingProgress += seconds
        }
        metrics.taskEnded(end, energy: worker.running.ledger, wastedRefresh: wastedRefresh)
        if let android { androidTaskEnded(android, app: app, kind: kind, outcome: end.outcome) }
        if Sink.isEnabled {
            logTask(outcome: end.outcome, newData: newData, energy: worker.running.ledger, detail: end.detail.text)
        }
        // Read through the buffer: `app` is a request's, which the
        // scheduler checked against its registrations (one per model).
        if kind == .appRefresh && !apps.models.withUnsafeBufferPointer({ $0[app].resubmitsAtStart }) {
            resubmit(worker.running.request, run: apps.state[runsOf: app &* 3] &- 1)
        }
        // The app retries a failed refresh soon (replacing the request its
        // handler submitted): `AppModel.retryDelayAfterFailure`.
        if end.outcome == .failed && kind == .appRefresh, let delay = apps.models[app].retryDelayAfterFailure {
            submit(app: worker.running.request.app, identifier: refreshIdentifier, earliestBegin: now + delay,
                   power: false, network: apps.models[app].refresh.usesNetwork, cause: .retry)
        }
        if kind == .legacyFetch { armLegacyFetch(app: worker.running.request.app, after: now) }
        let f = worker.running.network == .offline ? 0 : worker.running.transferFraction(at: now)
        let work = worker.slotWork[app &* 3 &+ Int(kind.rawValue)]
        let report = TaskReport(request: worker.running.request, start: worker.running.start, end: now,
                                outcome: end.outcome, fetchResult: fetchResult,
                                energyJoules: worker.running.ledger.total,
                                bytesUp: work.bytesUp * f, bytesDown: work.bytesDown * f, network: worker.running.network)
        policyObserve(.taskFinished, .taskFinished(report))
        startNextTask()
        if !worker.isRunning { consultPolicy() }
    }

    /// The handler resubmits its refresh request, unless it forgets (rule 6).
    /// Inlined: it runs at nearly every task start, and is short.
    @inline(__always)
    mutating func resubmit(_ request: TaskRequest, run n: UInt64) {
        let a = Int(request.app)
        // Through the buffer: `a` is a request's app (see `start`).
        let (p, delay, network) = apps.models.withUnsafeBufferPointer {
            ($0[a].forgetProbability, $0[a].refreshEarliestBeginDelay, $0[a].refresh.usesNetwork)
        }
        let forgets = p > 0 && random.uniform(RandomPurpose.forgetsToResubmit.rawValue, UInt64(request.app), n) < p
        if forgets {
            metrics.user.chainBreaks += 1
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .chainBreak, time: now, device: state)
                e.app = request.app
                sink.record(e)
            }
            return
        }
        submit(app: request.app, identifier: refreshIdentifier, earliestBegin: now + delay, power: false, network: network,
               cause: .nextPeriod)
    }
}

// Held runs (handlers that never complete) and the bytes of background work.
extension DeviceSimulator {
    /// A held run lost its connection during its transfer: the transfer
    /// fails and stops now (its energy so far is spent), but the run, whose
    /// handler never completes, is held on to its budget.
    mutating func holdAfterConnectionLost() {
        cutRunningTransfer()
        worker.running.transferredFraction = worker.running.transferFraction(at: now)
        worker.running.fails = true
        worker.running.cpuSeconds = 0
        worker.running.dataEnd = now
        worker.running.naturalEnd = now
    }

    /// The running task's transfer stops now, before its bytes are all in
    /// (its end, an interruption, a lost connection, the horizon): the
    /// radio gives back the active energy it had charged beyond now, to the
    /// metrics and to the task's ledger alike.
    mutating func cutRunningTransfer() {
        let refund = networks.radio.cutLastTransfer(at: now)
        metrics.transferCut(refund)
        worker.running.ledger.active += refund.active
    }

    /// Adds the bytes `task` moved by `t` to the per-network totals.
    mutating func countBytes(of task: TaskWorker.RunningTask, at t: SimTime) {
        guard task.network != .offline else { return }
        let work = worker.slotWork[Int(task.request.app) &* 3 &+ Int(task.request.kind.rawValue)]
        let bytes = (work.bytesUp + work.bytesDown) * task.transferFraction(at: t)
        if task.network == .cellular {
            metrics.user.backgroundBytesCellular += bytes
        } else {
            metrics.user.backgroundBytesWifi += bytes
        }
        if Sink.isEnabled { sink.attribute(app: task.request.app, bytes: bytes, network: task.network) }
    }
}
