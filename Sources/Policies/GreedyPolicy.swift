import Device
import SimCore

/// `greedy` — runs every request the moment the OS allows it, and asks to be
/// woken at the next `earliestBeginDate` among pending requests.
///
/// Source: the "as soon as allowed" bound of the brief (freshest a
/// realisable policy gets with the apps' own requests, at the highest
/// energy). Parameters: none.
public struct GreedyPolicy: RequestPlanningPolicy {
    public static var observedKinds: ObservationKinds { [] }
    public init() {}

    /// Whenever eligible; wake at its earliest begin. (Nothing is observed,
    /// so a plan never changes.)
    public func plan(for r: TaskRequest) -> RequestPlan {
        RequestPlan(runFrom: SimTime(microseconds: .min), wakeAt: r.earliestBegin)
    }
}
