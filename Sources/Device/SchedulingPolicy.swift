import SimCore

/// A background-task scheduling policy: the plug-in seam of BGBench.
///
/// A policy is a value type. The simulator owns one copy per simulated
/// device, tells it what happens through ``observe(_:context:)`` and asks it
/// at every decision point (a wake it asked for, a state change, a task
/// finished, a session ended, a session started for policies that ask for
/// it, a battery threshold) what to do through
/// ``decide(context:)``. It chooses *when* the system wakes and *which*
/// eligible tasks run; the OS rules are enforced whatever it answers, and
/// refused asks are counted (``UserMetrics/tasksRefused``).
///
/// A policy must be deterministic: the same observations and contexts give
/// the same decisions (use `context.random` for any randomness).
///
/// **Asks are not orders.** The run list returned by ``decide(context:)``
/// may be refused by the OS (rule broken, request not pending: told as
/// ``PolicyObservation/refused(_:_:)``), dropped by a wrapper (coalescing
/// holds work until its grid point, backoff delays it), or put back to
/// pending when the state changed while it waited behind another task (a
/// session started: no observation). So a policy must update its own
/// bookkeeping (last run, failures, budget) from what it *observes* —
/// ``PolicyObservation/taskFinished(_:)`` (which carries the start time)
/// and the pending list in the next context — never from having asked.
///
/// **Observations it reads.** ``observedKinds`` declares which kinds of
/// ``PolicyObservation`` ``observe(_:context:)`` uses; the simulator skips
/// the others (and the context it would build for them). A wrapper
/// declares its base's kinds plus its own. Declaring `.launch` also gives
/// a decision point at the start of every session; a policy that needs one
/// there without reading launches sets ``decidesAtSessionStart``.
/// See Docs/WritingAPolicy.md.
public protocol SchedulingPolicy: Sendable {
    /// True only for bounds that need to see the future (the oracle): the
    /// simulator then fills ``PolicyContext/future``. Default false.
    static var needsFutureKnowledge: Bool { get }

    /// True only for bounds that know the generator's model of the user
    /// (the model-aware bound): the runner then fills
    /// ``PolicyContext/model`` through ``DeviceTrace/model``. Default false.
    static var needsModelKnowledge: Bool { get }

    /// The kinds of observation ``observe(_:context:)`` uses. The simulator
    /// does not call `observe` for the other kinds (it then skips building
    /// the context too: about a third of the simulator's time for policies
    /// that ignore most observations). Declare fewer than `.all` only if
    /// `observe` really ignores the rest. Default: `.all`.
    static var observedKinds: ObservationKinds { get }

    /// Whether the policy wants a decision point at the start of every
    /// foreground session (right after the `.launch` observation), even
    /// though it does not observe launches. Policies that observe
    /// `.launch` are always consulted there; the others only if this is
    /// true. Default false: at a session start nothing becomes eligible
    /// that was not before, so a policy that ignores launches decides as it
    /// did at the last decision point — except one that acts on the radio
    /// being up (coalescing: run pending work while the session keeps the
    /// radio active), which should answer true.
    static var decidesAtSessionStart: Bool { get }

    /// Something happened. Default: ignore it.
    mutating func observe(_ observation: PolicyObservation, context: PolicyContext)

    /// What to run now and when to be woken next.
    mutating func decide(context: PolicyContext) -> PolicyDecision

    /// Non-nil for a ``RequestPlanningPolicy``: its planning scope. The
    /// simulator's way to find one behind an existential. Do not implement:
    /// conforming to ``RequestPlanningPolicy`` sets it.
    static var planScope: PlanScope? { get }

    /// ``RequestPlanningPolicy/plan(for:)`` for a planning policy (the
    /// simulator calls it through the existential); ``RequestPlan/never``
    /// otherwise. Do not implement: conforming to ``RequestPlanningPolicy``
    /// sets it.
    func requestPlan(for request: TaskRequest) -> RequestPlan
}

extension SchedulingPolicy {
    public static var needsFutureKnowledge: Bool { false }
    public static var needsModelKnowledge: Bool { false }
    public static var observedKinds: ObservationKinds { .all }
    public static var decidesAtSessionStart: Bool { false }
    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {}
    public static var planScope: PlanScope? { nil }
    public func requestPlan(for request: TaskRequest) -> RequestPlan { .never }
}

