import Device

/// Ranges of `device.backendOutages` (issue 19; Docs/ExperimentSpec.md,
/// "Backend outages", and Docs/Semantics.md). The rate is capped at 48 a
/// day (one every half hour of up-time): beyond that the backend is rarely
/// up and the feature stops being a burst model.
public enum OutageRanges {
    public static let backendOutages: [RangeRule<BackendOutageModel>] = [
        RangeRule("perDay", ValueRange(0, 48, unit: "/day")) { $0.perDay },
        RangeRule("medianDuration", .seconds(1, 86_400)) { $0.medianDuration.seconds },
        RangeRule("durationSigma", ValueRange(0, 3)) { $0.durationSigma },
    ]

    public static func check(device d: DeviceConfiguration, at path: String) throws(SpecError) {
        try backendOutages.checkAll(d.backendOutages, under: path + ".backendOutages")
    }
}
