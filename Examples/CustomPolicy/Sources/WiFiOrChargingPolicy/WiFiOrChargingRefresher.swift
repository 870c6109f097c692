import Device
import Policies
import SimCore

/// `wifi-or-charging` — refreshes content only while the phone is on Wi-Fi
/// or charging (where a background download costs the user little), unless
/// a request has waited `maxHold` since its app submitted it; then it runs
/// on cellular too, so that no app stays stale all day away from Wi-Fi.
///
/// Idea: a cellular radio tail costs several times a Wi-Fi one (the energy
/// model's parameters, Docs of BGBench), and users are on Wi-Fi or charging
/// at night and at home, where most launches happen. Assumption, not a
/// published policy. Parameters:
/// - `maxHold` (duration, default 3h): the longest a request waits for
///   Wi-Fi or power before it runs on cellular.
/// Processing tasks (which the OS runs only when allowed anyway) run as
/// soon as they are eligible.
public struct WiFiOrChargingRefresher: SchedulingPolicy {
    public var maxHold: SimDuration

    public init(maxHold: SimDuration = .hours(3)) { self.maxHold = maxHold }

    /// What `main.swift` registers: the name a spec uses, the parameters
    /// with their defaults, and how to build the policy from them.
    public static let registration = PolicyDescriptor(
        name: "wifi-or-charging",
        summary: "refreshes only on Wi-Fi or while charging, unless a request waited maxHold",
        parameters: [
            PolicyParameter("maxHold", .duration, default: .string("3h"),
                            "longest a request waits for Wi-Fi or power before it runs on cellular"),
        ]) { p, _ in
        WiFiOrChargingRefresher(maxHold: p.duration("maxHold"))
    }

    public func decide(context: PolicyContext) -> PolicyDecision {
        let cheap = context.device.isCharging || context.device.network == .wifi
        var run: [RequestID] = []
        var wake: SimTime? = nil
        func wakeAt(_ t: SimTime) { if t > context.now, wake.map({ t < $0 }) ?? true { wake = t } }
        for r in context.pending {
            let held = r.submittedAt + maxHold
            let due = cheap || !r.kind.refreshesContent || context.now >= held
            if due && context.isEligible(r) {
                run.append(r.id)
            } else {
                // Wake when it may begin, and when its hold runs out.
                wakeAt(r.earliestBegin)
                wakeAt(held)
            }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
