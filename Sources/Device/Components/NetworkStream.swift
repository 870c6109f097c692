import SimCore

/// The network in reach and the cellular/Wi-Fi radio's energy: a cursor
/// over the trace's network segments (tiled so that they cover the whole
/// run, offline in the gaps) and the radio's state machine.
///
/// Decides: when the network changes next (`nextChange`; `.farFuture`
/// after the last segment) and to what; through `radio` (``RadioModel``),
/// the promotion, active and tail energy of transfers and whether the radio
/// is still up (the policy's `radioUpUntil`).
///
/// Raises: the loop's network change event. Its handler
/// (`DeviceSimulator.applyNetwork`, DeviceSimulator+State.swift) updates
/// the device state, fails a transfer that loses its connection, logs the
/// settled radio tails and tells the policy.
///
/// Owns: the segments, the cursor and the radio. The network in use is
/// device state (`DeviceState.network`), written by the handler.
struct NetworkStream {
    let segments: [DeviceTrace.Network]
    /// The segment in force.
    private(set) var index = 0
    /// The start of the next segment (`.farFuture`: none).
    private(set) var nextChange: SimTime = .farFuture
    /// The radio's state machine and the energy it has charged.
    var radio: RadioModel

    init(_ intervals: [DeviceTrace.Network], horizon: SimTime, energy: EnergyParameters) {
        segments = Self.tile(intervals, horizon: horizon)
        radio = RadioModel(parameters: energy)
        cursorMoved()
    }

    /// The network at time 0.
    var initial: NetworkType { segments.first?.network ?? .offline }

    /// The next segment starts now; returns its network.
    @inline(__always)
    mutating func advance() -> NetworkType {
        index += 1
        cursorMoved()
        return segments[index].network
    }

    @inline(__always)
    private mutating func cursorMoved() {
        nextChange = index + 1 < segments.count ? segments[index + 1].start : .farFuture
    }

    /// Fills gaps in the network intervals with offline so the segments tile [0, horizon).
    static func tile(_ intervals: [DeviceTrace.Network], horizon: SimTime) -> [DeviceTrace.Network] {
        var out: [DeviceTrace.Network] = []
        out.reserveCapacity(intervals.count + 2)
        var t = SimTime.zero
        for iv in intervals where iv.end > t {
            if iv.start > t { out.append(.init(start: t, end: iv.start, kind: .offline)) }
            out.append(.init(start: max(t, iv.start), end: iv.end, kind: iv.kind))
            t = iv.end
        }
        if t < horizon { out.append(.init(start: t, end: horizon, kind: .offline)) }
        return out
    }
}
