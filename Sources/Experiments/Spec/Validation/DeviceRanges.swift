import Traces
import Device

/// Ranges of `device` (the simulated phone and OS: declared with
/// ``DeviceConfiguration``, the energy model's with ``EnergyParameters``), and the rule that every
/// app named under `device.apps` is an app of the world (a misspelt name
/// would otherwise be silently unused). Documented in `Docs/ExperimentSpec.md`.
public enum DeviceRanges {
    /// Checks the numbers; app names are checked by ``checkAppNames`` once
    /// the world's apps are known.
    public static func check(_ d: DeviceConfiguration, at path: String) throws(SpecError) {
        try d.checkDeclaredRanges(at: path)
        try AppModelRanges.check(d.defaultApp, at: path + ".defaultApp")
        for name in d.apps.keys.sorted() {
            try AppModelRanges.check(d.apps[name]!, at: "\(path).apps.\(name)")
        }
    }

    /// `named` are the keys the spec wrote under `device.apps` or a
    /// variant's `device.apps`, with their JSON paths (the defaults of
    /// `AppDefaults.apps` may name apps a world lacks, and that is fine).
    public static func checkAppNames(_ named: [(name: String, path: String)], worldApps: [String]) throws(SpecError) {
        let known = Set(worldApps)
        for (name, path) in named where !known.contains(name) {
            throw SpecError(path: path,
                            message: "no app \"\(name)\" in this world; its apps are: \(worldApps.joined(separator: ", "))")
        }
    }
}
