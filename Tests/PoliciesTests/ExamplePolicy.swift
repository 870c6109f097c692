// The complete example of Docs/WritingAPolicy.md: compiled and tested with
// the package (ExamplePolicyTests). Keep the guide in step with this file.
import Device
import Policies
import SimCore

// MARK: example begin
/// `quiet-hours` — greedy, except that nothing runs at night.
///
/// Idea: background refreshes between `quietStart` and `quietEnd` (time of
/// day) are wasted on a sleeping user; hold them until morning.
/// Source: this guide. Parameters:
/// - `quietStart` (duration since midnight, default 23h)
/// - `quietEnd` (duration since midnight, default 7h)
public struct QuietHoursPolicy: SchedulingPolicy {
    public var quietStart: SimDuration
    public var quietEnd: SimDuration

    public init(quietStart: SimDuration = .hours(23), quietEnd: SimDuration = .hours(7)) {
        self.quietStart = quietStart
        self.quietEnd = quietEnd
    }

    func isQuiet(_ t: SimTime) -> Bool {
        let tod = t.timeOfDay
        return quietStart > quietEnd ? (tod >= quietStart || tod < quietEnd) : (tod >= quietStart && tod < quietEnd)
    }

    public func decide(context: PolicyContext) -> PolicyDecision {
        if isQuiet(context.now) {
            // Sleep until the quiet hours end (today's or tomorrow's morning).
            var morning = SimTime(day: context.now.day, plus: quietEnd)
            if morning <= context.now { morning = SimTime(day: context.now.day + 1, plus: quietEnd) }
            return PolicyDecision(wakeAt: morning)
        }
        // Run everything the OS allows; wake at the next earliestBeginDate.
        let next = context.pending.map(\.earliestBegin).filter { $0 > context.now }.min()
        return PolicyDecision(runAllEligible: true, wakeAt: next)
    }
}

extension PolicyRegistry {
    /// The standard policies plus the example, as a researcher would register theirs.
    static var withExample: PolicyRegistry {
        var r = PolicyRegistry.standard
        r.register(PolicyDescriptor(
            name: "quiet-hours", summary: "greedy, but nothing between quietStart and quietEnd",
            parameters: [
                PolicyParameter("quietStart", .duration, default: .string("23h"), range: 0...86_400, "start of the quiet hours"),
                PolicyParameter("quietEnd", .duration, default: .string("7h"), range: 0...86_400, "end of the quiet hours"),
            ]) { p, _ in
            QuietHoursPolicy(quietStart: p.duration("quietStart"), quietEnd: p.duration("quietEnd"))
        })
        return r
    }
}
// MARK: example end
