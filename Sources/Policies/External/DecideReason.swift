import Device

/// The `reason` of a `decide` message: what made this a decision point,
/// read from the observations that arrived at the decision point's own
/// time (the seam's `decide` is not told why it is called; the simulator
/// tells the policy what happened first, then asks it). When several
/// apply, the first in this order: a session start also turns the screen
/// on (a `stateChanged`) and may expire a processing task (a
/// `taskFinished`), and is still a `sessionStart`.
/// Docs/ExternalPolicyProtocol.md defines each value for the process.
enum DecideReason: String {
    /// The device's first decision point (time 0, the initial state).
    case start
    /// A foreground session started (a `launch` at this time). Built-in
    /// policies that do not read launches are not asked here.
    case sessionStart
    /// A session ended (a `sessionEnded` at this time).
    case sessionEnd
    /// Network, charger, Low Power Mode or a battery threshold changed (a
    /// `stateChanged` at this time).
    case stateChanged
    /// A task ended and nothing else was queued (a `taskFinished` at this time).
    case taskFinished
    /// No observation at this time: a wake the process asked for, a
    /// battery threshold it is not told about, a background mechanism's
    /// event, or (under `coalescing`) a look-ahead.
    case wake

    /// The kinds of observation, as bits (which of them arrived at the
    /// decision point's time).
    struct Seen {
        var bits: UInt8 = 0
        mutating func insert(_ o: PolicyObservation) {
            switch o {
            case .launch: bits |= 1
            case .sessionEnded: bits |= 2
            case .stateChanged: bits |= 4
            case .taskFinished: bits |= 8
            default: break
            }
        }
    }

    init(first: Bool, seen: Seen) {
        if first { self = .start }
        else if seen.bits & 1 != 0 { self = .sessionStart }
        else if seen.bits & 2 != 0 { self = .sessionEnd }
        else if seen.bits & 4 != 0 { self = .stateChanged }
        else if seen.bits & 8 != 0 { self = .taskFinished }
        else { self = .wake }
    }
}
