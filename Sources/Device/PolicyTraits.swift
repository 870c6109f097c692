import SimCore

/// What a policy declares about itself, as one value: what the runner
/// must hand it beyond what it observes, and which work the simulator may
/// skip for it (``SchedulingPolicy/traits``).
///
/// One value so that a wrapper forwards its base's traits whole
/// (`Base.traits`, changed only where the wrapper itself differs): a
/// wrapper that restated them one by one once forgot `needsModelKnowledge`,
/// and its base silently ran without its model.
///
/// The defaults are right for every policy: everything delivered, a
/// `decide` at every decision point, no future and no model. The knowledge
/// flags are for bounds and references only; the work-saving ones are
/// claims about the policy's behaviour that `PolicyConformance.check`
/// verifies by running every check world twice, with the claims honoured
/// and with everything delivered.
public struct PolicyTraits: Sendable, Hashable {
    /// The policy sees the future (the oracles): the simulator fills
    /// ``PolicyContext/future``. A bound, not a realisable policy.
    public var needsFutureKnowledge: Bool
    /// The policy knows the generator's model of the user (the model-aware
    /// bound): the runner fills ``PolicyContext/model`` through
    /// ``DeviceTrace/model``. A reference, not a realisable policy.
    public var needsModelKnowledge: Bool
    /// The observation kinds `observe` reads; the simulator does not
    /// deliver the others (nor build them). `.all` by default.
    public var observedKinds: ObservationKinds
    /// A decision point at the start of every session although the policy
    /// does not observe launches (coalescing: the radio is up then).
    /// Policies that observe `.launch` always get one.
    public var decidesAtSessionStart: Bool

    @inlinable
    public init(needsFutureKnowledge: Bool = false, needsModelKnowledge: Bool = false,
                observedKinds: ObservationKinds = .all, decidesAtSessionStart: Bool = false) {
        self.needsFutureKnowledge = needsFutureKnowledge
        self.needsModelKnowledge = needsModelKnowledge
        self.observedKinds = observedKinds
        self.decidesAtSessionStart = decidesAtSessionStart
    }

    /// Whether the simulator consults the policy when a session starts.
    public var consultedAtSessionStart: Bool {
        decidesAtSessionStart || observedKinds.contains(.launch)
    }

    /// These traits, also observing `kinds` (a wrapper that reads them itself).
    public func observing(_ kinds: ObservationKinds) -> PolicyTraits {
        var t = self
        t.observedKinds.formUnion(kinds)
        return t
    }

    /// These traits, with a decision point at every session start.
    public func decidingAtSessionStart() -> PolicyTraits {
        var t = self
        t.decidesAtSessionStart = true
        return t
    }

    /// For messages: the traits that differ from the default.
    public var summary: String {
        var parts: [String] = []
        if needsFutureKnowledge { parts.append("needsFutureKnowledge") }
        if needsModelKnowledge { parts.append("needsModelKnowledge") }
        if observedKinds != .all { parts.append("observedKinds \(observedKinds.names)") }
        if decidesAtSessionStart { parts.append("decidesAtSessionStart") }
        return parts.isEmpty ? "default" : parts.joined(separator: ", ")
    }
}

/// A set of ``PolicyObservation`` kinds (``PolicyTraits/observedKinds``).
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
