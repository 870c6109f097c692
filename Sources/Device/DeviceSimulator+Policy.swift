import SimCore

// The seam: building the context, telling the policy, obeying it within the rules.
extension DeviceSimulator {
    /// The context a policy sees now.
    ///
    /// Kept in `ctx` instead of built per call: building one per observation
    /// and decision (and copying it into the call) was the largest single
    /// cost of the loop. The fields that never change during a run
    /// (`appCount`, `random`, `future`, `refreshBudget`) are set once in
    /// `init`, `device` is the simulator's `state` itself (see `state`);
    /// the others are brought up to date here, just before each
    /// policy call. Nothing else reads `ctx`, so it cannot be stale where it
    /// is used.
    ///
    /// The pending requests are *moved* into the context (swapped with the
    /// empty array it holds between calls) rather than shared: sharing costs
    /// a retain and a release per call and would make the scheduler's next
    /// submit copy the array (copy-on-write). `releaseContext` moves them
    /// back; the scheduler's own list is empty in between, and nothing but
    /// the policy call runs in between.
    @inline(__always)
    mutating func refreshContext() {
        ctx.now = now   // ctx.device is `state` itself
        scheduler.swapPending(with: &ctx.pending)
        ctx.radioUpUntil = radio.tailEnds(at: now)
        ctx.lastSessionEnd = lastSessionEnd
        ctx.backgroundJoules = metrics.energy.total
    }

    /// Moves the pending requests back from the context to the scheduler
    /// after a policy call (see `refreshContext`).
    @inline(__always)
    mutating func releaseContext() {
        scheduler.swapPending(with: &ctx.pending)
    }

    /// Tells the policy, unless it declared that it ignores this kind of
    /// observation (``SchedulingPolicy/observedKinds``; most observations
    /// go unread by the simple policies, and each call costs a context
    /// refresh and a dynamic call).
    @inline(__always)
    mutating func policyObserve(_ observation: PolicyObservation) {
        guard observes.contains(observation.kind) else { return }
        refreshContext()
        policy.observe(observation, context: ctx)
        releaseContext()
    }

    /// A decision point: ask the policy, queue what it may run, refuse the rest.
    mutating func consultPolicy() {
        // Nothing is decided at or after the end of the run.
        guard now < horizon else { return }
        refreshContext()
        let decision = policy.decide(context: ctx)
        releaseContext()
        if let w = decision.wakeAt, w > now { policyWake = w } else { policyWake = .farFuture }
        for id in decision.run {
            guard let i = scheduler.index(of: id) else { refuse(id, .notPending); continue }
            if let reason = OSRules.refusal(for: scheduler.pending[i], at: now, state: state) {
                refuse(id, reason); continue
            }
            runQueue.append(scheduler.remove(at: i))
        }
        if decision.runAllEligible {
            var i = 0
            while i < scheduler.pending.count {
                if OSRules.refusal(for: scheduler.pending[i], at: now, state: state) == nil {
                    runQueue.append(scheduler.remove(at: i))
                } else {
                    i += 1
                }
            }
        }
        if running == nil && !runQueue.isEmpty {
            // One wake for the batch: the app(s) are launched or resumed once.
            metrics.backgroundWakes += 1
            metrics.wakesByHour[Int(now.timeOfDay.microseconds / SimDuration.microsecondsPerHour)] += 1
            metrics.energy.wake += config.energy.wakeJoules
            if Sink.isEnabled {
                var e = DeviceEvent(kind: .wake, time: now, device: state)
                e.energy.wake = config.energy.wakeJoules
                sink.record(e)
            }
            startNextTask()
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
        policyObserve(.refused(id, reason))
    }
}
