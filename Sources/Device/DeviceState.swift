import SimCore

/// What the device looks like at one instant (what a policy may read).
@frozen
public struct DeviceState: Sendable, Hashable {
    /// Battery level, percent in [0, 100].
    public var batteryPercent: Double
    public var isCharging: Bool
    public var isLowPowerMode: Bool
    public var network: NetworkType
    /// Screen on = the user is in a foreground session.
    public var isScreenOn: Bool
    /// The app in the foreground (the current session's app), nil with the screen off.
    public var foregroundApp: Int32?

    public init(batteryPercent: Double = 100, isCharging: Bool = false, isLowPowerMode: Bool = false,
                network: NetworkType = .wifi, isScreenOn: Bool = false, foregroundApp: Int32? = nil) {
        self.batteryPercent = batteryPercent
        self.isCharging = isCharging
        self.isLowPowerMode = isLowPowerMode
        self.network = network
        self.isScreenOn = isScreenOn
        self.foregroundApp = foregroundApp
    }
}

/// Why the OS refused to start a task a policy asked for. One per rule.
@frozen
public enum Refusal: UInt8, Sendable, Hashable, CaseIterable {
    /// Rule 1: before the request's `earliestBeginDate`.
    case beforeEarliestBegin = 0
    /// Not pending (never submitted, cancelled, replaced or already run).
    case notPending
    /// Rule 3: processing while the screen is on.
    case screenOn
    /// Rule 3: `requiresExternalPower` while not charging.
    case needsExternalPower
    /// Rule 3: `requiresNetworkConnectivity` while offline.
    case needsNetwork
    /// Rule 4: app refresh / fetch in Low Power Mode.
    case lowPowerMode
    /// Rule 4: app refresh / fetch with the battery under 20 %.
    case lowBattery
    /// OS rule added in round fix-device (beyond the brief's 1–8): a background task (refresh, processing, legacy
    /// fetch) of the app that is in the foreground. iOS does not launch an
    /// app in the background while it is in the foreground; its own
    /// refresh would be wasted (the foreground fetch already refreshes it).
    case appInForeground

    public var name: String {
        switch self {
        case .beforeEarliestBegin: "before_earliest_begin"
        case .notPending: "not_pending"
        case .screenOn: "screen_on"
        case .needsExternalPower: "needs_external_power"
        case .needsNetwork: "needs_network"
        case .lowPowerMode: "low_power_mode"
        case .lowBattery: "low_battery"
        case .appInForeground: "app_in_foreground"
        }
    }
}

/// The OS rules of the brief as one pure function, shared by the simulator
/// (which enforces them) and `PolicyContext.isEligible` (which lets a
/// well-behaved policy ask only for legal runs).
public enum OSRules {
    /// Below this battery level only essential work runs (rule 4).
    public static let lowBatteryPercent = 20.0

    /// Why `request` may not start at `now` in `state`, or nil if it may.
    @inlinable
    public static func refusal(for request: TaskRequest, at now: SimTime, state: DeviceState) -> Refusal? {
        if now < request.earliestBegin { return .beforeEarliestBegin }
        if request.kind.refreshesContent {
            if state.isLowPowerMode { return .lowPowerMode }
            if state.batteryPercent < lowBatteryPercent { return .lowBattery }
        }
        if request.kind == .processing && state.isScreenOn { return .screenOn }
        if let f = state.foregroundApp, f == request.app { return .appInForeground }
        if request.requiresExternalPower && !state.isCharging { return .needsExternalPower }
        if request.requiresNetworkConnectivity && !state.network.isOnline { return .needsNetwork }
        return nil
    }
}
