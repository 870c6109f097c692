import SimCore

/// A concrete box around an existential policy, so that the simulator run
/// from ``simulateDevice(trace:configuration:policy:randomKey:)`` is
/// `DeviceSimulator<AnyPolicy, …>`: concrete types the optimiser specialises
/// inside this module.
///
/// Why: the policies live in another module, so opening the existential and
/// calling the generic simulator with the concrete policy type would run
/// the *unspecialised* simulator (every field access through type
/// metadata, every struct copy through value witnesses).
/// With the box, only the two policy calls per decision point are dynamic
/// (one witness-table call each); the simulator itself is concrete code.
struct AnyPolicy: SchedulingPolicy {
    var base: any SchedulingPolicy
    /// `base.instanceTraits` (its type's traits for every policy but one
    /// that learns them when built), read once.
    let baseTraits: PolicyTraits
    /// `type(of: base).planScope`, read once (non-nil: a ``RequestPlanningPolicy``).
    let plans: PlanScope?

    init(_ base: any SchedulingPolicy) {
        self.base = base
        self.baseTraits = base.instanceTraits
        self.plans = type(of: base).planScope
    }

    mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        base.observe(observation, context: context)
    }

    mutating func decide(context: PolicyContext) -> PolicyDecision {
        base.decide(context: context)
    }

    func requestPlan(for request: TaskRequest) -> RequestPlan {
        base.requestPlan(for: request)
    }

    var instanceTraits: PolicyTraits { baseTraits }
}
