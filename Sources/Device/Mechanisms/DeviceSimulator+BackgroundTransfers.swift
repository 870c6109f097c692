import SimCore

// Background URLSession (`BackgroundTransfers`): transfers handed at
// session ends, run by the system beside the worker when their condition
// holds, completions delivered by rate-limited background relaunches.
extension DeviceSimulator {
    /// At the end of session `session` of `app` (from `endSession`, after
    /// its extra time if any): the app may hand a transfer.
    mutating func appMayHandTransfer(app: Int32, session: Int) {
        guard mechanisms.transfers != nil, let model = apps.models[Int(app)].backgroundTransfer, model.probability > 0 else { return }
        let a = Int(app)
        guard DeviceRandom.uniform(prefix: mechanisms.transferPrefixes[a], UInt64(session)) < model.probability else { return }
        if mechanisms.transfers!.transfers[a] != nil {
            metrics.user.urlSession[.alreadyPending] &+= 1
            return
        }
        metrics.user.urlSession[.handed] &+= 1
        mechanisms.transfers!.transfers[a] = .init(handedAt: now, phase: .waiting, joules: 0, lastStart: nil,
                                        followUps: model.followUps)
        logTransfer(app: app, detail: "handed")
        examineTransfers()
    }

    /// Whether the system would run `model`'s transfer now, and until when
    /// (its condition's end: the next offline time; for a discretionary
    /// transfer also leaving Wi-Fi or the charger); nil: not now.
    func transferCondition(_ model: BackgroundTransferModel) -> SimTime? {
        guard state.network.isOnline else { return nil }
        var until = nextOffline(after: now)
        if model.discretionary {
            guard state.network == .wifi, state.isCharging else { return nil }
            var i = networks.index + 1
            while i < networks.segments.count && networks.segments[i].network == .wifi { i += 1 }
            if i < networks.segments.count { until = min(until, networks.segments[i].start) }
            if power.charger.index < power.charger.intervals.count { until = min(until, power.charger.current.end) }
        }
        return until
    }

    /// Waiting transfers: timed out, or started if their condition holds
    /// and no task's transfer is in flight (the radio model charges one
    /// transfer at a time; as for silent push).
    mutating func examineTransfers() {
        guard mechanisms.transfers != nil else { return }
        for a in 0..<mechanisms.transfers!.transfers.count {
            guard let x = mechanisms.transfers!.transfers[a], case .waiting = x.phase else { continue }
            if now >= x.handedAt + mechanisms.transfers!.rules.resourceTimeout {
                mechanisms.transfers!.transfers[a] = nil
                metrics.user.urlSession[.timedOut] &+= 1
                logTransfer(app: Int32(a), detail: "timed_out", handedAt: x.handedAt, outcome: .failed)
                continue
            }
            guard let model = apps.models[a].backgroundTransfer, let until = transferCondition(model) else { continue }
            if worker.isRunning && worker.running.dataEnd > now { continue }
            startTransfer(app: a, model: model, until: until)
        }
    }

    mutating func startTransfer(app a: Int, model: BackgroundTransferModel, until: SimTime) {
        metrics.user.urlSession[.runs] &+= 1
        let shape = RadioModel.shape(bytesUp: model.bytesUp, bytesDown: model.bytesDown,
                                     on: config.energy.radio(state.network))
        let t = networks.radio.backgroundTransfer(at: now, shape: shape, latency: apps.models[a].refresh.serverLatency)
        syncRadioTail()
        var joules = t.ledger.promotion + t.ledger.active
        var refunded = 0.0
        metrics.user.energy.promotion += t.ledger.promotion
        metrics.user.energy.active += t.ledger.active
        if until < t.end {
            // It will be paused before its bytes are in: the active energy
            // it will not spend is refunded now (its transfer is the radio's last).
            let refund = networks.radio.cutLastTransfer(at: max(now, until))
            metrics.user.energy.active += refund.active
            joules += refund.active
            refunded = refund.active
        }
        metrics.user.urlSession[.energyJoules] += joules
        if Sink.isEnabled {
            // On no events.csv row (the started row has no energy): told to the sink for apps.csv.
            var ledger = EnergyLedger()
            ledger.promotion = t.ledger.promotion
            ledger.active = t.ledger.active
            ledger.active += refunded
            sink.attribute(app: Int32(a), energy: ledger)
        }
        mechanisms.transfers!.transfers[a]!.joules += joules
        mechanisms.transfers!.transfers[a]!.lastStart = now
        mechanisms.transfers!.transfers[a]!.phase = .running(start: now, dataEnd: t.end, pauseAt: until)
        logTransfer(app: Int32(a), detail: "started")
    }

