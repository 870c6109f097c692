import Traces
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

    /// `device.backgroundURLSession`.
    public static let urlSession: [RangeRule<BackgroundTransferRules>] = [
        RangeRule("relaunchDelay", .seconds(0, 86_400)) { $0.relaunchDelay.seconds },
        RangeRule("relaunchCPUSeconds", .seconds(0, 30)) { $0.relaunchCPUSeconds },
        RangeRule("resourceTimeout", .seconds(60, 30 * 86_400)) { $0.resourceTimeout.seconds },
    ]

    /// An app's `backgroundTransfer`.
    public static let transfer: [RangeRule<BackgroundTransferModel>] = [
        RangeRule("probability", .probability) { $0.probability },
        RangeRule("bytesDown", ValueRange(0, 1e10, unit: "B")) { $0.bytesDown },
        RangeRule("bytesUp", ValueRange(0, 1e10, unit: "B")) { $0.bytesUp },
        RangeRule("followUps", ValueRange(0, 100)) { Double($0.followUps) },
    ]

    /// `device.continuedProcessing` (`maxRunningUnderPressure` is also
    /// checked against `maxRunning` in ``check(device:at:)``).
    public static let continuedProcessing: [RangeRule<ContinuedProcessingRules>] = [
        RangeRule("maxRunning", ValueRange(1, 16)) { Double($0.maxRunning) },
        RangeRule("maxRunningUnderPressure", ValueRange(0, 16)) { Double($0.maxRunningUnderPressure) },
        RangeRule("pressureBatteryPercent", ValueRange(0, 100, unit: "%")) { $0.pressureBatteryPercent },
    ]

    /// An app's `continuedProcessing` (its `work` is checked as a work model).
    public static let continuedJob: [RangeRule<ContinuedProcessingJob>] = [
        RangeRule("probability", .probability) { $0.probability },
        RangeRule("cancelPerHour", ValueRange(0, 3_600, unit: "/h")) { $0.cancelPerHour },
    ]

    /// `device.cancellationGrace` (SwiftUI handlers that ignore their cancellation).
    public static let swiftUI: [RangeRule<DeviceConfiguration>] = [
        RangeRule("cancellationGrace", .seconds(0, 600, open: true)) { $0.cancellationGrace.seconds },
    ]

    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try urlSession.checkAll(d.backgroundURLSession, under: path + ".backgroundURLSession")
        try silentPush.checkAll(d.silentPush, under: path + ".silentPush")
        try backgroundTask.checkAll(d.beginBackgroundTask, under: path + ".beginBackgroundTask")
        try swiftUI.checkAll(d, under: path)
        try continuedProcessing.checkAll(d.continuedProcessing, under: path + ".continuedProcessing")
        let cp = d.continuedProcessing
        if cp.maxRunningUnderPressure > cp.maxRunning {
            try RangeRule<ContinuedProcessingRules>("maxRunningUnderPressure",
                                                    ValueRange(0, Double(cp.maxRunning))) { Double($0.maxRunningUnderPressure) }
                .check(cp, under: path + ".continuedProcessing")
        }
    }

    public static func check(app model: AppModel, at path: String) throws(SpecError) {
        try strategy.checkAll(model.silentPush, under: path + ".silentPush")
        if let t = model.backgroundTransfer { try transfer.checkAll(t, under: path + ".backgroundTransfer") }
        if let f = model.beginBackgroundTask {
            try finishingWork.checkAll(f, under: path + ".beginBackgroundTask")
            try AppModelRanges.work.checkAll(f.work, under: path + ".beginBackgroundTask.work")
        }
        if let j = model.continuedProcessing {
            try continuedJob.checkAll(j, under: path + ".continuedProcessing")
            try AppModelRanges.work.checkAll(j.work, under: path + ".continuedProcessing.work")
        }
    }
}
