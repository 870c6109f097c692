import Device
import SimCore

/// `greedy` — runs every request the moment the OS allows it, and asks to be
/// woken at the next `earliestBeginDate` among pending requests.
///
/// Source: the "as soon as allowed" bound of the benchmark (freshest a
/// realisable policy gets with the apps' own requests, at the highest
/// energy). Parameters: none.
///
/// Its rule is one plan per request (``RequestPlanningPolicy``): `decide`
/// is derived from it, and the simulator keeps the plans instead of asking
/// at every decision point.
public struct GreedyPolicy: RequestPlanningPolicy {
    /// It reads no observation: a plan never changes.
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: []) }

    public init() {}

    /// Whenever eligible; wake at its earliest begin.
    public func plan(for r: TaskRequest) -> RequestPlan {
        RequestPlan(runFrom: SimTime(microseconds: .min), wakeAt: r.earliestBegin)
    }
}
