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

    /// `device.beginBackgroundTask`.
    public static let backgroundTask: [RangeRule<BackgroundTaskRules>] = [
        RangeRule("budget", .seconds(0, 600, open: true)) { $0.budget.seconds },
    ]

    /// An app's `beginBackgroundTask` (its `work` is checked as a work model).
    public static let finishingWork: [RangeRule<FinishingWork>] = [
        RangeRule("probability", .probability) { $0.probability },
    ]

    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try silentPush.checkAll(d.silentPush, under: path + ".silentPush")
        try backgroundTask.checkAll(d.beginBackgroundTask, under: path + ".beginBackgroundTask")
    }

    public static func check(app model: AppModel, at path: String) throws(SpecError) {
        try strategy.checkAll(model.silentPush, under: path + ".silentPush")
        if let f = model.beginBackgroundTask {
            try finishingWork.checkAll(f, under: path + ".beginBackgroundTask")
            try AppModelRanges.work.checkAll(f.work, under: path + ".beginBackgroundTask.work")
        }
    }
}
