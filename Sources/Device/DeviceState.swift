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
    /// The apps the user force-quit in the app switcher and has not opened
    /// since: none of them gets a background launch (``Refusal/appForceQuit``).
    /// Empty unless an app model's `forceQuitProbability` is above 0.
    public var forceQuitApps: AppSet

    public init(batteryPercent: Double = 100, isCharging: Bool = false, isLowPowerMode: Bool = false,
                network: NetworkType = .wifi, isScreenOn: Bool = false, foregroundApp: Int32? = nil,
                forceQuitApps: AppSet = AppSet()) {
        self.batteryPercent = batteryPercent
        self.isCharging = isCharging
        self.isLowPowerMode = isLowPowerMode
        self.network = network
        self.isScreenOn = isScreenOn
        self.foregroundApp = foregroundApp
        self.forceQuitApps = forceQuitApps
    }
}
