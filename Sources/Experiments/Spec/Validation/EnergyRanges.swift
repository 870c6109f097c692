import Traces
import Device

/// Ranges of the energy parameters (`device.energy`, the format of
/// `Datasets/energy/*.json`). Powers stop at 20 W and times at a minute:
/// well above any published phone radio (Huang et al., MobiSys 2012, measure
/// LTE at about 1.3 W and an 11.6 s tail). Throughputs must be positive, as
/// a transfer's duration divides by them.
public enum EnergyRanges {
    static let watts = ValueRange(0, 20, unit: "W")

    public static let energy: [RangeRule<EnergyParameters>] = [
        RangeRule("wakeJoules", ValueRange(0, 100, unit: "J")) { $0.wakeJoules },
        RangeRule("cpuWatts", watts) { $0.cpuWatts },
    ]

    public static let radio: [RangeRule<RadioParameters>] = [
        RangeRule("promotionSeconds", .seconds(0, 60)) { $0.promotionSeconds },
        RangeRule("promotionWatts", watts) { $0.promotionWatts },
        RangeRule("tailSeconds", .seconds(0, 60)) { $0.tailSeconds },
        RangeRule("tailWatts", watts) { $0.tailWatts },
        RangeRule("alphaUpWattsPerMbps", ValueRange(0, 20, unit: "W/Mbps")) { $0.alphaUpWattsPerMbps },
        RangeRule("alphaDownWattsPerMbps", ValueRange(0, 20, unit: "W/Mbps")) { $0.alphaDownWattsPerMbps },
        RangeRule("betaWatts", watts) { $0.betaWatts },
        RangeRule("uplinkMbps", ValueRange(0.001, 100_000, unit: "Mbps")) { $0.uplinkMbps },
        RangeRule("downlinkMbps", ValueRange(0.001, 100_000, unit: "Mbps")) { $0.downlinkMbps },
    ]

    public static func check(_ e: EnergyParameters, at path: String) throws(SpecError) {
        try energy.checkAll(e, under: path)
        try radio.checkAll(e.wifi, under: path + ".wifi")
        try radio.checkAll(e.cellular, under: path + ".cellular")
    }
}
