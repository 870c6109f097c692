import Traces
import Device
import SimCore

/// Ranges of an app model (`device.defaultApp`, `device.apps.<name>`) and of
/// its two work models. Documented in `Docs/ExperimentSpec.md` ("App models").
public enum AppModelRanges {
    /// One day in seconds: the upper bound of most durations.
    static let day = 86_400.0

    public static func check(_ model: AppModel, at path: String) throws(SpecError) {
        try model.checkDeclaredRanges(at: path)
        try MechanismRanges.check(app: model, at: path)
    }
}
