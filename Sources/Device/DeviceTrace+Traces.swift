import SimCore
import Traces

extension NetworkType {
    /// The Traces network kind as the device sees it.
    public init(_ kind: NetworkKind) {
        switch kind {
        case .wifi: self = .wifi
        case .cellular: self = .cellular
        case .offline: self = .offline
        }
    }
}

extension NetworkInterval {
    /// The interval's network as the device sees it.
    public var network: NetworkType { NetworkType(kind) }
}

extension DeviceTrace {
    /// The device's view of a generated or read user trace. `apps` is the
    /// trace set's app list (`TraceSet.apps` / `GeneratorParameters.apps`).
    /// With `measuredBattery`, the user's battery readings (`UserTrace.batteryLevel`)
    /// drive the level where they exist (`DeviceTrace.measuredBattery`).
    public init(_ user: UserTrace, apps: [TraceApp], measuredBattery: Bool = false) {
        let p = user.profile
        let days = max(0, user.horizon.day) + 1
        var lpm: [[Bool]] = []
        lpm.reserveCapacity(days)
        // The trace set stores the user's answers to the day's first and
        // second offer (Traces names them by their default levels, 20 and
        // 10): the simulator asks them at the levels of its `OSRules`.
        for d in 0..<days {
            lpm.append([user.acceptsLowPowerMode(day: d, thresholdPercent: 20),
                        user.acceptsLowPowerMode(day: d, thresholdPercent: 10)])
        }
        self.init(
            horizon: user.horizon,
            appNames: apps.map(\.name),
            sessions: user.sessions.map { Session(start: $0.start, end: $0.end, app: Int32($0.app)) },
            charging: user.charging,
            network: user.network,
            contentUpdates: user.contentUpdates,
            lowPowerAccepted: lpm,
            screenOnDrainWatts: p.screenOnDrainWatts,
            idleDrainWatts: p.idleDrainWatts,
            initialBatteryPercent: p.initialBatteryPercent,
            batteryCapacityWh: p.batteryCapacityWh,
            chargingWatts: p.chargingWatts)
        if p.backgroundAppRefreshEnabled.count == apps.count {
            backgroundAppRefreshEnabled = p.backgroundAppRefreshEnabled
        }
        if measuredBattery {
            self.measuredBattery = user.batteryLevel
        }
    }
}
