import Traces
import Device

/// Ranges of issue 18's mechanisms: the OS side under `device.silentPush`
/// and each app's `silentPush` strategy. Documented in
/// Docs/ExperimentSpec.md ("Silent push") and Docs/Mechanisms.md.
public enum MechanismRanges {
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

    /// `device.cancellationGrace` (SwiftUI handlers that ignore their cancellation).
    public static let swiftUI: [RangeRule<DeviceConfiguration>] = [
        RangeRule("cancellationGrace", .seconds(0, 600, open: true)) { $0.cancellationGrace.seconds },
    ]

    /// The mechanisms' declared ranges (``DeclaredParameters``), the strategy
    /// durations and the one cross-field rule.
    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try d.backgroundURLSession.checkDeclaredRanges(at: path + ".backgroundURLSession")
        try d.silentPush.checkDeclaredRanges(at: path + ".silentPush")
        try d.beginBackgroundTask.checkDeclaredRanges(at: path + ".beginBackgroundTask")
        try swiftUI.checkAll(d, under: path)
        try d.continuedProcessing.checkDeclaredRanges(at: path + ".continuedProcessing")
        let cp = d.continuedProcessing
        if cp.maxRunningUnderPressure > cp.maxRunning {
            try RangeRule<ContinuedProcessingRules>("maxRunningUnderPressure",
                                                    ValueRange(0, Double(cp.maxRunning))) { Double($0.maxRunningUnderPressure) }
                .check(cp, under: path + ".continuedProcessing")
        }
    }

    public static func check(app model: AppModel, at path: String) throws(SpecError) {
        try strategy.checkAll(model.silentPush, under: path + ".silentPush")
        try model.backgroundTransfer?.checkDeclaredRanges(at: path + ".backgroundTransfer")
        try model.beginBackgroundTask?.checkDeclaredRanges(at: path + ".beginBackgroundTask")
        try model.continuedProcessing?.checkDeclaredRanges(at: path + ".continuedProcessing")
    }
}
