import SimCore

/// The radio's RRC state machine, charging background work for what it adds.
///
/// States: idle → (promotion) → active while bytes flow → tail → idle.
/// A transfer that starts inside a running tail pays no promotion; the tail
/// time before it (the gap) is charged at tail power. Foreground use (a
/// session while online) keeps the radio active and leaves a tail that the
/// foreground "owns": background work inside that window pays no promotion
/// and no tail for the part of the window the foreground would have had
/// anyway. Tails are charged lazily, when the next transfer or a network
/// change or the end of the run settles them, so no event is needed per tail.
public struct RadioModel: Sendable {
    public var parameters: EnergyParameters {
        didSet { refreshCurrent() }
    }
    /// Network the radio is on (a change drops the connection).
    public private(set) var network: NetworkType = .offline {
        didSet { refreshCurrent() }
    }
    /// Cache of `parameters.radio(network)`'s figures, without its `source`
    /// string, and of its tail length in µs. Why: the tail end is read at
    /// every policy decision point and every transfer; selecting the radio
    /// copies a `RadioParameters` (retaining and releasing its `source`
    /// string) and rounding the tail calls libm each time. Both only change
    /// when `parameters` or `network` change, whose `didSet`s refresh them.
    private var current: Figures
    private var currentTailMicros: Int64
    /// End of the last active period (µs); the tail runs after it.
    public private(set) var activeUntil: Int64 = Self.never
    /// Tail already paid for (by the foreground, or charged): background is not charged before it.
    private var freeTailUntil: Int64 = Self.never
    /// No time yet (an active period, a paid tail): far enough below every
    /// time that adding a tail or subtracting a time cannot overflow, so
    /// the hot paths below use wrapping operators (`&+`, `&-`) without
    /// overflow tests.
    static let never: Int64 = .min / 4
    /// The foreground's active period on this network (the last session
    /// while online): the foreground pays the radio's base active power β
    /// then, so background transfers inside it pay only their α terms.
    private var foregroundFrom: Int64 = Self.never
    private var foregroundUntil: Int64 = Self.never
    /// The last background transfer, so an expiration can cut it short:
    /// its α energy (spread evenly over it) and the start of the part that
    /// pays β (after any foreground overlap).
    private var lastActiveStart: Int64 = 0
    private var lastActiveEnd: Int64 = 0
    private var lastAlphaJoules: Double = 0
    private var lastBetaFrom: Int64 = 0
    /// β of the network the last transfer ran on: its refund is at that
    /// power even if the network changed since (read from the current
    /// radio, it was cellular's for offline, and the refund could exceed
    /// what was charged).
    private var lastBetaWatts: Double = 0
    /// Background radio energy so far.
    public private(set) var energy = EnergyLedger()
    /// Number of promotions background work caused.
    public private(set) var promotions: Int = 0

    public init(parameters: EnergyParameters) {
        self.parameters = parameters
        current = Figures(parameters.radio(.offline))
        currentTailMicros = Self.tailMicros(of: parameters.radio(.offline))
    }

    private static func tailMicros(of p: RadioParameters) -> Int64 { Int64((p.tailSeconds * 1e6).rounded()) }

    private mutating func refreshCurrent() {
        let p = parameters.radio(network)
        current = Figures(p)
        currentTailMicros = Self.tailMicros(of: p)
    }

    /// The figures of one radio the hot paths read (no `source` string, so a
    /// copy is plain bytes), the promotion's length already in µs.
    struct Figures {
        var promotionMicros: Int64
        var promotionJoules: Double
        var tailWatts: Double
        var betaWatts: Double
        var uplinkMbps: Double
        var downlinkMbps: Double
        var alphaUpWattsPerMbps: Double
        var alphaDownWattsPerMbps: Double

        init(_ p: RadioParameters) {
            promotionMicros = roundToInt64(p.promotionSeconds * 1e6)
            promotionJoules = p.promotionJoules
            tailWatts = p.tailWatts
            betaWatts = p.betaWatts
            uplinkMbps = p.uplinkMbps
            downlinkMbps = p.downlinkMbps
            alphaUpWattsPerMbps = p.alphaUpWattsPerMbps
            alphaDownWattsPerMbps = p.alphaDownWattsPerMbps
        }
    }

    /// The parts of a transfer's cost that depend only on its sizes and the
    /// radio: seconds to send and to receive, and the α energy (joules).
    public struct TransferShape: Sendable, Hashable {
        public var upSeconds: Double
        public var downSeconds: Double
        public var alphaJoules: Double
    }

