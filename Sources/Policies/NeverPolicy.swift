import Device

/// `never` — the lower bound: no background work at all; content is only
/// refreshed by the foreground fetch at launch (rule 7).
///
/// Source: the baseline every comparison is paired against. Parameters: none.
public struct NeverPolicy: SchedulingPolicy {
    /// It reads no observation (the simulator then builds none for it).
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: []) }

    public init() {}
    public func decide(context: PolicyContext) -> PolicyDecision { .none }
}
