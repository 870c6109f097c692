import Device

/// Ranges of `device.deadZones` (issue 19; Docs/ExperimentSpec.md, "Dead
/// zones", and Docs/Semantics.md). The rate is capped at 96 a day (one
/// every quarter hour outside zones): beyond that the device is rarely
/// connected and the feature stops being a burst model. The timeout is
/// capped at 10 min, past any budget of an app refresh.
public enum DeadZoneRanges {
    public static let deadZones: [RangeRule<DeadZoneModel>] = [
        RangeRule("perDay", ValueRange(0, 96, unit: "/day")) { $0.perDay },
        RangeRule("medianDuration", .seconds(1, 86_400)) { $0.medianDuration.seconds },
        RangeRule("durationSigma", ValueRange(0, 3)) { $0.durationSigma },
        RangeRule("requestTimeout", .seconds(1, 600)) { $0.requestTimeout.seconds },
    ]

    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try deadZones.checkAll(d.deadZones, under: path + ".deadZones")
    }
}
