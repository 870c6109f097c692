import SimCore

// The simulator's interface to the built-in policies: what they declare so
// that the simulator can skip work, in the SPI `BuiltInPolicies` of the
// Device module (`@_spi(BuiltInPolicies) import Device`). A policy author
// does not see it and needs none of it: the defaults (every observation
// delivered, `decide` at every decision point) are right for every policy,
// only slower for some. Each declaration is a claim about the policy's
// behaviour that `PolicyConformance.check` verifies by running every check
// world twice, with the claims honoured and with everything delivered.
//
// - `observedKinds`: the observation kinds `observe` reads; the others are
//   not delivered (nor their context built).
// - `decidesAtSessionStart`: a decision point at every session start
//   although the policy does not observe launches (coalescing: the radio
//   is up then). Policies that observe `.launch` always get one.
// - `RequestPlanningPolicy` (its own file): a plan per request, which the
//   simulator keeps instead of calling `decide` at every decision point.

/// A set of ``PolicyObservation`` kinds (``SchedulingPolicy/observedKinds``).
public struct ObservationKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let launch = ObservationKinds(rawValue: 1 << 0)
    public static let sessionEnded = ObservationKinds(rawValue: 1 << 1)
    public static let submitted = ObservationKinds(rawValue: 1 << 2)
    public static let taskFinished = ObservationKinds(rawValue: 1 << 3)
    public static let stateChanged = ObservationKinds(rawValue: 1 << 4)
    public static let refused = ObservationKinds(rawValue: 1 << 5)
    public static let forceQuit = ObservationKinds(rawValue: 1 << 6)
    public static let cancelled = ObservationKinds(rawValue: 1 << 7)
    /// Every kind, including kinds added later.
    public static let all = ObservationKinds(rawValue: .max)
}

extension PolicyObservation {
    /// The kind of this observation.
    @inlinable
    public var kind: ObservationKinds {
        switch self {
        case .launch: .launch
        case .sessionEnded: .sessionEnded
        case .submitted: .submitted
        case .taskFinished: .taskFinished
        case .stateChanged: .stateChanged
        case .refused: .refused
        case .forceQuit: .forceQuit
        case .cancelled: .cancelled
        }
    }
}

extension ObservationKinds {
    /// The kinds by name, for messages: `all`, or e.g. `[launch, taskFinished]`.
    public var names: String {
        if self == .all { return "all" }
        let named: [(ObservationKinds, String)] = [(.launch, "launch"), (.sessionEnded, "sessionEnded"),
                                                   (.submitted, "submitted"), (.taskFinished, "taskFinished"),
                                                   (.stateChanged, "stateChanged"), (.refused, "refused"),
                                                   (.forceQuit, "forceQuit"), (.cancelled, "cancelled")]
        return "[" + named.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
