@_spi(BuiltInPolicies) import Device
import SimCore

/// `coalescing` — wraps any policy and aligns its wakes so that several
/// tasks share one radio promotion and one tail, without ever running
/// something the base would not run soon.
///
/// - **Radio idle** (or offline): the base decides as usual, but its wakes
///   are deferred to the next point of a grid of `window` (time 0 +
///   k·window). What the base wants to run off the grid waits for the next
///   grid point, so work falling due at different times within one window
///   runs in one wake, back to back, inside one radio tail (Android's
///   inexact-alarm batching). On a grid point the base's decision is passed
///   through unchanged.
/// - **Radio already up** (`context.radioUpUntil > now`, online: in the
///   tail of a foreground session or of other work): the base's own picks
///   run at once, and its *next* decisions are pulled forward by up to
///   `window`. The base is a value type, so a copy of it is asked what it
///   would decide at its next wake `w` (a context with `now = w`, if
///   `w ≤ now + window`; then again at that decision's wake, up to
///   `maxLookahead` steps); of what the copy would run there, the requests
///   the OS allows *now* run now, while the radio is up. The copy is then
///   discarded: policies keep their bookkeeping in `observe` (the
///   `.taskFinished` of what actually ran reaches the real base), never in
///   `decide`, so nothing needs committing and nothing is recorded for runs
///   that did not happen. The base's energy budget still applies: a base
///   over budget decides to run nothing, at `w` as now. A wake on another
///   day than `now` is not pulled forward (daily budgets and day counters
///   restart at midnight: the copy would spend tomorrow's budget today).
///
/// So coalescing(X) runs nothing X would not run within `window`, and
/// coalescing(never) is never.
///
/// Source: Android's inexact alarm batching (`AlarmManager`: alarms fire
/// within a window and join the first batch whose window overlaps) and
/// TailEnder (Balasubramanian et al., IMC 2009).
/// Parameters:
/// - `window` (duration, default 15m): the alignment grid, and how far
///   ahead the base's decisions are pulled while the radio is up.
/// - `base` (policy, required): the policy whose decisions are coalesced.
public struct CoalescingPolicy<Base: SchedulingPolicy>: SchedulingPolicy {
    /// Its base's, whole (its own decisions read no observation), with a
    /// decision point at every session start: the radio is up then.
    public static var traits: PolicyTraits { Base.traits.decidingAtSessionStart() }
    /// Most successive base decisions looked at while the radio is up.
    public static var maxLookahead: Int { 16 }
    public var base: Base
    public var window: SimDuration

    public init(base: Base, window: SimDuration = .minutes(15)) {
        self.base = base
        self.window = window
    }

    @inline(__always) // (a call would copy `self` to the stack first)
    func align(_ t: SimTime) -> SimTime {
        let w = window.microseconds
        guard w > 0 else { return t }
        return SimTime(microseconds: (t.microseconds + w - 1) / w * w)
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        base.observe(observation, context: context)
    }

    /// `wakeAt.map(align)`. Written without closures: the registry builds
    /// this generic type around a base chosen at run time, so it runs
    /// unspecialised, where a closure capturing `self` instantiated generic
    /// metadata on every call.
    @inline(__always)
    func aligned(_ wakeAt: SimTime?) -> SimTime? {
        guard let w = wakeAt else { return nil }
        return align(w)
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        let inner = base.decide(context: context)
        let now = context.now
        if let up = context.radioUpUntil, up > now, context.device.network.isOnline {
            return rideTail(inner, context: context, radioUpUntil: up)
        }
        var wantsToRun = !inner.run.isEmpty
        if !wantsToRun && inner.runAllEligible {
            let eligible = EligibilityTest(context)
            for r in context.pending where eligible.allows(r, in: context) { wantsToRun = true; break }
        }
        if align(now) == now {
            return PolicyDecision(run: inner.run, runAllEligible: inner.runAllEligible,
                                  wakeAt: aligned(inner.wakeAt))
        }
        var wake = aligned(inner.wakeAt)
        if wantsToRun {
            let next = align(now)
            if let w = wake { wake = min(w, next) } else { wake = next }
        }
        return PolicyDecision(wakeAt: wake)
    }

