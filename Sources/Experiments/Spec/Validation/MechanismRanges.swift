import Traces
import Device

/// Ranges of mechanisms: the OS side under `device.silentPush`
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

    public static func check(app model: AppModel, at path: String) throws(SpecError) {
        try strategy.checkAll(model.silentPush, under: path + ".silentPush")
    }
}