    /// The shape of a transfer of `bytesUp`/`bytesDown` on radio `p`. A
    /// caller that repeats the same transfer (the simulator: one per app,
    /// task kind and network) computes it once; the values are those
    /// `backgroundTransfer(at:bytesUp:bytesDown:latency:)` computes.
    public static func shape(bytesUp: Double, bytesDown: Double, on p: RadioParameters) -> TransferShape {
        shape(bytesUp: bytesUp, bytesDown: bytesDown, Figures(p))
    }

    @inline(__always)
    static func shape(bytesUp: Double, bytesDown: Double, _ p: Figures) -> TransferShape {
        let upSeconds = bytesUp * 8 / (p.uplinkMbps * 1e6)
        let downSeconds = bytesDown * 8 / (p.downlinkMbps * 1e6)
        let alpha = p.alphaUpWattsPerMbps * p.uplinkMbps * upSeconds
            + p.alphaDownWattsPerMbps * p.downlinkMbps * downSeconds
        return TransferShape(upSeconds: upSeconds, downSeconds: downSeconds, alphaJoules: alpha)
    }

    /// Tail length of the current radio, µs (cached, see `current`).
    var tailMicros: Int64 { currentTailMicros }

    /// True while the radio is connected (active or in its tail) at `t`.
    public func isUp(at t: SimTime, on net: NetworkType) -> Bool {
        net == network && net.isOnline && t.microseconds < activeUntil &+ tailMicros
    }

    /// When the current tail ends, if the radio is up at `t`.
    public func tailEnds(at t: SimTime) -> SimTime? {
        guard network.isOnline, t.microseconds < activeUntil &+ tailMicros else { return nil }
        return SimTime(microseconds: activeUntil &+ tailMicros)
    }

    /// Charges the background's share of the tail between the last active
    /// period and `t` (capped at one full tail). Returns the joules charged.
    /// Inlined: called at nearly every transfer, where the call spilled and
    /// reloaded the transfer's figures around it.
    @discardableResult @inline(__always)
    private mutating func settleTail(until t: Int64) -> Double {
        // Never connected on this network yet: nothing owed.
        guard network.isOnline, activeUntil != Self.never else { return 0 }
        let from = max(activeUntil, freeTailUntil)
        let to = min(t, activeUntil &+ tailMicros)
        guard to > from else { return 0 }
        let j = Double(to &- from) * 1e-6 * current.tailWatts
        energy.tail += j
        freeTailUntil = to   // paid: never charged twice
        return j
    }

    /// The network changed at `t`: the old connection's tail ends there.
    @discardableResult
    public mutating func networkChanged(to net: NetworkType, at t: SimTime) -> Double {
        let j = settleTail(until: t.microseconds)
        if net != network {
            network = net
            activeUntil = Self.never
            freeTailUntil = Self.never
            foregroundFrom = Self.never
            foregroundUntil = Self.never
        }
        return j
    }

    /// Settles everything still owed at the end of the run (full tails).
    @discardableResult
    public mutating func finish() -> Double {
        settleTail(until: .max / 4)
    }

    /// A background transfer asked for at `t`. Returns when the data phase
    /// ends (after any promotion, the server latency and the bytes), and the
    /// joules charged now (promotion, tail gap, active).
    ///
    /// Active power is P = αu·up + αd·down + β (Huang et al.). While the
    /// foreground keeps the radio active (a session while online) the
    /// foreground already pays β: the transfer's marginal power over that
    /// overlap is only αu·up + αd·down; β is charged only for the part of
    /// the transfer outside the foreground's active period (charged in
    /// full, β would be counted twice during sessions). Known simplification: a transfer already running when a session
    /// starts keeps the β charged at its start.
    public mutating func backgroundTransfer(at t: SimTime, bytesUp: Double, bytesDown: Double,
                                            latency: SimDuration) -> (end: SimTime, ledger: EnergyLedger) {
        backgroundTransfer(at: t, shape: Self.shape(bytesUp: bytesUp, bytesDown: bytesDown, current), latency: latency)
    }