    /// The transfer event due now.
    mutating func backgroundTransferEvent() {
        for a in 0..<mechanisms.transfers!.transfers.count {
            guard let x = mechanisms.transfers!.transfers[a] else { continue }
            switch x.phase {
            case .waiting:
                break   // timeouts: `examineTransfers`, after this step
            case let .running(_, dataEnd, pauseAt):
                if pauseAt < dataEnd && pauseAt <= now {
                    metrics.user.urlSession[.paused] &+= 1
                    mechanisms.transfers!.transfers[a]!.phase = .waiting
                    logTransfer(app: Int32(a), detail: "paused")
                } else if dataEnd <= now {
                    metrics.user.urlSession[.completed] &+= 1
                    let served = x.lastStart ?? now
                    if state.foregroundApp == Int32(a) {
                        deliverTransferInForeground(app: a, servedAt: served)
                    } else {
                        let at = mechanisms.transfers!.relaunchAt(app: a, done: now)
                        mechanisms.transfers!.transfers[a]!.phase = .done(at: now, relaunchAt: at, servedAt: served)
                        logTransfer(app: Int32(a), detail: "completed")
                    }
                }
            case let .done(doneAt, relaunchAt, servedAt):
                guard relaunchAt <= now else { continue }
                relaunchForTransfer(app: a, doneAt: doneAt, servedAt: servedAt)
            }
        }
    }

    /// The app is relaunched in the background to handle the completion:
    /// a wake and its handler's CPU; the rate limit moves on.
    mutating func relaunchForTransfer(app a: Int, doneAt: SimTime, servedAt: SimTime) {
        let x = mechanisms.transfers!.transfers[a]!
        mechanisms.transfers!.transfers[a] = nil
        mechanisms.transfers!.relaunched(app: a, at: now)
        metrics.user.urlSession[.relaunches] &+= 1
        metrics.user.urlSession[.relaunchWaitSumSeconds] += (now - doneAt).seconds
        var ledger = EnergyLedger()
        ledger.wake = config.energy.wakeJoules
        ledger.cpu = mechanisms.transfers!.rules.relaunchCPUSeconds * config.energy.cpuWatts
        metrics.user.energy.wake += ledger.wake
        metrics.user.energy.cpu += ledger.cpu
        metrics.user.urlSession[.energyJoules] += ledger.wake + ledger.cpu
        let got = apps.models[a].backgroundTransfer?.fetchesContent == true ? apps.fetchContent(app: a, at: servedAt) : false
        if got {
            metrics.user.urlSession[.newData] &+= 1
            apps.state[a].unconsumedRefresh = true
        }
        logTransfer(app: Int32(a), detail: "relaunch", handedAt: x.handedAt, outcome: .success, newData: got,
                    energy: ledger)
        if x.followUps > 0 {
            // The relaunched app hands its next transfer.
            metrics.user.urlSession[.handed] &+= 1
            mechanisms.transfers!.transfers[a] = .init(handedAt: now, phase: .waiting, joules: 0, lastStart: nil,
                                            followUps: x.followUps - 1)
            logTransfer(app: Int32(a), detail: "handed")
            examineTransfers()
        }
    }

    mutating func deliverTransferInForeground(app a: Int, servedAt: SimTime) {
        let x = mechanisms.transfers!.transfers[a]!
        mechanisms.transfers!.transfers[a] = nil
        metrics.user.urlSession[.deliveredForeground] &+= 1
        let got = apps.models[a].backgroundTransfer?.fetchesContent == true ? apps.fetchContent(app: a, at: servedAt) : false
        if got { metrics.user.urlSession[.newData] &+= 1 }
        logTransfer(app: Int32(a), detail: "foreground", handedAt: x.handedAt, outcome: .success, newData: got)
    }

    /// A foreground launch of `app` (from `startSession`): the relaunch
    /// delay starts again, and a completion waiting for its relaunch is
    /// handled in the foreground now.
    mutating func transfersSeeForegroundLaunch(app: Int32) {
        let a = Int(app)
        mechanisms.transfers!.launchedInForeground(app: a)
        if let x = mechanisms.transfers!.transfers[a], case let .done(_, _, servedAt) = x.phase {
            deliverTransferInForeground(app: a, servedAt: servedAt)
        }
    }

    mutating func logTransfer(app: Int32, detail: String, handedAt: SimTime? = nil, outcome: TaskOutcome? = nil,
                              newData: Bool? = nil, energy: EnergyLedger = EnergyLedger()) {
        guard Sink.isEnabled else { return }
        var e = DeviceEvent(kind: .urlSession, time: now, device: state)
        e.app = app; e.requestedAt = handedAt ?? mechanisms.transfers!.transfers[Int(app)]?.handedAt
        if case let .running(start, dataEnd, pauseAt)? = mechanisms.transfers!.transfers[Int(app)]?.phase {
            e.start = start; e.end = min(dataEnd, pauseAt)
        }
        e.outcome = outcome; e.newData = newData; e.energy = energy; e.detail = detail
        sink.record(e)
    }
}
