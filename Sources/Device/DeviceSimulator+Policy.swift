import SimCore

// The seam: building the context, telling the policy, obeying it within the rules.
extension DeviceSimulator {
    var context: PolicyContext {
        PolicyContext(now: now, device: state, pending: scheduler.pending, appCount: models.count,
                      radioUpUntil: radio.tailEnds(at: now), lastSessionEnd: lastSessionEnd,
                      random: random, future: future, backgroundJoules: metrics.energy.total,
                      refreshBudget: refreshBudget)
    }

    @inline(__always)
    mutating func policyObserve(_ observation: PolicyObservation) {
        policy.observe(observation, context: context)
    }

    /// A decision point: ask the policy, queue what it may run, refuse the rest.
    mutating func consultPolicy() {
        let decision = policy.decide(context: context)
        if let w = decision.wakeAt, w > now { policyWake = w } else { policyWake = .distantFuture }
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
