import Device
import SimCore

/// `coalescing` — wraps any policy and aligns its wakes so that several
/// tasks share one radio promotion and one tail.
///
/// Wakes the base asks for are moved to the next multiple of `window`
/// (time 0 + k·window), so apps whose refreshes fall due at different times
/// in a window run together in one wake, back to back, inside one radio
/// tail. What the base wants to run off the grid waits for the next grid
/// point — unless the radio is already up (in the tail of a foreground
/// session or of other work): then the base's picks run at once, together
/// with every other eligible request, since riding a running tail costs no
/// promotion.
///
/// Source: Android's inexact alarm batching (`AlarmManager`: alarms fire
/// within a window and join the first batch whose window overlaps) and
/// TailEnder (Balasubramanian et al., IMC 2009).
/// Parameters:
/// - `window` (duration, default 15m): the alignment grid.
/// - `base` (policy, required): the policy whose decisions are coalesced.
public struct CoalescingPolicy<Base: SchedulingPolicy>: SchedulingPolicy {
    public static var needsFutureKnowledge: Bool { Base.needsFutureKnowledge }
    public static var observedKinds: ObservationKinds { Base.observedKinds }
    public var base: Base
    public var window: SimDuration

    public init(base: Base, window: SimDuration = .minutes(15)) {
        self.base = base
        self.window = window
    }

    func align(_ t: SimTime) -> SimTime {
        let w = window.microseconds
        guard w > 0 else { return t }
        return SimTime(microseconds: (t.microseconds + w - 1) / w * w)
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        base.observe(observation, context: context)
    }

    /// `wakeAt.map(align)`. Written without closures: this generic type
    /// runs unspecialised (it is built around a base chosen at run time),
    /// where a closure capturing `self` instantiated generic metadata on
    /// every call.
    func aligned(_ wakeAt: SimTime?) -> SimTime? {
        guard let w = wakeAt else { return nil }
        return align(w)
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        let inner = base.decide(context: context)
        var wantsToRun = !inner.run.isEmpty
        if !wantsToRun && inner.runAllEligible {
            for r in context.pending where context.isEligible(r) { wantsToRun = true; break }
        }
        let radioUp: Bool
        if let up = context.radioUpUntil { radioUp = up > context.now } else { radioUp = false }
        if radioUp && context.device.network.isOnline {
            // Ride the tail: the base's picks, then everything else that is eligible now.
            return PolicyDecision(run: inner.run, runAllEligible: true, wakeAt: aligned(inner.wakeAt))
        }
        let onGrid = align(context.now) == context.now
        if onGrid {
            return PolicyDecision(run: inner.run, runAllEligible: inner.runAllEligible,
                                  wakeAt: aligned(inner.wakeAt))
        }
        var wake = aligned(inner.wakeAt)
        if wantsToRun {
            let next = align(context.now)
            if let w = wake { wake = min(w, next) } else { wake = next }
        }
        return PolicyDecision(wakeAt: wake)
    }
}
