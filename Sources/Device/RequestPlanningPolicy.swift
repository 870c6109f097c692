import SimCore

/// A policy that decides each pending request on its own: from when it
/// runs (whenever the OS allows it then) and when to wake for it. It
/// writes ``plan(for:)`` instead of `decide`; `decide` is derived from it.
///
/// Many rules are such a rule per request (greedy: "from its earliest
/// begin"; fixed-interval: "from `interval − flex` after the app's last
/// run"). Said this way, the simulator finds the fast path itself: it
/// keeps each request's plan and asks again only for a new request or
/// after an observation that may change it (``planningScope``), instead of
/// calling `decide` — which walks the whole pending list — at every
/// decision point. Same decisions, less work: on the default suite the
/// fixed-interval and greedy configurations spend most of their time at
/// decision points (Docs/Performance.md).
///
/// The contract, which the simulator relies on:
/// - ``plan(for:)`` depends only on the request and on the policy's own
///   state, and that state changes only in `observe`. (No context: the
///   device state is the OS's business, applied by the simulator through
///   the same rules as `decide`'s eligibility.)
/// - `decide` is derived from the plans; do not write your own. (The
///   simulator and the coalescing wrapper read the plans, not `decide`.)
/// - After an observation, the plans it may change are those of
///   ``planningScope``: every pending request (`.all`, the default), or only
///   those of the app the observation is about (`.observedApp`; an
///   observation about no app — a state change, a refusal — still
///   changes all).
///
/// `PolicyConformance.check` runs a planning policy both ways — plans kept
/// by the simulator and `decide` at every decision point — and reports any
/// difference; `PoliciesTests` (PlanningPathTests) does it event by event
/// for the shipped ones.
public protocol RequestPlanningPolicy: SchedulingPolicy {
    /// The plan for `request` given the policy's state now.
    func plan(for request: TaskRequest) -> RequestPlan

    /// Which pending requests' plans an observation may change. Default `.all`.
    static var planningScope: PlanScope { get }
}

/// When a pending request runs and when to wake for it (``RequestPlanningPolicy``).
@frozen
public struct RequestPlan: Sendable, Hashable {
    /// The request runs at the first decision point at or after this time
    /// at which the OS allows it (`SimTime(microseconds: .min)`: whenever
    /// it is eligible; `.distantFuture`: never).
    public var runFrom: SimTime
    /// While the request has not run, a decision point is wanted at this
    /// time if it is after now (nil: none). The earliest among the pending
    /// requests is the wake.
    public var wakeAt: SimTime?

    @inlinable
    public init(runFrom: SimTime, wakeAt: SimTime?) {
        self.runFrom = runFrom
        self.wakeAt = wakeAt
    }

    /// Never run, never wake for it.
    public static let never = RequestPlan(runFrom: .distantFuture, wakeAt: nil)
}

/// Which plans an observation may change (``RequestPlanningPolicy/planningScope``).
@frozen
public enum PlanScope: UInt8, Sendable, Hashable {
    /// Every pending request's.
    case all
    /// Only those of the app the observation names (a launch, a session
    /// end, a submission, a task report); all for the others.
    case observedApp
}

extension RequestPlanningPolicy {
    public static var planningScope: PlanScope { .all }

    /// `planScope` of ``SchedulingPolicy`` (plumbing): this policy's ``planningScope``.
    @_documentation(visibility: internal)
    public static var planScope: PlanScope? { planningScope }

    /// `requestPlan(for:)` of ``SchedulingPolicy`` (plumbing): ``plan(for:)``.
    @_documentation(visibility: internal)
    @inlinable
    public func requestPlan(for request: TaskRequest) -> RequestPlan { plan(for: request) }

    /// Runs every eligible request whose plan says so, in pending order, and
    /// wakes at the earliest plan wake after now among the others.
    ///
    /// Answers `runAllEligible` when every eligible request runs (no array
    /// per decision); otherwise the list. This is what the simulator does
    /// itself with kept plans; wrappers (coalescing, backoff) call it.
    /// Inlinable, so that each policy's module specialises it for its type.
    @inlinable
    public func decide(context: PolicyContext) -> PolicyDecision {
        let eligibility = EligibilityTest(context)
        let now = eligibility.now
        var wake = Int64.max, hasWake = false
        var runs = 0, eligibles = 0
        context.pending.withUnsafeBufferPointer { pending in
            for r in pending {
                let eligible = eligibility.allows(r, in: context)
                if eligible { eligibles &+= 1 }
                let p = plan(for: r)
                if eligible && now >= p.runFrom.microseconds { runs &+= 1; continue }
                // `<=`: the first wake after now counts even at the largest time.
                if let w = p.wakeAt?.microseconds, w > now, w <= wake { wake = w; hasWake = true }
            }
        }
        let wakeAt = hasWake ? SimTime(microseconds: wake) : nil
        if runs == 0 { return PolicyDecision(wakeAt: wakeAt) }
        if runs == eligibles { return PolicyDecision(runAllEligible: true, wakeAt: wakeAt) }
        var run: [RequestID] = []
        run.reserveCapacity(runs)
        for r in context.pending where eligibility.allows(r, in: context) && now >= plan(for: r).runFrom.microseconds {
            run.append(r.id)
        }
        return PolicyDecision(run: run, wakeAt: wakeAt)
    }
}
