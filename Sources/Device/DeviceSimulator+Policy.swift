import SimCore

// The seam: building the context, telling the policy, obeying it within the rules.
extension DeviceSimulator {
    /// The context a policy sees now.
    ///
    /// Kept in `ctx` instead of built per call: building one per observation
    /// and decision (and copying it into the call) was the largest single
    /// cost of the loop. The fields that never change during a run
    /// (`appCount`, `random`, `future`, `refreshBudget`) are set once in
    /// `init`; `now`, `device`, `lastSessionEnd` and `pending` are the
    /// simulator's `now`, `state`, `lastSessionEnd` and `pending` themselves
    /// (see them); the others are brought up to date here, just before each
    /// policy call. Nothing else reads `ctx`, so it cannot be stale where it
    /// is used.
    ///
    /// The policy call copies the context (exclusive access to `self`), so a
    /// field stored just before it stalls that copy (store-to-load
    /// forwarding): hence the fields stored in place where they change, and
    /// the conditional stores here.
    @inline(__always)
    mutating func refreshContext() {
        // Stored only when changed (often not, between two calls). Compared
        // bit for bit, so the context holds exactly the value it would have
        // been given (-0.0, NaN).
        let up = radio.tailEnds(at: now)
        if up != ctx.radioUpUntil { ctx.radioUpUntil = up }
        let joules = metrics.energy.total
        if joules.bitPattern != ctx.backgroundJoules.bitPattern { ctx.backgroundJoules = joules }
    }

    /// Runs `body` on the scheduler with the pending requests moved into it
    /// (see `pending`), and moves them back.
    @inline(__always)
    mutating func withScheduler<R>(_ body: (inout BackgroundTaskScheduler) -> R) -> R {
        scheduler.swapPending(with: &ctx.pending)
        let r = body(&scheduler)
        scheduler.swapPending(with: &ctx.pending)
        return r
    }

    /// Tells the policy, unless it declared that it ignores this kind of
    /// observation (``SchedulingPolicy/observedKinds``; most observations
    /// go unread by the simple policies, and each call costs a context
    /// refresh and a dynamic call).
    ///
    /// `kind` is the observation's kind, named at the call so that the
    /// observation (a task report, a request) is built only when it is
    /// delivered: built before the test, its stores cost 10 M instructions
    /// (default suite, 40 users), mostly for policies that ignore it.
    @inline(__always)
    mutating func policyObserve(_ kind: ObservationKinds, _ observation: @autoclosure () -> PolicyObservation) {
        guard observes.contains(kind) else { return }
        let observation = observation()
        #if BGBENCH_INVARIANTS
        precondition(observation.kind == kind, "observation of another kind than named")
        #endif
        refreshContext()
        policy.observe(observation, context: ctx)
    }

    /// A decision point: ask the policy, queue what it may run, refuse the rest.
    mutating func consultPolicy() {
        // Nothing is decided at or after the end of the run.
        guard now < horizon else { return }
        // Nothing runs or waits: the first request let through below starts
        // at the end of this call (`first`) without passing through
        // `runQueue`, whose append and pop (two uniqueness checks, two
        // copies) came at nearly every wake. The rest queue behind it.
        let startsNow = !isRunning && runQueue.isEmpty
        var first: TaskRequest? = nil
        refreshContext()
        let decision = policy.decide(context: ctx)
        if let w = decision.wakeAt, w > now { policyWake = w } else { policyWake = .farFuture }
        // `runList`, not `run`: nil when empty (see there), so the usual
        // decision has no list to release.
        if let run = decision.runList {
            for id in run {
                guard let i = pending.firstIndex(where: { $0.id == id }) else { refuse(id, .notPending); continue }
                if let reason = OSRules.refusal(for: pending[i], at: now, state: state) {
                    refuse(id, reason); continue
                }
                let request = pending.remove(at: i)
                if startsNow && first == nil { first = request } else { runQueue.append(request) }
            }
        }
        if decision.runAllEligible {
            var i = 0
            while i < pending.count {
                if OSRules.refusal(for: pending[i], at: now, state: state) == nil {
                    let request = pending.remove(at: i)
                    if startsNow && first == nil { first = request } else { runQueue.append(request) }
                } else {
                    i += 1
                }
            }
        }
        if let request = first {
            countWake()
            start(request)   // its rules were checked just above, at this time and state
        } else if !isRunning && !runQueue.isEmpty {
            countWake()
            startNextTask()
        }
    }

    /// One wake for the batch: the app(s) are launched or resumed once.
    @inline(__always)
    mutating func countWake() {
        metrics.backgroundWakes += 1
        appState[wakesIn: Int(now.timeOfDay.microseconds / SimDuration.microsecondsPerHour)] += 1
        metrics.energy.wake += config.energy.wakeJoules
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .wake, time: now, device: state)
            e.energy.wake = config.energy.wakeJoules
            sink.record(e)
        }
    }

    mutating func refuse(_ id: RequestID, _ reason: Refusal) {
        metrics.tasksRefused += 1
        metrics.refusalsByReason[Int(reason.rawValue)] += 1
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .refused, time: now, device: state)
            e.requestID = id; e.detail = reason.name
            sink.record(e)
        }
        policyObserve(.refused, .refused(id, reason))
    }
}