    /// The radio is up until `radioUpUntil`: the base's picks now, plus what
    /// a copy of the base would run at its next wakes within `window` that
    /// is eligible now.
    ///
    /// Inlined into `decide` (it mostly returns the base's decision at
    /// once); the lookahead itself is `pulledAhead`. Both change nothing,
    /// but are `mutating`: called from `decide` with `self` in place, where
    /// a non-mutating call would first copy `self` to the stack.
    @inline(__always)
    mutating func rideTail(_ inner: PolicyDecision, context: PolicyContext, radioUpUntil: SimTime) -> PolicyDecision {
        let now = context.now
        // The base's next wake: kept as is while the radio is still up then,
        // aligned to the grid otherwise.
        var ownWake = inner.wakeAt
        if let w = ownWake, w >= radioUpUntil { ownWake = align(w) }

        // Nothing to look ahead at (the usual case): the base's own
        // decision, without copying the base and the context (a copy of a
        // base with arrays costs retains and, once it decides, copies of
        // the arrays it writes). Same test as the lookahead's first step.
        // Nor when the base runs everything eligible now: nothing left to
        // pull (the copy's decisions would be discarded).
        guard !inner.runAllEligible, let first = inner.wakeAt, first > now, first <= now + window, first.day == now.day else {
            return PolicyDecision(run: inner.run, runAllEligible: inner.runAllEligible, wakeAt: ownWake)
        }
        let eligibleNow = EligibilityTest(context) // the device state read once, not per request and step
        // Nor when every request eligible now is among the base's picks:
        // the lookahead could pull nothing more.
        var pullable = false
        for r in context.pending where eligibleNow.allows(r, in: context) {
            pullable = true
            for id in inner.run where id == r.id { pullable = false; break }
            if pullable { break }
        }
        guard pullable else {
            return PolicyDecision(run: inner.run, runAllEligible: false, wakeAt: ownWake)
        }
        // (Nothing pulled: `inner.run` as it is, the base's own decision.)
        return PolicyDecision(run: pulledAhead(inner.run, from: first, context: context, eligibleNow: eligibleNow),
                              runAllEligible: false, wakeAt: ownWake)
    }

    /// `run` followed by what a copy of the base would run at its wakes from
    /// `first` on, within `window`, that is eligible now and not in it yet.
    /// (`mutating`: see `rideTail`.)
    mutating func pulledAhead(_ run: [RequestID], from first: SimTime, context: PolicyContext,
                              eligibleNow: EligibilityTest) -> [RequestID] {
        // A base that plans per request (fixed-interval, greedy): its plans.
        if Base.planScope != nil {
            return pulledAheadByPlans(run, from: first, context: context, eligibleNow: eligibleNow)
        }
        // A copy of the base decides ahead and is thrown away (see the type's
        // comment): what it records while deciding never reaches the base.
        var copy = base
        return Self.lookahead(run, from: first, context: context, eligibleNow: eligibleNow, window: window,
                              decider: &copy)
    }

    /// `pulledAhead`'s steps, with `decider` (a copy of the base) deciding at each.
    @inline(__always)
    static func lookahead<D: SchedulingPolicy>(_ run: [RequestID], from first: SimTime, context: PolicyContext,
                                              eligibleNow: EligibilityTest, window: SimDuration,
                                              decider copy: inout D) -> [RequestID] {
        let now = context.now
        let horizon = now + window
        // Pulled requests are appended to the base's picks in place (no
        // second array for `inner.run + pulled`).
        var run = run
        var future = context
        var w: SimTime? = first
        var steps = 0
        while let t = w, t > future.now, t <= horizon, t.day == now.day, steps < Self.maxLookahead {
            steps += 1
            future.now = t
            let d = copy.decide(context: future)
            w = d.wakeAt
            // Picks nothing at t: no need to walk the pending requests.
            guard d.runAllEligible || !d.run.isEmpty else { continue }
            let eligibleThen = EligibilityTest(future)
            // What the copy would run at t, restricted to what may start now.
            for r in context.pending where eligibleNow.allows(r, in: context) {
                var picked = d.runAllEligible && eligibleThen.allows(r, in: future)
                if !picked { for id in d.run where id == r.id { picked = true; break } }
                guard picked else { continue }
                var already = false
                for id in run where id == r.id { already = true; break }
                if !already { run.append(r.id) }
            }
        }
        return run
    }

    /// `pulledAhead` for a base that plans per request
    /// (``RequestPlanningPolicy``): the same steps and the same picks, in
    /// the same order, read from the base's plans (asked once per request)
    /// instead of a copy of the base deciding at each step.
    ///
    /// At a step at time t the base's (derived) decision picks exactly the
    /// requests the OS allows at t whose plan runs from t or earlier, and
    /// wakes at the earliest plan wake after t among the others; a request
    /// eligible now is allowed at t too (same device state, later time).
    /// `PlanningPathTests` compares the two paths.
    func pulledAheadByPlans(_ run: [RequestID], from first: SimTime, context: PolicyContext,
                            eligibleNow: EligibilityTest) -> [RequestID] {
        let now = context.now
        let horizon = now + window
        var run = run
        let pending = context.pending
        let plans = pending.map { base.requestPlan(for: $0) }
        var future = context
        var t = first
        var steps = 0
        while t > future.now, t <= horizon, t.day == now.day, steps < Self.maxLookahead {
            steps += 1
            future.now = t
            let eligibleThen = EligibilityTest(future)
            var wake = Int64.max, hasWake = false
            for (r, plan) in zip(pending, plans) {
                if eligibleThen.allows(r, in: future) && t.microseconds >= plan.runFrom.microseconds {
                    // Picked at t; pulled if it may start now.
                    if eligibleNow.allows(r, in: context) && !run.contains(r.id) { run.append(r.id) }
                } else if let w = plan.wakeAt?.microseconds, w > t.microseconds, w <= wake {
                    wake = w
                    hasWake = true
                }
            }
            guard hasWake else { break }
            t = SimTime(microseconds: wake)
        }
        return run
    }
}
