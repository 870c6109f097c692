@_spi(BuiltInPolicies) import Device

// Concrete conformances for the wrappers over the standard bases.
//
// Why: the registry builds a wrapper around a base chosen at run time, so
// `CoalescingPolicy<B>` and `ExponentialBackoffPolicy<B>` reached the
// simulator through `any SchedulingPolicy` with a *generic* conformance: the
// witness it called was the unspecialised entry point (type metadata, value
// witnesses for every copy of the base). A non-generic struct holding the
// wrapper has a concrete conformance: its witnesses call the wrapper with a
// concrete `Base`, which the optimiser specialises inside this module
// (Docs/Performance.md has the measurement).

/// A policy that is `inner`, under a concrete type: every requirement,
/// static properties included, forwards to `inner`.
protocol ForwardingPolicy: SchedulingPolicy {
    associatedtype Inner: SchedulingPolicy
    var inner: Inner { get set }
}

extension ForwardingPolicy {
    static var needsFutureKnowledge: Bool { Inner.needsFutureKnowledge }
    static var observedKinds: ObservationKinds { Inner.observedKinds }
    static var decidesAtSessionStart: Bool { Inner.decidesAtSessionStart }

    mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        inner.observe(observation, context: context)
    }

    mutating func decide(context: PolicyContext) -> PolicyDecision {
        inner.decide(context: context)
    }
}

struct CoalescingOverFixedInterval: ForwardingPolicy { var inner: CoalescingPolicy<FixedIntervalPolicy> }
struct CoalescingOverUsagePredictor: ForwardingPolicy { var inner: CoalescingPolicy<UsagePredictorPolicy> }
struct CoalescingOverGreedy: ForwardingPolicy { var inner: CoalescingPolicy<GreedyPolicy> }
struct CoalescingOverOracle: ForwardingPolicy { var inner: CoalescingPolicy<OraclePolicy> }
struct CoalescingOverNever: ForwardingPolicy { var inner: CoalescingPolicy<NeverPolicy> }

/// `policy` under a concrete conformance if its base is a standard one.
func specialised<B>(_ policy: CoalescingPolicy<B>) -> any SchedulingPolicy {
    switch policy {
    case let p as CoalescingPolicy<FixedIntervalPolicy>: CoalescingOverFixedInterval(inner: p)
    case let p as CoalescingPolicy<UsagePredictorPolicy>: CoalescingOverUsagePredictor(inner: p)
    case let p as CoalescingPolicy<GreedyPolicy>: CoalescingOverGreedy(inner: p)
    case let p as CoalescingPolicy<OraclePolicy>: CoalescingOverOracle(inner: p)
    case let p as CoalescingPolicy<NeverPolicy>: CoalescingOverNever(inner: p)
    default: policy
    }
}

struct BackoffOverFixedInterval: ForwardingPolicy { var inner: ExponentialBackoffPolicy<FixedIntervalPolicy> }
struct BackoffOverUsagePredictor: ForwardingPolicy { var inner: ExponentialBackoffPolicy<UsagePredictorPolicy> }
struct BackoffOverGreedy: ForwardingPolicy { var inner: ExponentialBackoffPolicy<GreedyPolicy> }
struct BackoffOverOracle: ForwardingPolicy { var inner: ExponentialBackoffPolicy<OraclePolicy> }
struct BackoffOverNever: ForwardingPolicy { var inner: ExponentialBackoffPolicy<NeverPolicy> }
// (The registry builds their coalescing base as the forwarder above.)
struct BackoffOverCoalescingFixedInterval: ForwardingPolicy { var inner: ExponentialBackoffPolicy<CoalescingOverFixedInterval> }
struct BackoffOverCoalescingUsagePredictor: ForwardingPolicy { var inner: ExponentialBackoffPolicy<CoalescingOverUsagePredictor> }

/// `policy` under a concrete conformance if its base is a standard one.
func specialised<B>(_ policy: ExponentialBackoffPolicy<B>) -> any SchedulingPolicy {
    switch policy {
    case let p as ExponentialBackoffPolicy<FixedIntervalPolicy>: BackoffOverFixedInterval(inner: p)
    case let p as ExponentialBackoffPolicy<UsagePredictorPolicy>: BackoffOverUsagePredictor(inner: p)
    case let p as ExponentialBackoffPolicy<GreedyPolicy>: BackoffOverGreedy(inner: p)
    case let p as ExponentialBackoffPolicy<OraclePolicy>: BackoffOverOracle(inner: p)
    case let p as ExponentialBackoffPolicy<NeverPolicy>: BackoffOverNever(inner: p)
    case let p as ExponentialBackoffPolicy<CoalescingOverFixedInterval>: BackoffOverCoalescingFixedInterval(inner: p)
    case let p as ExponentialBackoffPolicy<CoalescingOverUsagePredictor>: BackoffOverCoalescingUsagePredictor(inner: p)
    default: policy
    }
}
