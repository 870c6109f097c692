import SimCore
import Traces

/// The exogenous world of one device, in the shape the simulator consumes:
/// flat, time-sorted arrays of small structs indexed by app number.
///
/// Built from a Traces `UserTrace` by `DeviceTrace(_:)` (see
/// `DeviceTrace+Traces.swift`) or by hand in tests.
public struct DeviceTrace: Sendable {
    /// A foreground session: screen on, `app` in the foreground.
    @frozen
    public struct Session: Sendable, Hashable {
        public var start: SimTime
        public var end: SimTime
        public var app: Int32
        public init(start: SimTime, end: SimTime, app: Int32) {
            self.start = start; self.end = end; self.app = app
        }
    }

    /// The device is plugged in over [start, end): the trace set's own record.
    public typealias Charging = ChargingInterval

    /// The device has connectivity `kind` over [start, end): the trace
    /// set's own record (the device reads it as a ``NetworkType``,
    /// `NetworkInterval.network`).
    public typealias Network = NetworkInterval

    /// A reading of the real phone's battery level: the trace set's own record.
    public typealias MeasuredLevel = BatteryLevelSample

    /// End of the simulated period.
    public var horizon: SimTime
    /// App names, indexed by the app numbers used everywhere else.
    public var appNames: [String]
    /// Sorted, non-overlapping.
    public var sessions: [Session]
    /// Sorted, non-overlapping.
    public var charging: [Charging]
    /// Sorted; gaps are offline.
    public var network: [Network]
    /// Content update publication times per app, sorted.
    public var contentUpdates: [[SimTime]]
    /// Low Power Mode accepted when offered: `[day][0]` at the first offer
    /// of the day (`OSRules.lowBatteryPercent`, 20 % by default), `[day][1]`
    /// at the second (`OSRules.secondLowPowerOfferPercent`, 10 %).
    /// Missing days mean "declined".
    public var lowPowerAccepted: [[Bool]]
    /// Drain while the screen is on, watts.
    public var screenOnDrainWatts: Double
    /// Drain while idle, watts.
    public var idleDrainWatts: Double
    /// Battery level at time 0, percent.
    public var initialBatteryPercent: Double
    /// Battery capacity, watt-hours.
    public var batteryCapacityWh: Double
    /// Charger power, watts (nil: the device configuration's value).
    public var chargingWatts: Double?
    /// Background App Refresh switch per app (nil: the app models decide).
    public var backgroundAppRefreshEnabled: [Bool]?
    /// The real phone's battery readings, sorted by strictly increasing
    /// time; empty (the default): the level is modelled from the drains
    /// and the charger. Between the first and the last reading the level
    /// follows them instead, background energy on top (`PowerSupply`,
    /// Docs/Semantics.md, "Measured battery").
    public var measuredBattery: [MeasuredLevel] = []
    /// The generator's model of this user, for policies with
    /// `traits.needsModelKnowledge` (set by the runner; nil otherwise).
    public var model: UsageModelKnowledge?

    public init(horizon: SimTime, appNames: [String], sessions: [Session] = [], charging: [Charging] = [],
                network: [Network]? = nil, contentUpdates: [[SimTime]]? = nil,
                lowPowerAccepted: [[Bool]] = [], screenOnDrainWatts: Double = 1.0,
                idleDrainWatts: Double = 0.02, initialBatteryPercent: Double = 100,
                batteryCapacityWh: Double = 12.4, chargingWatts: Double? = nil) {
        self.horizon = horizon
        self.appNames = appNames
        self.sessions = sessions
        self.charging = charging
        self.network = network ?? [Network(start: .zero, end: horizon, kind: .wifi)]
        self.contentUpdates = contentUpdates ?? Array(repeating: [], count: appNames.count)
        self.lowPowerAccepted = lowPowerAccepted
        self.screenOnDrainWatts = screenOnDrainWatts
        self.idleDrainWatts = idleDrainWatts
        self.initialBatteryPercent = initialBatteryPercent
        self.batteryCapacityWh = batteryCapacityWh
        self.chargingWatts = chargingWatts
    }

    /// Whether the user accepts Low Power Mode offered on `day` at offer 0 (the first) or 1 (the second).
    public func acceptsLowPower(day: Int, threshold: Int) -> Bool {
        day >= 0 && day < lowPowerAccepted.count && threshold < lowPowerAccepted[day].count
            && lowPowerAccepted[day][threshold]
    }
}
