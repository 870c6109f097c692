import SimCore

// The seam: building the context, telling the policy, obeying it within the rules.
extension DeviceSimulator {
    /// The context a policy sees now.
    ///
    /// Kept in `ctx` instead of built per call: a context per observation
    /// and decision (copied into the call) would be the largest cost of the
    /// loop. The fields that never change during a run
    /// (`appCount`, `random`, `future`, `rules`) are set once in
    /// `init`; `now`, `device`, `lastSessionEnd` and `pending` are the
    /// simulator's `now`, `state`, `lastSessionEnd` and `pending` themselves
    /// (see them); the others are brought up to date here, just before each
    /// policy call. Nothing else reads `ctx`, so it cannot be stale where it
    /// is used.
    ///
    /// The policy call copies the context, so fields are written where they
    /// change rather than all at once just before the call, and here only
    /// when changed (Docs/Performance.md, "The figures behind the source comments").
    @inline(__always)
    mutating func refreshContext() {
        // Stored only when changed (often not, between two calls). Compared
        // bit for bit, so the context holds exactly the value it would have
        // been given (-0.0, NaN).
        let up = networks.radio.tailEnds(at: now)
        if up != ctx.radioUpUntil { ctx.radioUpUntil = up }
        let joules = metrics.user.energy.total
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
    /// observation (`PolicyTraits.observedKinds`; most
    /// observations go unread by the simple policies, and each call is a
    /// context refresh and a dynamic call).
    ///
    /// `kind` is the observation's kind, named at the call so that the
    /// observation (a task report, a request) is built only when it is
    /// delivered, not for policies that ignore it.
    @inline(__always)
    mutating func policyObserve(_ kind: ObservationKinds, _ observation: @autoclosure () -> PolicyObservation) {
        guard observes.contains(kind) else { return }
        let observation = observation()
        #if BGBENCH_INVARIANTS
        precondition(observation.kind == kind, "observation of another kind than named")
        #endif
        refreshContext()
        policy.observe(observation, context: ctx)
        if let scope = planScope { forgetPlans(changedBy: observation, scope) }
    }

    /// Forgets the kept plans that `observation` may have changed (see
    /// ``RequestPlanningPolicy/planningScope``); they are asked again at
    /// the next decision point.
    mutating func forgetPlans(changedBy observation: PolicyObservation, _ scope: PlanScope) {
        var app: Int32? = nil
        if scope == .observedApp {
            switch observation {
            case .launch(let a), .sessionEnded(let a), .forceQuit(let a): app = a
            case .cancelled(let r): app = r.app
            case .submitted(let r): app = r.app
            case .taskFinished(let report): app = report.request.app
            case .stateChanged, .refused: app = nil
            }
        }
        plans.forget(app: app)
    }

    /// A decision point: ask the policy, queue what it may run, refuse the rest.
    ///
    /// Inlined, a dispatch: as one function, the kept plans' decision
    /// points (most of them) would go through the frame of the `decide`
    /// path before the jump to `consultPlans`.
    @inline(__always)
    mutating func consultPolicy() {
        // Nothing is decided at or after the end of the run.
        guard now < horizon else { return }
        // The energy charged earlier in this step (a task's CPU at its end,
        // a wake) comes off the battery before the rules are checked: rule
        // 4 must see the level it left.
        settleBackgroundEnergy()
        if planScope != nil { consultPlans() } else { consultDecide() }
    }

    /// A decision point of a policy that decides itself (`decide`).
    mutating func consultDecide() {
        // Nothing runs or waits: the first request let through below starts
        // at the end of this call (`first`) without passing through
        // `runQueue`, whose append and pop (two uniqueness checks, two
        // copies) came at nearly every wake. The rest queue behind it.
        let startsNow = !worker.isRunning && worker.runQueue.isEmpty
        var first: TaskRequest? = nil
        refreshContext()
        let decision = policy.decide(context: ctx)
        if let w = decision.wakeAt, w > now { policyWake = w } else { policyWake = .farFuture }
        // `runList`, not `run`: nil when empty (see there), so the usual
        // decision has no list to release.
        if let run = decision.runList {
            for id in run {
                guard let i = pending.firstIndex(where: { $0.id == id }) else { refuse(id, .notPending); continue }
                if let reason = platformRefusal(for: pending[i]) {
                    refuse(id, reason); continue
                }
                let request = pending.remove(at: i)
                if startsNow && first == nil { first = request } else { worker.runQueue.append(request) }
            }
        }
        if decision.runAllEligible {
            var i = 0
            while i < pending.count {
                if platformRefusal(for: pending[i]) == nil {
                    let request = pending.remove(at: i)
                    if startsNow && first == nil { first = request } else { worker.runQueue.append(request) }
                } else {
                    i += 1
                }
            }
        }
        if let request = first {
            countWake()
            start(request)   // its rules were checked just above, at this time and state
        } else if !worker.isRunning && !worker.runQueue.isEmpty {
            countWake()
            startNextTask()
        }
    }

    /// A decision point of a ``RequestPlanningPolicy``: its kept plans
    /// decide, exactly as its derived `decide` would (the same requests in
    /// the same order, the same wake), without a policy call per decision.
    /// A request not planned yet (new, or its plan forgotten after an
    /// observation) is planned first.
    ///
    /// Why: `decide` walks the pending list at every decision point (~0.8
    /// per event) through a dynamic call, and fixed-interval and greedy
    /// spend most of their time there. Here the walk reads one 32-byte
    /// record per request (`KeptPlan`) with no call, and what runs is found
    /// in the same walk.
    mutating func consultPlans() {
        // Plan what is not planned (new requests, forgotten plans).
        // Backwards: new requests are at the end, and the scan stops at the
        // last one to plan (usually the first record looked at).
        var i = plans.count
        while plans.unplanned > 0 {
            i &-= 1
            if !plans[i].isPlanned { plan(at: i) }
        }
        // The device state is read after planning (the policy's call cannot
        // change it): read before, its terms were kept on the stack across
        // the call.
        let eligibility = EligibilityTest(ctx)
        // The wake is the earliest plan wake after now (`t`), `Int64.max`
        // if none. Kept as an unsigned key, `w &- (t + 1)`: the wakes after
        // `t` map in order to [0, Int64.max − t − 1] (the last one is
        // `Int64.max`, the key it starts from), those at or before `t` wrap
        // above all of them, so one unsigned `min` per record does both
        // tests (`p.wake > t && p.wake < wake`). `t` is a time of the run
        // (0 ≤ t < horizon): `t + 1` does not overflow.
        let t1 = eligibility.now &+ 1
        var wakeKey = UInt64(bitPattern: Int64.max &- t1)
        // First pass, reading only: count what runs, find the wake.
        // (Usually nothing or one request runs.)
        var runs = 0, firstRun = 0
        let records = plans.buffer
        for i in records.indices {
            let p = records[i]
            if eligibility.allows(shape: p.shape, app: p.app, from: p.runFrom) {
                if runs == 0 { firstRun = i }
                runs &+= 1
            } else {
                wakeKey = min(wakeKey, UInt64(bitPattern: p.wake &- t1))
            }
        }
        // `Int64.max` (no wake) is `.farFuture`.
        policyWake = SimTime(microseconds: Int64(bitPattern: wakeKey) &+ t1)
        guard runs > 0 else {
            if !worker.isRunning && !worker.runQueue.isEmpty {
                countWake()
                startNextTask()
            }
            return
        }
        // Second pass: take what runs out of pending, in order. Nothing
        // runs or waits: the first (at `firstRun`) starts at the end of
        // this call without passing through `runQueue` (see
        // `consultPolicy`); taken here, not kept in an optional (which
        // copied it twice more).
        if !worker.isRunning && worker.runQueue.isEmpty {
            let request = takeRun(at: firstRun)
            runs &-= 1
            queueRuns(from: firstRun, runs, eligibility)
            countWake()
            start(request)
        } else {
            queueRuns(from: firstRun, runs, eligibility)
            if !worker.isRunning {
                countWake()
                startNextTask()
            }
        }
    }

    /// Moves the `runs` requests at or after `i` that `eligibility` allows
    /// (per their plans) from pending to `runQueue`, in order.
    @inline(__always)
    mutating func queueRuns(from i: Int, _ runs: Int, _ eligibility: EligibilityTest) {
        var i = i, runs = runs
        while runs > 0 {
            let p = plans[i]
            if eligibility.allows(shape: p.shape, app: p.app, from: p.runFrom) {
                worker.runQueue.append(takeRun(at: i))
                runs &-= 1
            } else {
                i &+= 1
            }
        }
    }

    /// Removes pending request `i` and its plan; returns the request.
    @inline(__always)
    mutating func takeRun(at i: Int) -> TaskRequest {
        let request = pending.remove(at: i)
        plans.remove(at: i)
        return request
    }

    /// Asks the policy for `pending[i]`'s plan and keeps it.
    mutating func plan(at i: Int) {
        let r = pending[i]
        #if BGBENCH_INVARIANTS
        precondition(plans[i].id == r.id.rawValue, "kept plans out of step with pending")
        #endif
        let p = policy.requestPlan(for: r)
        plans.setPlan(at: i, runFrom: max(p.runFrom.microseconds, r.earliestBegin.microseconds),
                      wake: p.wakeAt?.microseconds ?? .max)
    }

    /// Keeps `plans` in step after the scheduler changed `pending`: a
    /// submission (`replaced`: where the request it replaced was, from the
    /// scheduler's `lastReplaced`; −1 for none) or a request put back (−1;
    /// appended, unless a replacement was pending). A replaced request is
    /// gone from the middle, the new one is at the end. Nothing else
    /// changes `pending` but `consultPlans`, which removes from both.
    /// Inlined: it follows nearly every task start (the resubmission).
    ///
    /// Why `replaced` from the scheduler: finding it by comparing the two
    /// lists id by id (with an index check on each) repeated the
    /// scheduler's own search.
    @inline(__always)
    mutating func pendingChangedByScheduler(replaced: Int) {
        guard planScope != nil else { return }
        let n = pending.count
        if replaced >= 0 { plans.remove(at: replaced) } else if n == plans.count { return }
        precondition(n == plans.count + 1, "kept plans out of step with pending")
        plans.append(KeptPlan(unplanned: pending[n - 1]))
        #if BGBENCH_INVARIANTS
        for k in 0 ..< n { precondition(plans[k].id == pending[k].id.rawValue, "kept plans out of step with pending") }
        #endif
    }

    /// One wake for the batch: the app(s) are launched or resumed once.
    @inline(__always)
    mutating func countWake() {
        metrics.user.backgroundWakes += 1
        // The hour of the day, `now.timeOfDay / 1 h`: `now` is a time of
        // the run (≥ 0), so the same hour in unsigned arithmetic, without
        // the floor's sign fix-up of `timeOfDay` (a day is 24 hours).
        #if BGBENCH_INVARIANTS
        precondition(now.microseconds >= 0, "a wake before the start of the run")
        #endif
        let hour = UInt64(bitPattern: now.microseconds) / 3_600_000_000 % 24
        apps.state[wakesIn: Int(hour)] += 1
        metrics.user.energy.wake += config.energy.wakeJoules
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .wake, time: now, device: state)
            e.energy.wake = config.energy.wakeJoules
            sink.record(e)
        }
    }

    mutating func refuse(_ id: RequestID, _ reason: Refusal) {
        metrics.user.tasksRefused += 1
        metrics.user.refusalsByReason[Int(reason.rawValue)] += 1
        if Sink.isEnabled {
            var e = DeviceEvent(kind: .refused, time: now, device: state)
            e.requestID = id; e.detail = reason.name
            sink.record(e)
        }
        policyObserve(.refused, .refused(id, reason))
    }
}
