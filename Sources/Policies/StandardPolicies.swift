import Device
import SimCore

extension PolicyRegistry {
    /// The built-in policies. Defaults here are the ones documented on each type.
    public static let standard = PolicyRegistry([
        PolicyDescriptor(name: "never", summary: "no background work: foreground refresh only (lower bound)") { _, _ in
            NeverPolicy()
        },
        PolicyDescriptor(name: "greedy", summary: "run every request as soon as the OS allows (freshness bound, highest energy)") { _, _ in
            GreedyPolicy()
        },
        PolicyDescriptor(
            name: "fixed-interval", summary: "refresh each app every interval (setMinimumBackgroundFetchInterval / periodic work)",
            parameters: [
                PolicyParameter("interval", .duration, default: .string("1h"), range: 1...30 * 86_400, "period between an app's refreshes"),
                PolicyParameter("flex", .duration, default: .string("5m"), range: 0...30 * 86_400, "a due refresh may run this much early"),
            ]) { p, _ in
            FixedIntervalPolicy(interval: p.duration("interval"), flex: p.duration("flex"))
        },
        PolicyDescriptor(
            name: "usage-predictor", summary: "learns launch times by time of day and weekday; refreshes shortly before likely launches",
            parameters: [
                PolicyParameter("leadTime", .duration, default: .string("2m"), range: 0...86_400, "refresh this long before a likely launch"),
                PolicyParameter("threshold", .number, default: .number(0.15), range: 0...1, "launch probability in a slot that triggers a refresh"),
                PolicyParameter("decay", .number, default: .number(0.9), range: 0...1, "per-day weight of past observations"),
                PolicyParameter("dailyBudget", .number, default: .number(100), range: 0...1e12, "background joules allowed per day"),
                PolicyParameter("slot", .duration, default: .string("15m"), range: 60...86_400, "width of the time-of-day slots"),
            ]) { p, _ in
            UsagePredictorPolicy(leadTime: p.duration("leadTime"), threshold: p.number("threshold"),
                                 decay: p.number("decay"), dailyBudget: p.number("dailyBudget"), slot: p.duration("slot"))
        },
        PolicyDescriptor(
            name: "coalescing", summary: "aligns the base's wakes to a grid so tasks share radio tails; rides foreground tails",
            parameters: [PolicyParameter("window", .duration, default: .string("15m"), range: 1...86_400, "alignment grid / batch window")],
            isWrapper: true) { p, base in
            func wrap<B: SchedulingPolicy>(_ b: B) -> any SchedulingPolicy {
                CoalescingPolicy(base: b, window: p.duration("window"))
            }
            return wrap(base!)
        },
        PolicyDescriptor(
            name: "exponential-backoff", summary: "after a failure, delays the app's next run initial·factor^(n−1) up to cap; resets on success or launch",
            parameters: [
                PolicyParameter("initial", .duration, default: .string("2m"), range: 1...30 * 86_400, "first delay (twice the apps' 1-minute retry)"),
                PolicyParameter("factor", .number, default: .number(2), range: 1...1000, "growth per failure in a row"),
                PolicyParameter("cap", .duration, default: .string("5h"), range: 1...365 * 86_400, "longest delay"),
                PolicyParameter("jitter", .number, default: .number(0), range: 0...1, "delays scaled by a factor in [1−jitter, 1+jitter]"),
            ],
            isWrapper: true) { p, base in
            func wrap<B: SchedulingPolicy>(_ b: B) -> any SchedulingPolicy {
                ExponentialBackoffPolicy(base: b, initial: p.duration("initial"), factor: p.number("factor"),
                                         cap: p.duration("cap"), jitter: p.number("jitter"))
            }
            return wrap(base!)
        },
        PolicyDescriptor(
            name: "oracle", summary: "sees future launches and updates; refreshes late before launches that would be stale (foresight reference, not realisable, not a strict bound)",
            parameters: [
                PolicyParameter("leadTime", .duration, default: .string("1m"), range: .seconds(0, 86_400, open: true), "the latest a refresh starts before the launch"),
                PolicyParameter("radioWindow", .duration, default: .string("10m"), range: .seconds(0, 86_400, open: true), "before the launch, refresh earlier if the radio is already up within this"),
            ]) { p, _ in
            OraclePolicy(leadTime: p.duration("leadTime"), radioWindow: p.duration("radioWindow"))
        },
        ExternalPolicy.registration,
        IOSSystemPolicy.registration,
        AndroidSystemPolicy.registration,
        PolicyDescriptor(
            name: "model-bound", summary: "knows each user's launch and content rates from the generator's model (not the future); refreshes where expected fresh launches per joule are highest (model-aware reference)",
            parameters: [
                PolicyParameter("minGainPerJoule", .number, default: .number(0.01), range: 0...1e6, "expected fresh launches per joule a refresh must bring"),
                PolicyParameter("recheck", .duration, default: .string("15m"), range: 60...86_400, "how soon a refresh not worth it now is looked at again"),
                PolicyParameter("cellularJoules", .number, default: .number(14), range: 0...1e6, "estimated cost of a refresh on a cold cellular radio"),
                PolicyParameter("wifiJoules", .number, default: .number(1), range: 0...1e6, "estimated cost of a refresh on Wi-Fi"),
                PolicyParameter("rideJoules", .number, default: .number(1), range: 0...1e6, "estimated cost when the radio is already up"),
            ]) { p, _ in
            ModelAwareBoundPolicy(minGainPerJoule: p.number("minGainPerJoule"), recheck: p.duration("recheck"),
                                  cellularJoules: p.number("cellularJoules"), wifiJoules: p.number("wifiJoules"),
                                  rideJoules: p.number("rideJoules"))
        },
        CostAwarePredictorPolicy.registration,
        PolicyDescriptor(
            name: "oracle-planner", summary: "sees future launches and updates; refreshes before launches that would be stale at the cheapest moment after the last update (radio up or Wi-Fi), else late (sharper foresight reference, not realisable, not a strict bound)",
            parameters: [
                PolicyParameter("leadTime", .duration, default: .string("1m"), range: .seconds(0, 86_400, open: true), "the latest a refresh starts before the launch"),
            ]) { p, _ in
            OraclePlannerPolicy(leadTime: p.duration("leadTime"))
        },
    ])
}
