import Device

/// Ranges of issue 18's mechanisms: the OS side under `device.silentPush`
/// and each app's `silentPush` strategy. Documented in
/// Docs/ExperimentSpec.md ("Silent push") and Docs/Mechanisms.md.
public enum MechanismRanges {
    /// `device.silentPush`. The rate starts above 0 (a zero rate would hold
    /// every push for ever) and is capped at one a second.
    public static let silentPush: [RangeRule<SilentPushRules>] = [
        RangeRule("perHour", ValueRange(0, 3_600, lowerOpen: true, unit: "/h")) { $0.perHour },
        RangeRule("burst", ValueRange(1, 100)) { $0.burst },
        RangeRule("handlerBudget", .seconds(0, 600, open: true)) { $0.handlerBudget.seconds },
    ]

    /// An app's `silentPush.interval` / `silentPush.window`: at least a
    /// second (zero would make the strategy the same as every update), at
    /// most a day.
    public static let strategy: [RangeRule<PushStrategy>] = [
        RangeRule("interval", .seconds(1, 86_400)) {
            if case .atMostOnePer(let d) = $0 { d.seconds } else { nil }
        },
        RangeRule("window", .seconds(1, 86_400)) {
            if case .coalesced(let d) = $0 { d.seconds } else { nil }
        },
    ]

    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try silentPush.checkAll(d.silentPush, under: path + ".silentPush")
    }

    public static func check(app model: AppModel, at path: String) throws(SpecError) {
        try strategy.checkAll(model.silentPush, under: path + ".silentPush")
    }
}
