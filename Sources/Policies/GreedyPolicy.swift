@_spi(BuiltInPolicies) import Device
import SimCore

/// `greedy` — runs every request the moment the OS allows it, and asks to be
/// woken at the next `earliestBeginDate` among pending requests.
///
/// Source: the "as soon as allowed" bound of the brief (freshest a
/// realisable policy gets with the apps' own requests, at the highest
/// energy). Parameters: none.
public struct GreedyPolicy: SchedulingPolicy {
    public init() {}
}

// Its rule is one plan per request, kept by the simulator; `decide` is
// derived from it (``RequestPlanningPolicy``).
@_spi(BuiltInPolicies)
extension GreedyPolicy: RequestPlanningPolicy {
    /// Nothing: a plan never changes.
    public static var observedKinds: ObservationKinds { [] }

    /// Whenever eligible; wake at its earliest begin.
    public func plan(for r: TaskRequest) -> RequestPlan {
        RequestPlan(runFrom: SimTime(microseconds: .min), wakeAt: r.earliestBegin)
    }
}
