import Traces
import Device

/// The checks that need the world (the generator's apps or the trace set)
/// and the thread count, run by `validate` and by `run` through the same
/// call (`ExperimentCommands.prepare`), so the two agree on every input.
public enum WorldChecks {
    public static func check(_ spec: ExperimentSpec, traceSet: TraceSet?, threads: Int) throws(SpecError) {
        try check(spec, traceHeader: traceSet?.header, threads: threads)
    }

    /// As `check(_:traceSet:threads:)`, with the trace set's header alone
    /// (what a streamed run holds before its users).
    public static func check(_ spec: ExperimentSpec, traceHeader traceSet: TraceSetHeader?, threads: Int) throws(SpecError) {
        let apps: [String], users: Int, days: Int
        var updatesPerDay = 0.0, sessionsPerDay = 0.0
        switch spec.world {
        case let .generated(u, d, parameters):
            apps = parameters.apps.map(\.name); users = u; days = d
            // Rates are means: twice the mean covers a busy user's day.
            updatesPerDay = 2 * 24 * parameters.content.rateScale * parameters.apps.reduce(0) { $0 + $1.contentUpdatesPerHour }
            sessionsPerDay = 2 * parameters.usage.sessionsPerDayMax
        case .traces:
            guard let traceSet else { return }
            try TraceSynthesisSpec.checkCovers(traceSet, synthesis: spec.traceSynthesis, file: spec.file)
            try TraceSynthesisSpec.checkMeasuredBattery(traceSet, spec: spec)
            apps = traceSet.apps.map(\.name); users = traceSet.profiles.count; days = traceSet.days
        }
        try DeviceRanges.checkAppNames(spec.appsNamedInDevice, worldApps: apps)
        try checkForceQuitReach(spec, worldApps: apps)
        try ResourceLimits.checkMemory(users: users, days: days, replications: spec.replications,
                                       configurations: spec.configurations.count, metrics: Runner.metrics(for: spec).count,
                                       threads: threads, updatesPerDay: updatesPerDay, sessionsPerDay: sessionsPerDay,
                                       path: "$")
    }

    /// Only the first `AppSet.capacity` apps of a device can be force-quit
    /// (the set is one inline word of the device state: `AppSet`). A later
    /// app with a force-quit probability above 0 is an input error, named
    /// at the JSON path that gave it the probability.
    static func checkForceQuitReach(_ spec: ExperimentSpec, worldApps: [String]) throws(SpecError) {
        let limit = Int(AppSet.capacity)
        guard worldApps.count > limit else { return }
        var devices: [(DeviceConfiguration, String)] = [(spec.device, "$.device")]
        for (i, v) in spec.deviceVariants.enumerated() { devices.append((v.device, "$.devices[\(i)].device")) }
        for (device, path) in devices {
            for name in worldApps[limit...] where device.model(forApp: name).forceQuitProbability > 0 {
                let key = device.apps[name] != nil ? "apps.\(name)" : "defaultApp"
                throw SpecError(path: "\(path).\(key).forceQuitProbability",
                                message: "app \"\(name)\" is app \(worldApps.firstIndex(of: name)! + 1) of \(worldApps.count); "
                                    + "force-quit is modelled for the first \(limit) apps of a device only (Docs/Semantics.md, \"Force-quit\")")
            }
        }
    }
}
