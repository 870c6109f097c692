import SimCore

/// A background-task scheduling policy: the plug-in seam of BGBench.
///
/// A policy is a value type with two methods. The simulator owns one copy
/// per simulated device, tells it what happens through
/// ``observe(_:context:)`` and asks it at every decision point (a wake it
/// asked for, a state change, a task finished, a session started or ended,
/// a battery threshold) what to do through ``decide(context:)``. It chooses
/// *when* the system wakes and *which* eligible tasks run; the OS rules are
/// enforced whatever it answers (``PolicyContext/isEligible(_:)`` asks
/// them), and refused asks are counted (``UserMetrics/tasksRefused``).
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
/// What a policy needs from the runner and which work the simulator may
/// skip for it are one value, ``traits`` (``PolicyTraits``): a wrapper
/// forwards its base's whole, so no requirement can be lost on the way.
/// The default (every observation delivered, `decide` at every decision
/// point, no knowledge beyond what a policy can observe) is right for
/// every policy; a narrower declaration only saves work, and
/// `PolicyConformance.check` verifies it against the policy's behaviour
/// with everything delivered. A policy whose rule is one plan per request
/// may state it as ``RequestPlanningPolicy/plan(for:)``; the simulator then
/// keeps the plans instead of calling `decide`.
/// See Docs/WritingAPolicy.md.
public protocol SchedulingPolicy: Sendable {
    /// What the policy needs and which work may be skipped for it.
    /// Default ``PolicyTraits/init()``: everything delivered, nothing
    /// extra known.
    static var traits: PolicyTraits { get }

    /// Something happened. Default: ignore it.
    mutating func observe(_ observation: PolicyObservation, context: PolicyContext)

    /// What to run now and when to be woken next.
    mutating func decide(context: PolicyContext) -> PolicyDecision

    // How the simulator reaches a ``RequestPlanningPolicy``'s plans through
    // an existential (`AnyPolicy`): plumbing, not part of the seam.
    // Conforming to ``RequestPlanningPolicy`` sets both; the defaults are
    // right for every other policy.

    /// Non-nil for a ``RequestPlanningPolicy``: its planning scope.
    @_spi(BuiltInPolicies) static var planScope: PlanScope? { get }

    /// ``RequestPlanningPolicy/plan(for:)`` for a planning policy;
    /// ``RequestPlan/never`` otherwise.
    @_spi(BuiltInPolicies) func requestPlan(for request: TaskRequest) -> RequestPlan

    /// This value's traits: the type's ``traits``, except for a policy that
    /// learns what it needs only once it is built (`external`, from its
    /// decision process's `hello`: Docs/ExternalPolicyProtocol.md, "Plan
    /// mode"). The simulator reads this, once per device.
    @_spi(BuiltInPolicies) var instanceTraits: PolicyTraits { get }
}

extension SchedulingPolicy {
    public static var traits: PolicyTraits { PolicyTraits() }
    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {}
    // Public because a policy in another module takes them as its
    // witnesses; hidden from the documentation because no author needs them.
    @_documentation(visibility: internal)
    public static var planScope: PlanScope? { nil }
    @_documentation(visibility: internal)
    public func requestPlan(for request: TaskRequest) -> RequestPlan { .never }
    @_documentation(visibility: internal)
    public var instanceTraits: PolicyTraits { Self.traits }
}

/// A policy's answer at a decision point.
public struct PolicyDecision: Sendable, Hashable {
    /// Requests to start now, in order (they run one after another).
    @inlinable
    public var run: [RequestID] {
        get { runList ?? [] }
        set { runList = newValue.isEmpty ? nil : newValue }
    }
    /// `run`, with nil for the empty list: the storage behind `run`. Why:
    /// a decision comes back from a dynamic call at every decision point
    /// and its caller releases the list; nil needs no release, the shared
    /// empty array does (Docs/Performance.md). Policies read and write
    /// `run`; the simulator reads this.
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
    /// Bytes the task sent and received: its work model's `bytesUp` and
    /// `bytesDown` when its transfer ran to the end; a transfer cut short
    /// (expiration, connection lost) counts them in proportion to the time
    /// it ran of its transfer window (start to data end); 0 without a
    /// transfer (offline, no network use).
    public var bytesUp: Double
    public var bytesDown: Double
    /// The network the task's transfer used (the network at its start;
    /// `.offline` when it moved no bytes).
    public var network: NetworkType

    /// A report; public so that a researcher's tests can feed a policy
    /// reports without a simulation.
    public init(request: TaskRequest, start: SimTime, end: SimTime, outcome: TaskOutcome,
                fetchResult: FetchResult? = nil, energyJoules: Double = 0,
                bytesUp: Double = 0, bytesDown: Double = 0, network: NetworkType = .offline) {
        self.request = request
        self.start = start
        self.end = end
        self.outcome = outcome
        self.fetchResult = fetchResult
        self.energyJoules = energyJoules
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.network = network
    }

    /// `bytesUp + bytesDown`.
    public var bytes: Double { bytesUp + bytesDown }
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
    /// The user force-quit `app` in the app switcher (at the end of its
    /// session): it gets no background launch until its next launch.
    case forceQuit(app: Int32)
    /// The app cancelled this pending request
    /// (`BGTaskScheduler.cancel(taskRequestWithIdentifier:)`); it will not run.
    case cancelled(TaskRequest)
}
