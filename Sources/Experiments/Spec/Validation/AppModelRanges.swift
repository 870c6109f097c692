import Traces
import Device
import SimCore

/// Ranges of an app model (`device.defaultApp`, `device.apps.<name>`) and of
/// its two work models. Documented in `Docs/ExperimentSpec.md` ("App models").
public enum AppModelRanges {
    /// One day in seconds: the upper bound of most durations.
    static let day = 86_400.0

    /// Intervals that reschedule work start at one second: zero would let an
    /// app resubmit at the instant it ran, forever.
    public static let app: [RangeRule<AppModel>] = [
        RangeRule("minimumFetchInterval", .seconds(1, 30 * day)) { $0.minimumFetchInterval.seconds },
        RangeRule("refreshEarliestBeginDelay", .seconds(0, 30 * day)) { $0.refreshEarliestBeginDelay.seconds },
        RangeRule("forgetProbability", .probability) { $0.forgetProbability },
        RangeRule("processingInterval", .seconds(60, 30 * day)) { $0.processingInterval?.seconds },
        RangeRule("retryDelayAfterFailure", .seconds(1, 30 * day)) { $0.retryDelayAfterFailure?.seconds },
        RangeRule("forceQuitProbability", .probability) { $0.forceQuitProbability },
        RangeRule("neverCompletesProbability", .probability) { $0.neverCompletesProbability },
        RangeRule("cancelsRequestsProbability", .probability) { $0.cancelsRequestsProbability },
    ]

    public static func check(_ model: AppModel, at path: String) throws(SpecError) {
        try app.checkAll(model, under: path)
        try model.refresh.checkDeclaredRanges(at: path + ".refresh")
        try model.processing.checkDeclaredRanges(at: path + ".processing")
        try MechanismRanges.check(app: model, at: path)
    }
}
