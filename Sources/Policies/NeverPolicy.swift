@_spi(BuiltInPolicies) import Device

/// `never` — the lower bound: no background work at all; content is only
/// refreshed by the foreground fetch at launch (rule 7).
///
/// Source: the baseline of the brief. Parameters: none.
public struct NeverPolicy: SchedulingPolicy {
    public init() {}
    public func decide(context: PolicyContext) -> PolicyDecision { .none }
}

@_spi(BuiltInPolicies)
extension NeverPolicy {
    /// Nothing: it never runs anything.
    public static var observedKinds: ObservationKinds { [] }
}
