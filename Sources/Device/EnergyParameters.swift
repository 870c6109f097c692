import Traces

/// Power and timing of one radio technology's RRC state machine.
///
/// Active power while transferring is `P = αu·up + αd·down + β` with the
/// throughputs in Mbps and the α in W/Mbps (Huang et al., MobiSys 2012).
/// All values are SI: seconds, watts, megabits per second.
public struct RadioParameters: DeclaredParameters, Hashable {
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

    /// LTE's figures: the defaults a partial `cellular` object fills in.
    public init() { self = .lte }

    // Powers stop at 20 W and times at a minute: well above any published
    // phone radio (Huang et al. measure LTE at about 1.3 W and an 11.6 s
    // tail). Throughputs are positive: a transfer's duration divides by them.
    static let watts = ValueRange(0, 20, unit: "W")
    static let wattsPerMbps = ValueRange(0, 20, unit: "W/Mbps")
    static let mbps = ValueRange(0.001, 100_000, unit: "Mbps")

    /// The keys of `device.energy.wifi` / `.cellular` and of
    /// `Datasets/energy/*.json`; a key omitted keeps that radio's default.
    public static let parameters: [Parameter<RadioParameters>] = [
        .text("source", \.source, source: "the default radio's citation"),
        .real("promotionSeconds", \.promotionSeconds, .seconds(0, 60), source: "Huang et al., MobiSys 2012"),
        .real("promotionWatts", \.promotionWatts, watts, source: "Huang et al., MobiSys 2012"),
        .real("tailSeconds", \.tailSeconds, .seconds(0, 60), source: "Huang et al., MobiSys 2012"),
        .real("tailWatts", \.tailWatts, watts, source: "Huang et al., MobiSys 2012"),
        .real("alphaUpWattsPerMbps", \.alphaUpWattsPerMbps, wattsPerMbps, source: "Huang et al., MobiSys 2012"),
        .real("alphaDownWattsPerMbps", \.alphaDownWattsPerMbps, wattsPerMbps, source: "Huang et al., MobiSys 2012"),
        .real("betaWatts", \.betaWatts, watts, source: "Huang et al., MobiSys 2012"),
        .real("uplinkMbps", \.uplinkMbps, mbps, source: "LTE: the paper's median (unverified); Wi-Fi, 3G: assumption"),
        .real("downlinkMbps", \.downlinkMbps, mbps, source: "LTE: the paper's median (unverified); Wi-Fi, 3G: assumption"),
    ]

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
public struct EnergyParameters: DeclaredParameters, Hashable {
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

    /// Every parameter at its default.
    public init() { self.init(wifi: .wifi) }

    /// The compiled default: LTE + Wi-Fi from Huang et al., 0.05 J per wake, 1 W CPU.
    public static let `default` = EnergyParameters()

    @inlinable
    public func radio(_ network: NetworkType) -> RadioParameters {
        network == .wifi ? wifi : cellular
    }

    /// The keys of `device.energy` (and of `Datasets/energy/default.json`).
    /// `cellular` may also be the string `"lte"` or `"3g"`; an object's
    /// omitted keys keep the radio's current values (LTE by default).
    public static let parameters: [Parameter<EnergyParameters>] = [
        .real("wakeJoules", \.wakeJoules, ValueRange(0, 100, unit: "J"), source: "assumption"),
        .real("cpuWatts", \.cpuWatts, RadioParameters.watts, source: "assumption"),
        .object("wifi", \.wifi, source: "Huang et al., MobiSys 2012 (Wi-Fi; unverified)"),
        .custom("cellular", source: "Huang et al., MobiSys 2012 (LTE); \"3g\" selects their 3G figures",
                children: RadioParameters.declarations, decode: { e, c, k in
            guard c.contains(k), try !c.decodeNil(forKey: k) else { return }
            if let name = try? c.decode(String.self, forKey: k) {
                switch name {
                case "lte": e.cellular = .lte
                case "3g": e.cellular = .threeG
                default:
                    throw DecodingError.dataCorruptedError(forKey: k, in: c,
                        debugDescription: "unknown cellular radio \"\(name)\"; expected \"lte\", \"3g\" or an object")
                }
            } else {
                e.cellular = try RadioParameters(from: try c.superDecoder(forKey: k), missingKeysFrom: e.cellular)
            }
        }, encode: { e, c, k in try c.encode(e.cellular, forKey: k) },
           problem: { e in e.cellular.rangeProblem.map { ("cellular.\($0.path)", $0.message) } }),
    ]
}
