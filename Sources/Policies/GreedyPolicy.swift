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
    ///
    /// Called at every decision point: a plain loop over the pending
    /// buffer, the minimum kept as a plain time and a flag rather than an
    /// optional (`<=` so that even the largest time counts as found).
    static func nextEarliestBegin(_ context: PolicyContext) -> SimTime? {
        let now = context.now
        var next = SimTime(microseconds: .max), found = false
        context.pending.withUnsafeBufferPointer { pending in
            for r in pending where r.earliestBegin > now && r.earliestBegin <= next {
                next = r.earliestBegin
                found = true
            }
        }
        return found ? next : nil
    }
}
