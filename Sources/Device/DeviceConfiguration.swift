import Foundation
import SimCore
import Traces

/// Everything about the simulated device that is not in the trace.
/// Codable with defaults: an experiment file overrides only what it names,
/// and unknown keys are rejected with their path.
@dynamicMemberLookup
public struct DeviceConfiguration: DeclaredParameters, Hashable {
    /// Apps' behaviour and work keyed by app name; apps not listed use
    /// `defaultApp`. Default `AppDefaults.apps` (the podcast app has a
    /// daily processing task); a spec's `apps` is merged over it (an app it
    /// names gets exactly the model given, the others keep theirs).
    public var apps: [String: AppModel]
    /// The model of every app not named in `apps`.
    public var defaultApp: AppModel
    /// The OS rules' thresholds, budgets and limits (see ``OSRules``).
    public var rules: OSRules
    /// App-refresh (and legacy fetch) run-time budget: `rules.refreshBudget`.
    public var refreshBudget: SimDuration {
        get { rules.refreshBudget }
        set { rules.refreshBudget = newValue }
    }
    /// Processing run-time budget: `rules.processingBudget`.
    public var processingBudget: SimDuration {
        get { rules.processingBudget }
        set { rules.processingBudget = newValue }
    }
    /// Overrides the trace's battery capacity, watt-hours.
    public var batteryCapacityWh: Double?
    /// The energy model.
    public var energy: EnergyParameters
    /// A foreground launch fetches content (rule 7). Off only for closed-form tests.
    public var foregroundFetch: Bool
    /// Charger power into the battery, watts, when the trace gives none.
    public var chargingWatts: Double
    /// Each mechanism's OS rules (``MechanismRules``), read as members of
    /// the configuration (`silentPush`, `beginBackgroundTask`, ...) and
    /// written flat under `device`.
    public var mechanisms = MechanismRules()
    /// How long past its budget a SwiftUI handler that ignores
    /// its cancellation (`HandlerStyle.swiftUINonCooperative`) runs before
    /// the system kills the app (JSON key `cancellationGrace`). Duration in
    /// (0, 600] s; default 5 s: assumption (Apple publishes no figure; the
    /// BGTask documentation says only that the expiration handler is called
    /// "shortly before the task’s background time expires").
    public var cancellationGrace = SimDuration.seconds(5 as Int64)
    /// Outages of the apps' backends (JSON key `backendOutages`; off by default).
    public var backendOutages = BackendOutageModel()
    /// Dead zones, connected but nothing gets through (JSON key `deadZones`; off by default).
    public var deadZones = DeadZoneModel()
    /// The phone's OS, whose background-work rules apply (JSON key
    /// `platform`): `ios` (default) or `android` (Docs/AndroidPlatform.md).
    public var platform = DevicePlatform.ios
    /// Android's constants, used only when `platform` is `android` (JSON key `android`).
    public var android = AndroidWorkRules()

    public init(apps: [String: AppModel] = AppDefaults.apps, defaultApp: AppModel = AppModel(),
                refreshBudget: SimDuration? = nil, processingBudget: SimDuration? = nil,
                batteryCapacityWh: Double? = nil, energy: EnergyParameters = .default,
                foregroundFetch: Bool = true,
                chargingWatts: Double = 10, rules: OSRules = .standard) {
        self.apps = apps
        self.defaultApp = defaultApp
        // The budgets may be given on their own or as part of `rules`.
        self.rules = rules
        if let refreshBudget { self.rules.refreshBudget = refreshBudget }
        if let processingBudget { self.rules.processingBudget = processingBudget }
        self.batteryCapacityWh = batteryCapacityWh
        self.energy = energy
        self.foregroundFetch = foregroundFetch
        self.chargingWatts = chargingWatts
    }

    /// The model of the app named `name`.
    public func model(forApp name: String) -> AppModel { apps[name] ?? defaultApp }

    /// Every parameter at its default.
    public init() { self.init(apps: AppDefaults.apps) }

    /// The JSON keys of `device` (Docs/ExperimentSpec.md, "`device`"; the
    /// sources of the defaults are in the comments of the properties and
    /// of `OSRules`, whose keys are declared there and written here).
    public static let parameters: [Parameter<DeviceConfiguration>] = [
        .custom("apps", source: "AppDefaults.apps; a name given replaces that app's model", decode: { d, c, k in
            if let named = try c.decodeIfPresent([String: AppModel].self, forKey: k) {
                d.apps = d.apps.merging(named) { $1 }
            }
        }, encode: { d, c, k in try c.encode(d.apps, forKey: k) }),
        .object("defaultApp", \.defaultApp, source: "AppDefaults"),
    ] + OSRules.parameters.map { $0.lifted(\.rules) } + [
        .real("batteryCapacityWh", \.batteryCapacityWh, .batteryCapacity, source: "the trace's (absent: each user's own)"),
        .object("energy", \.energy, source: "Datasets/energy/README.md"),
        .flag("foregroundFetch", \.foregroundFetch, source: "rule 7 (off only for closed-form tests)"),
        .real("chargingWatts", \.chargingWatts, ValueRange(0, 1_000, unit: "W"), source: "assumption"),
    ] + MechanismRules.parameters.map { $0.lifted(\.mechanisms) } + [
        .duration("cancellationGrace", \.cancellationGrace, .seconds(0, 600, open: true), source: "assumption"),
        .object("backendOutages", \.backendOutages),
        .object("deadZones", \.deadZones),
        .choice("platform", \.platform, source: "ios (every result before the Android platform); Docs/AndroidPlatform.md"),
        .object("android", \.android, source: "its own keys; read only on platform android"),
    ]

    /// A mechanism's rules, as if a member of the configuration.
    public subscript<T>(dynamicMember path: WritableKeyPath<MechanismRules, T>) -> T {
        get { mechanisms[keyPath: path] }
        set { mechanisms[keyPath: path] = newValue }
    }

    /// The battery percentages out of order, at the key named by the rules.
    public var crossFieldProblem: (key: String, message: String)? { rules.crossFieldProblem }

}