    /// As `backgroundTransfer(at:bytesUp:bytesDown:latency:)`, with the
    /// transfer's shape on the current network computed beforehand
    /// (`shape(bytesUp:bytesDown:on:)` of `parameters.radio(network)`).
    /// Inlined: the simulator calls it at every task start with a network,
    /// and the call spilled the task's figures around it.
    @inline(__always)
    public mutating func backgroundTransfer(at t: SimTime, shape: TransferShape,
                                            latency: SimDuration) -> (end: SimTime, ledger: EnergyLedger) {
        precondition(network.isOnline, "background transfer while offline")
        let p = current
        let before = energy
        var start = t.microseconds
        var promoted = false
        if start >= activeUntil &+ tailMicros {
            // Idle: the previous tail ran out in full; promote.
            settleTail(until: start)
            promoted = true
            promotions &+= 1
            start &+= p.promotionMicros
        } else if start >= activeUntil {
            // Inside a tail: pay the gap (beyond what the foreground owns), no promotion.
            settleTail(until: start)
        }
        let activeSeconds = latency.seconds + shape.upSeconds + shape.downSeconds
        let end = start &+ roundToInt64(activeSeconds * 1e6)   // < 2⁵² µs added to a time: no overflow
        // β is paid from `betaFrom` on: after the foreground's active period
        // when the transfer starts inside it.
        var betaFrom = start
        if foregroundFrom <= start && start < foregroundUntil { betaFrom = min(end, foregroundUntil) }
        let betaSeconds = betaFrom == start ? activeSeconds : Double(end &- betaFrom) * 1e-6
        let alpha = shape.alphaJoules
        // Promotion and active energy added to a local copy, stored at once,
        // and the charge computed from that copy (the same additions, so the
        // same values as adding to `energy` field by field).
        var after = energy
        if promoted { after.promotion += p.promotionJoules }
        after.active += p.betaWatts * betaSeconds + alpha
        energy = after
        lastActiveStart = start; lastActiveEnd = end; lastAlphaJoules = alpha; lastBetaFrom = betaFrom
        lastBetaWatts = p.betaWatts
        activeUntil = max(activeUntil, end)
        return (SimTime(microseconds: end), after - before)
    }

    /// The last background transfer was cut at `t` (expiration): refunds the
    /// active energy it did not spend (its α share for the time left, and β
    /// for the time left outside the foreground), both at the figures of the
    /// network it ran on, and starts the tail at `t`.
    public mutating func cutLastTransfer(at t: SimTime) -> EnergyLedger {
        let before = energy
        let cut = t.microseconds
        guard cut < lastActiveEnd else { return EnergyLedger() }
        let span = Double(lastActiveEnd - lastActiveStart)
        let unspent = span > 0 ? Double(lastActiveEnd - max(cut, lastActiveStart)) / span : 1
        let betaUnspent = Double(lastActiveEnd - max(cut, lastBetaFrom)) * 1e-6
        energy.active -= lastAlphaJoules * unspent + lastBetaWatts * max(0, betaUnspent)
        if activeUntil == lastActiveEnd { activeUntil = max(cut, lastActiveStart) }
        lastActiveEnd = cut
        return energy - before
    }

    /// Foreground network use from `start` to `end` (a session while online):
    /// the radio is up, and the tail after `end` is the foreground's.
    /// Inlined into the simulator's session start (once per session).
    @inline(__always)
    public mutating func foreground(from start: SimTime, to end: SimTime) {
        guard network.isOnline else { return }
        settleTail(until: start.microseconds)
        foregroundFrom = start.microseconds
        foregroundUntil = end.microseconds
        activeUntil = max(activeUntil, end.microseconds)
        freeTailUntil = max(freeTailUntil, end.microseconds + tailMicros)
    }
}

/// `Int64(x.rounded())` (to nearest, ties away from zero) without the libm
/// call (the build's baseline x86-64 has no rounding instruction, and this
/// runs twice per task start). Same value for
/// every x: below 2⁵² in magnitude the truncation and `x - trunc(x)` are
/// exact, so the tie test is exact; from 2⁵² on every double is already an
/// integer. (NaN or out of Int64 range traps in `Int64(_:)`.)
///
/// The ±1 is added without a branch: the fraction of a transfer's length is
/// as good as random, so a branch on it was mispredicted about every other
/// task start.
@inline(__always)
func roundToInt64(_ x: Double) -> Int64 {
    guard x.magnitude < 0x1p52 else { return Int64(x) }
    let t = Int64(x)
    let f = x - Double(t)
    // A Bool's byte is 0 or 1: read as an integer, the comparison becomes a
    // `setcc`, where `? 1 : 0` was still compiled to jumps.
    let up = Int64(unsafeBitCast(f >= 0.5, to: UInt8.self))
    let down = Int64(unsafeBitCast(f <= -0.5, to: UInt8.self))
    return t &+ up &- down
}
