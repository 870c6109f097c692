import SimCore

/// The silent-push mechanism's state in one simulation: iOS's channel
/// (throttle, hold, coalesce), the handler runs in progress (at most one
/// per app) and the per-app draw prefixes. Nil in the simulator when no app
/// pushes (the feature off: no cost, no change to results).
struct SilentPushComponent {
    var channel: SilentPushChannel
    /// A push's background handler run: the run, the first push it answers
    /// and how many (coalesced) pushes.
    struct Run: Hashable, PlannedRunEntry {
        var run: PlannedBackgroundRun
        var firstSentAt: SimTime
        var pushes: Int

        var plannedRun: PlannedBackgroundRun { run }
    }

    /// The background handler runs in progress (at most one per app).
    var runs: PerAppRuns<Run>
    /// The user's Background App Refresh switch per app (the trace's).
    let backgroundAppRefreshOn: [Bool]
    let draws: PlannedRunDraws

    /// The component's next event: a run's end, a held push's release or an arrival.
    var nextTime: SimTime { min(runs.nextEnd, channel.nextTime) }

    /// Nil unless some app's server pushes.
    init?(trace: DeviceTrace, models: [AppModel], rules: SilentPushRules, random: DeviceRandom) {
        guard models.contains(where: { $0.silentPush.pushes }) else { return nil }
        let n = models.count
        var times: [[SimTime]] = []
        for a in 0..<n {
            let updates = a < trace.contentUpdates.count ? trace.contentUpdates[a] : []
            times.append(models[a].silentPush.sendTimes(updates: updates, horizon: trace.horizon))
        }
        channel = SilentPushChannel(sendTimes: times, rules: rules)
        runs = PerAppRuns(apps: n)
        backgroundAppRefreshOn = (0..<n).map { trace.backgroundAppRefreshEnabled?[$0] ?? true }
        draws = PlannedRunDraws(apps: n, failure: { random.prefix(RandomPurpose.silentPushFailure.rawValue, $0) },
                                latency: { random.prefix(RandomPurpose.silentPushLatency.rawValue, $0) })
    }
}

// Silent push in the loop: its next time is one of the mechanisms'
// (`DeviceSimulator+Mechanisms.swift`); within the component, a run's end,
// then held releases, then an arrival.
//
// Beside the worker, not on it: iOS runs a push's handler concurrently with
// a BGTask, and so does the simulator, with one simplification: a push is
// not delivered while a background task's transfer is in flight (it is
// held until that transfer's end), because the radio model charges and
// cuts one transfer at a time.
extension DeviceSimulator {
    /// Handles the silent-push event due now (`push.nextTime == now`).
    mutating func silentPushEvent() {
        guard mechanisms.push != nil else { return }
        if mechanisms.push!.runs.nextEnd <= now {
            for a in 0..<mechanisms.push!.runs.appCount {
                if let r = mechanisms.push!.runs.takeIfEnded(app: a, by: now) { finishPushRun(r) }
            }
            mechanisms.push!.runs.recomputeNextEnd()
        } else if mechanisms.push!.channel.nextRelease <= now {
            reexaminePushes(onlyWaiting: false)
        } else if mechanisms.push!.channel.nextArrival <= now {
            let arrival = mechanisms.push!.channel.takeArrival()
            metrics.user.silentPush[.sent] &+= 1
            let outcome = mechanisms.push!.channel.offer(arrival, at: now, gate: pushGate(app: arrival.app),
                                              drop: pushDrop(app: arrival.app))
            handle(outcome, app: arrival.app, sentAt: arrival.time)
        }
    }

    /// After every loop step: held pushes whose gate was closed are
    /// re-examined (the step may have opened it: charger, network, level).
    mutating func silentPushAfterStep() {
        guard mechanisms.push != nil, mechanisms.push!.channel.waitingForGate > 0 else { return }
        reexaminePushes(onlyWaiting: true)
    }

    mutating func reexaminePushes(onlyWaiting: Bool) {
        for a in 0..<mechanisms.push!.runs.appCount where mechanisms.push!.channel.isDue(a, at: now) {
            if onlyWaiting && mechanisms.push!.channel.held[a]?.releaseAt != .farFuture { continue }
            let h = mechanisms.push!.channel.held[a]!
            if let outcome = mechanisms.push!.channel.examine(a, at: now, gate: pushGate(app: Int32(a)), drop: pushDrop(app: Int32(a))) {
                handle(outcome, app: Int32(a), sentAt: h.firstSentAt)
            }
        }
    }

    /// Why a push of `app` is dropped now, if it is.
    func pushDrop(app: Int32) -> SilentPushChannel.DropReason? {
        if appIsForceQuit(app) { return .forceQuit }
        if !mechanisms.push!.backgroundAppRefreshOn[Int(app)] { return .backgroundAppRefreshOff }
        return nil
    }

