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
    /// Issue 18: how iOS throttles and gates silent pushes (JSON key
    /// `silentPush`; used only by apps whose `silentPush` strategy pushes).
    public var silentPush = SilentPushRules()
    /// Issue 18: the extra time `beginBackgroundTask` gets (JSON key of the same name).
    public var beginBackgroundTask = BackgroundTaskRules()
    /// Issue 18: background URLSession's relaunch rate limit and timeout (JSON key `backgroundURLSession`).
    public var backgroundURLSession = BackgroundTransferRules()
    /// Issue 18: continued-processing concurrency and pressure (JSON key `continuedProcessing`).
    public var continuedProcessing = ContinuedProcessingRules()
    /// Issue 18: how long past its budget a SwiftUI handler that ignores
    /// its cancellation (`HandlerStyle.swiftUINonCooperative`) runs before
    /// the system kills the app (JSON key `cancellationGrace`). Duration in
    /// (0, 600] s; default 5 s: assumption (Apple publishes no figure; the
    /// BGTask documentation says only that the expiration handler is called
    /// "shortly before the task’s background time expires").
    public var cancellationGrace = SimDuration.seconds(5 as Int64)
    /// Issue 19: outages of the apps' backends (JSON key `backendOutages`; off by default).
    public var backendOutages = BackendOutageModel()
    /// Issue 19: dead zones, connected but nothing gets through (JSON key `deadZones`; off by default).
    public var deadZones = DeadZoneModel()

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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case apps, defaultApp, refreshBudget, processingBudget, batteryCapacityWh, energy,
             foregroundFetch, chargingWatts,
             lowBatteryPercent, secondLowPowerOfferPercent, lowPowerModeOffPercent,
             maxPendingRefreshPerApp, maxPendingProcessingPerApp,
             silentPush, beginBackgroundTask, backgroundURLSession,
             continuedProcessing, cancellationGrace,
             backendOutages,
             deadZones
    }

    public init(from decoder: any Decoder) throws {
        try decoder.container(keyedBy: AnyCodingKey.self)
            .rejectUnknownKeys(known: Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = DeviceConfiguration()
        apps = d.apps.merging(try c.value(.apps, default: [:])) { $1 }
        defaultApp = try c.value(.defaultApp, default: d.defaultApp)
        var rules = d.rules
        rules.refreshBudget = try c.duration(.refreshBudget, default: d.refreshBudget)
        rules.processingBudget = try c.duration(.processingBudget, default: d.processingBudget)
        rules.lowBatteryPercent = try c.value(.lowBatteryPercent, default: d.rules.lowBatteryPercent)
        rules.secondLowPowerOfferPercent = try c.value(.secondLowPowerOfferPercent,
                                                       default: d.rules.secondLowPowerOfferPercent)
        rules.lowPowerModeOffPercent = try c.value(.lowPowerModeOffPercent, default: d.rules.lowPowerModeOffPercent)
        rules.maxPendingRefreshPerApp = try c.int(.maxPendingRefreshPerApp, default: d.rules.maxPendingRefreshPerApp,
                                                  in: OSRules.maxPendingRange)
        rules.maxPendingProcessingPerApp = try c.int(.maxPendingProcessingPerApp,
                                                     default: d.rules.maxPendingProcessingPerApp, in: OSRules.maxPendingRange)
        if let (parameter, problem) = rules.validationError {
            let key = CodingKeys(stringValue: parameter) ?? .lowBatteryPercent
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(parameter) \(problem)")
        }
        self.rules = rules
        batteryCapacityWh = try c.decodeIfPresent(Double.self, forKey: .batteryCapacityWh)
        energy = try c.value(.energy, default: d.energy)
        foregroundFetch = try c.value(.foregroundFetch, default: d.foregroundFetch)
        chargingWatts = try c.value(.chargingWatts, default: d.chargingWatts)
        silentPush = try c.value(.silentPush, default: d.silentPush)
        beginBackgroundTask = try c.value(.beginBackgroundTask, default: d.beginBackgroundTask)
        backgroundURLSession = try c.value(.backgroundURLSession, default: d.backgroundURLSession)
        continuedProcessing = try c.value(.continuedProcessing, default: d.continuedProcessing)
        cancellationGrace = try c.duration(.cancellationGrace, default: d.cancellationGrace)
        backendOutages = try c.value(.backendOutages, default: d.backendOutages)
        deadZones = try c.value(.deadZones, default: d.deadZones)
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
        try c.encode(rules.lowBatteryPercent, forKey: .lowBatteryPercent)
        try c.encode(rules.secondLowPowerOfferPercent, forKey: .secondLowPowerOfferPercent)
        try c.encode(rules.lowPowerModeOffPercent, forKey: .lowPowerModeOffPercent)
        try c.encode(rules.maxPendingRefreshPerApp, forKey: .maxPendingRefreshPerApp)
        try c.encode(rules.maxPendingProcessingPerApp, forKey: .maxPendingProcessingPerApp)
        // Every key, defaults included: the spec reader takes a key missing
        // from this encoding for one the type does not know, so leaving out
        // a default refused `"deadZones": {"perDay": 0}` (the documented off).
        try c.encode(silentPush, forKey: .silentPush)
        try c.encode(beginBackgroundTask, forKey: .beginBackgroundTask)
        try c.encode(backgroundURLSession, forKey: .backgroundURLSession)
        try c.encodeDuration(cancellationGrace, forKey: .cancellationGrace)
        try c.encode(continuedProcessing, forKey: .continuedProcessing)
        try c.encode(backendOutages, forKey: .backendOutages)
        try c.encode(deadZones, forKey: .deadZones)
    }
}
