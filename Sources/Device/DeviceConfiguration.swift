import Foundation
import SimCore

/// Everything about the simulated device that is not in the trace.
/// Codable with defaults: an experiment file overrides only what it names,
/// and unknown keys are rejected with their path.
public struct DeviceConfiguration: Sendable, Hashable, Codable {
    /// Apps' behaviour and work keyed by app name; apps not listed use
    /// `defaultApp`. Default `AppDefaults.apps` (the podcast app has a
    /// daily processing task); a spec's `apps` is merged over it (an app it
    /// names gets exactly the model given, the others keep theirs).
    public var apps: [String: AppModel]
    /// The model of every app not named in `apps`.
    public var defaultApp: AppModel
    /// App-refresh (and legacy fetch) run-time budget (brief: 30 s).
    public var refreshBudget: SimDuration
    /// Processing run-time budget ("minutes").
    public var processingBudget: SimDuration
    /// Overrides the trace's battery capacity, watt-hours.
    public var batteryCapacityWh: Double?
    /// The energy model.
    public var energy: EnergyParameters
    /// A foreground launch fetches content (rule 7). Off only for closed-form tests.
    public var foregroundFetch: Bool
    /// Charger power into the battery, watts, when the trace gives none.
    public var chargingWatts: Double

    public init(apps: [String: AppModel] = AppDefaults.apps, defaultApp: AppModel = AppModel(),
                refreshBudget: SimDuration = .seconds(30 as Int64), processingBudget: SimDuration = .minutes(5),
                batteryCapacityWh: Double? = nil, energy: EnergyParameters = .default,
                foregroundFetch: Bool = true,
                chargingWatts: Double = 10) {
        self.apps = apps
        self.defaultApp = defaultApp
        self.refreshBudget = refreshBudget
        self.processingBudget = processingBudget
        self.batteryCapacityWh = batteryCapacityWh
        self.energy = energy
        self.foregroundFetch = foregroundFetch
        self.chargingWatts = chargingWatts
    }

    /// The model of the app named `name`.
    public func model(forApp name: String) -> AppModel { apps[name] ?? defaultApp }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case apps, defaultApp, refreshBudget, processingBudget, batteryCapacityWh, energy,
             foregroundFetch, chargingWatts
    }

    public init(from decoder: any Decoder) throws {
        try decoder.container(keyedBy: AnyCodingKey.self)
            .rejectUnknownKeys(known: Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = DeviceConfiguration()
        apps = d.apps.merging(try c.value(.apps, default: [:])) { $1 }
        defaultApp = try c.value(.defaultApp, default: d.defaultApp)
        refreshBudget = try c.duration(.refreshBudget, default: d.refreshBudget)
        processingBudget = try c.duration(.processingBudget, default: d.processingBudget)
        batteryCapacityWh = try c.decodeIfPresent(Double.self, forKey: .batteryCapacityWh)
        energy = try c.value(.energy, default: d.energy)
        foregroundFetch = try c.value(.foregroundFetch, default: d.foregroundFetch)
        chargingWatts = try c.value(.chargingWatts, default: d.chargingWatts)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(apps, forKey: .apps)
        try c.encode(defaultApp, forKey: .defaultApp)
        try c.encodeDuration(refreshBudget, forKey: .refreshBudget)
        try c.encodeDuration(processingBudget, forKey: .processingBudget)
        try c.encodeIfPresent(batteryCapacityWh, forKey: .batteryCapacityWh)
        try c.encode(energy, forKey: .energy)
        try c.encode(foregroundFetch, forKey: .foregroundFetch)
        try c.encode(chargingWatts, forKey: .chargingWatts)
    }
}