/// A policy's answer at a decision point.
public struct PolicyDecision: Sendable, Hashable {
    /// Requests to start now, in order (they run one after another).
    @inlinable
    public var run: [RequestID] {
        get { runList ?? [] }
        set { runList = newValue.isEmpty ? nil : newValue }
    }
    /// `run`, with nil for the empty list. Why: a decision comes back from
    /// a dynamic call at every decision point and its caller releases the
    /// list; releasing the shared empty array is a call into the runtime,
    /// nil costs a test (−10 M instructions, 0.5 %, on the 40-user default
    /// suite). Read `run`; the simulator reads this.
    @usableFromInline
    var runList: [RequestID]?
    /// Run every request that is eligible now (no allocation: the fast path
    /// of greedy-style policies). Combined with `run`, eligible requests not
    /// in `run` follow it.
    public var runAllEligible: Bool
    /// When to be woken next for a decision (nil: only at the next event).
    /// A time not after `now` is ignored.
    public var wakeAt: SimTime?

    @inlinable
    public init(run: [RequestID] = [], runAllEligible: Bool = false, wakeAt: SimTime? = nil) {
        self.runList = run.isEmpty ? nil : run
        self.runAllEligible = runAllEligible
        self.wakeAt = wakeAt
    }

    /// Do nothing, wake at the next event only.
    public static let none = PolicyDecision()
}

/// The outcome of a task run.
@frozen
public enum TaskOutcome: UInt8, Sendable, Hashable {
    case success = 0
    case failed
    /// Ran out of budget or interrupted (session start, unplugged).
    case expired

    public var name: String {
        switch self {
        case .success: "success"
        case .failed: "failed"
        case .expired: "expired"
        }
    }
}

/// Legacy Background Fetch result, as the app reports it (honest or not).
@frozen
public enum FetchResult: UInt8, Sendable, Hashable {
    case newData, noData, failed
    public var name: String {
        switch self {
        case .newData: "newData"
        case .noData: "noData"
        case .failed: "failed"
        }
    }
}

/// One finished task, as reported to the policy.
public struct TaskReport: Sendable, Hashable {
    public var request: TaskRequest
    public var start: SimTime
    public var end: SimTime
    public var outcome: TaskOutcome
    /// What the app reported (refresh and fetch; nil for processing).
    public var fetchResult: FetchResult?
    /// Background energy the task caused (tail not yet included), joules.
    public var energyJoules: Double
}

/// A device state change.
@frozen
public enum StateChange: UInt8, Sendable, Hashable {
    case screenOn, screenOff, chargingStarted, chargingStopped, networkChanged,
         lowPowerModeOn, lowPowerModeOff, batteryLow, batteryOK
}

/// Things a policy is told. New cases may be added: switch with `default`.
public enum PolicyObservation: Sendable, Hashable {
    /// The user opened `app` (screen on); it fetches content in the foreground.
    case launch(app: Int32)
    /// The session of `app` ended; the app went to the background.
    case sessionEnded(app: Int32)
    /// A request was submitted (replacing any with the same identifier).
    case submitted(TaskRequest)
    /// A task finished.
    case taskFinished(TaskReport)
    /// The device state changed (the new state is in the context).
    case stateChanged(StateChange)
    /// The OS refused to start a request the policy asked for.
    case refused(RequestID, Refusal)
}

/// A set of ``PolicyObservation`` kinds (``SchedulingPolicy/observedKinds``).
public struct ObservationKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let launch = ObservationKinds(rawValue: 1 << 0)
    public static let sessionEnded = ObservationKinds(rawValue: 1 << 1)
    public static let submitted = ObservationKinds(rawValue: 1 << 2)
    public static let taskFinished = ObservationKinds(rawValue: 1 << 3)
    public static let stateChanged = ObservationKinds(rawValue: 1 << 4)
    public static let refused = ObservationKinds(rawValue: 1 << 5)
    /// Every kind, including kinds added later.
    public static let all = ObservationKinds(rawValue: .max)
}

extension PolicyObservation {
    /// The kind of this observation.
    @inlinable
    public var kind: ObservationKinds {
        switch self {
        case .launch: .launch
        case .sessionEnded: .sessionEnded
        case .submitted: .submitted
        case .taskFinished: .taskFinished
        case .stateChanged: .stateChanged
        case .refused: .refused
        }
    }
}
