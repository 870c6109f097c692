/// Power and timing of one radio technology's RRC state machine.
///
/// Active power while transferring is `P = αu·up + αd·down + β` with the
/// throughputs in Mbps and the α in W/Mbps (Huang et al., MobiSys 2012).
/// All values are SI: seconds, watts, megabits per second.
public struct RadioParameters: Sendable, Hashable, Codable {
    /// Where the figures come from (kept with the data so reports can cite it).
    public var source: String
    /// Time to promote the radio from idle to connected, seconds.
    public var promotionSeconds: Double
    /// Power during promotion, watts.
    public var promotionWatts: Double
    /// Time the radio stays connected after the last byte, seconds.
    public var tailSeconds: Double
    /// Power during the tail, watts.
    public var tailWatts: Double
    /// Uplink coefficient αu, watts per Mbps.
    public var alphaUpWattsPerMbps: Double
    /// Downlink coefficient αd, watts per Mbps.
    public var alphaDownWattsPerMbps: Double
    /// Base active power β, watts.
    public var betaWatts: Double
    /// Uplink throughput assumed for background transfers, Mbps.
    public var uplinkMbps: Double
    /// Downlink throughput assumed for background transfers, Mbps.
    public var downlinkMbps: Double

    public init(source: String, promotionSeconds: Double, promotionWatts: Double,
                tailSeconds: Double, tailWatts: Double, alphaUpWattsPerMbps: Double,
                alphaDownWattsPerMbps: Double, betaWatts: Double,
                uplinkMbps: Double, downlinkMbps: Double) {
        self.source = source
        self.promotionSeconds = promotionSeconds
        self.promotionWatts = promotionWatts
        self.tailSeconds = tailSeconds
        self.tailWatts = tailWatts
        self.alphaUpWattsPerMbps = alphaUpWattsPerMbps
        self.alphaDownWattsPerMbps = alphaDownWattsPerMbps
        self.betaWatts = betaWatts
        self.uplinkMbps = uplinkMbps
        self.downlinkMbps = downlinkMbps
    }

    /// Energy of one promotion, joules.
    public var promotionJoules: Double { promotionSeconds * promotionWatts }
    /// Energy of one full tail, joules.
    public var tailJoules: Double { tailSeconds * tailWatts }

    /// LTE, Huang et al., "A close examination of performance and power
    /// characteristics of 4G LTE networks", MobiSys 2012 (the values AT&T's
    /// ARO tool implements). Throughputs 12.74 / 5.64 Mbps are the paper's
    /// median LTE down/up figures as recalled (unverified); override them.
    public static let lte = RadioParameters(
        source: "Huang et al., MobiSys 2012 (LTE; ARO values); throughputs unverified",
        promotionSeconds: 0.2601, promotionWatts: 1.2107,
        tailSeconds: 11.576, tailWatts: 1.060,
        alphaUpWattsPerMbps: 0.43839, alphaDownWattsPerMbps: 0.05197, betaWatts: 1.28804,
        uplinkMbps: 5.64, downlinkMbps: 12.74)

    /// Wi-Fi, Huang et al., MobiSys 2012 (unverified against the paper's
    /// text, see REFERENCES.md). Throughputs 10 / 20 Mbps are assumptions.
    public static let wifi = RadioParameters(
        source: "Huang et al., MobiSys 2012 (Wi-Fi; unverified); throughputs assumed",
        promotionSeconds: 0.0791, promotionWatts: 0.1244,
        tailSeconds: 0.2381, tailWatts: 0.1193,
        alphaUpWattsPerMbps: 0.28317, alphaDownWattsPerMbps: 0.13701, betaWatts: 0.13286,
        uplinkMbps: 10, downlinkMbps: 20)

    /// 3G (UMTS), Huang et al., MobiSys 2012 (unverified). The DCH and FACH
    /// tails are folded into one tail of the same total energy
    /// (8.088 s·0.8039 W + 0.824 s·0.6013 W over 8.912 s). Optional: select
    /// it with `cellular: "3g"` in the energy parameter set.
    public static let threeG = RadioParameters(
        source: "Huang et al., MobiSys 2012 (3G; unverified); DCH+FACH tails merged; throughputs assumed",
        promotionSeconds: 0.5821, promotionWatts: 0.6594,
        tailSeconds: 8.912, tailWatts: (8.088 * 0.8039 + 0.824 * 0.6013) / 8.912,
        alphaUpWattsPerMbps: 0.86898, alphaDownWattsPerMbps: 0.12212, betaWatts: 0.81788,
        uplinkMbps: 1, downlinkMbps: 2)
}

/// The whole energy model of the device: wake-up overhead, CPU power and
/// the radios. Every field can be overridden from an experiment file.
public struct EnergyParameters: Sendable, Hashable, Codable {
    /// Energy of one background wake (the system launching or resuming the
    /// app), joules. Assumed, no source at hand: overridable.
    public var wakeJoules: Double
    /// CPU power while a task computes, watts. Assumed: overridable.
    public var cpuWatts: Double
    /// The Wi-Fi radio.
    public var wifi: RadioParameters
    /// The cellular radio (LTE by default).
    public var cellular: RadioParameters

    public init(wakeJoules: Double = 0.05, cpuWatts: Double = 1.0,
                wifi: RadioParameters = .wifi, cellular: RadioParameters = .lte) {
        self.wakeJoules = wakeJoules
        self.cpuWatts = cpuWatts
        self.wifi = wifi
        self.cellular = cellular
    }

    /// The compiled default: LTE + Wi-Fi from Huang et al., 0.05 J per wake, 1 W CPU.
    public static let `default` = EnergyParameters()

    @inlinable
    public func radio(_ network: NetworkType) -> RadioParameters {
        network == .wifi ? wifi : cellular
    }

    private enum CodingKeys: String, CodingKey { case wakeJoules, cpuWatts, wifi, cellular }

    /// Missing keys take the defaults, so a spec overrides only what it names.
    /// `cellular` may also be the string `"lte"` or `"3g"`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = EnergyParameters.default
        wakeJoules = try c.decodeIfPresent(Double.self, forKey: .wakeJoules) ?? d.wakeJoules
        cpuWatts = try c.decodeIfPresent(Double.self, forKey: .cpuWatts) ?? d.cpuWatts
        wifi = try c.decodeIfPresent(RadioParameters.self, forKey: .wifi) ?? d.wifi
        if let name = try? c.decode(String.self, forKey: .cellular) {
            switch name {
            case "lte": cellular = .lte
            case "3g": cellular = .threeG
            default:
                throw DecodingError.dataCorruptedError(forKey: .cellular, in: c,
                    debugDescription: "unknown cellular radio \"\(name)\"; expected \"lte\", \"3g\" or an object")
            }
        } else {
            cellular = try c.decodeIfPresent(RadioParameters.self, forKey: .cellular) ?? d.cellular
        }
    }
}