    /// Whether the device lets a push of `app` through now.
    func pushGate(app: Int32) -> SilentPushChannel.Gate {
        // The foreground app receives it while running (no launch).
        if state.foregroundApp == app { return .open }
        if let android {
            // FCM's priorities and Doze instead of iOS's battery holds (AndroidPlatform.md A15).
            if !android.fcmDeliversNow(app: Int(app), at: now, state: state) { return .closed }
        } else if rules.eligibility.contentRefreshBlocked(state) != nil {
            // Low Power Mode and the low-battery level hold pushes as they hold
            // app refresh (rule 4's one home, `EligibilityRules`).
            return .closed
        }
        if !state.network.isOnline { return .closed }
        var from = SimTime.zero
        if let r = mechanisms.push!.runs.entries[Int(app)] { from = r.run.end }
        if worker.isRunning && worker.running.dataEnd > now { from = max(from, worker.running.dataEnd) }
        return from > now ? .openFrom(from) : .open
    }

    mutating func handle(_ outcome: SilentPushChannel.Outcome, app: Int32, sentAt: SimTime) {
        switch outcome {
        case .delivered(let d):
            android?.fcmDelivered(app: Int(app), at: now)
            metrics.user.silentPush[.delaySumSeconds] += (now - d.firstSentAt).seconds
            if state.foregroundApp == app { deliverInForeground(d) } else { startPushRun(d) }
        case .held:
            logPush(app: app, sentAt: sentAt, detail: "held")
        case .coalesced:
            metrics.user.silentPush[.coalesced] &+= 1
            logPush(app: app, sentAt: sentAt, detail: "coalesced")
        case .dropped(let reason, let pushes):
            metrics.user.silentPush[.dropped] &+= pushes
            logPush(app: app, sentAt: sentAt, detail: "dropped_" + reason.rawValue)
        }
    }

    /// The app in the foreground gets the push and fetches right away, on
    /// the foreground's radio: no background energy.
    mutating func deliverInForeground(_ d: SilentPushChannel.Delivery) {
        metrics.user.silentPush[.deliveredForeground] &+= 1
        var got: Bool? = nil
        if state.network.isOnline { got = apps.fetchContent(app: Int(d.app), at: now) }
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .silentPush, time: now, device: state)
            e.app = d.app; e.requestedAt = d.firstSentAt; e.start = now; e.end = now; e.newData = got
            e.detail = d.pushes > 1 ? "foreground n=\(d.pushes)" : "foreground"
            sink.record(e)
        }
    }

    /// A background delivery: the app is woken (wake energy) and runs its
    /// refresh work, planned whole now (`PlannedBackgroundRun`).
    mutating func startPushRun(_ d: SilentPushChannel.Delivery) {
        let a = Int(d.app)
        let n = mechanisms.push!.runs.nextRunNumber(app: a)
        metrics.user.silentPush[.deliveredBackground] &+= 1
        let run = startPlannedRun(app: d.app, work: apps.models[a].refresh, wakes: true,
                                  budget: config.silentPush.handlerBudget, draws: mechanisms.push!.draws, run: n)
        metrics.user.silentPush[.energyJoules] += run.ledger.wake + run.ledger.promotion + run.ledger.active
        mechanisms.push!.runs.start(.init(run: run, firstSentAt: d.firstSentAt, pushes: d.pushes), app: a)
    }

    /// A run reaches its end (taken out of the runs in progress): CPU
    /// charged, content fetched on success.
    mutating func finishPushRun(_ r: SilentPushComponent.Run) {
        let a = Int(r.run.app)
        let run = settleCPU(of: r.run)
        metrics.user.silentPush[.energyJoules] += run.ledger.cpu
        var got: Bool? = nil
        switch run.outcome {
        case .success:
            metrics.user.silentPush[.succeeded] &+= 1
            let fetched = apps.fetchContent(app: a, at: run.dataEnd)
            got = fetched
            if fetched {
                metrics.user.silentPush[.newData] &+= 1
                apps.state[a].unconsumedRefresh = true
            }
        case .failed: metrics.user.silentPush[.failed] &+= 1
        case .expired: metrics.user.silentPush[.expired] &+= 1
        }
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .silentPush, time: now, device: state)
            e.app = run.app; e.requestedAt = r.firstSentAt; e.start = run.start; e.end = run.end
            e.outcome = run.outcome; e.newData = got; e.energy = run.ledger
            e.detail = r.pushes > 1 ? "delivered n=\(r.pushes)" : "delivered"
            sink.record(e)
        }
    }

    /// At the horizon: a run still going is censored (its CPU up to the
    /// horizon counts, no outcome); held pushes are counted.
    mutating func finishSilentPush() {
        guard mechanisms.push != nil else { return }
        for r in mechanisms.push!.runs.takeAll() {
            metrics.user.silentPush[.energyJoules] += censorAtHorizon(r.run)
        }
        for case let h? in mechanisms.push!.channel.held { metrics.user.silentPush[.heldAtEnd] &+= h.pushes }
    }

    mutating func logPush(app: Int32, sentAt: SimTime, detail: String) {
        guard Sink.isEnabled else { return }
        var e = DeviceEvent(kind: .silentPush, time: now, device: state)
        e.app = app; e.requestedAt = sentAt; e.detail = detail
        sink.record(e)
    }
}
