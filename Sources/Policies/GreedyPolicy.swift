import Device
import SimCore

/// `greedy` — runs every request the moment the OS allows it, and asks to be
/// woken at the next `earliestBeginDate` among pending requests.
///
/// Source: the "as soon as allowed" bound of the brief (freshest a
/// realisable policy gets with the apps' own requests, at the highest
/// energy). Parameters: none.
public struct GreedyPolicy: SchedulingPolicy {
    public static var observedKinds: ObservationKinds { [] }
    public init() {}

    public func decide(context: PolicyContext) -> PolicyDecision {
        PolicyDecision(runAllEligible: true, wakeAt: Self.nextEarliestBegin(context))
    }

    /// The earliest `earliestBegin` after now among pending requests.
    static func nextEarliestBegin(_ context: PolicyContext) -> SimTime? {
        var next: SimTime? = nil
        for r in context.pending where r.earliestBegin > context.now {
            if next == nil || r.earliestBegin < next! { next = r.earliestBegin }
        }
        return next
    }
}
