@_spi(BuiltInPolicies) import Device
import SimCore

/// `external` — the decisions come from a process of the researcher's own,
/// in any language, speaking newline-delimited JSON on its stdin/stdout:
/// the protocol of Docs/ExternalPolicyProtocol.md (versioned; a reference
/// client in Examples/python/bgbench_policy.py).
///
/// It forwards every observation and every decision point (it keeps the
/// seam's default of every observation kind); the process sees what a
/// policy in Swift sees.
/// Parameters: `command` (argv, required), `timeout` (longest wait for any
/// one reply, default 10s); any other parameter is passed through to the
/// process in every `start` message.
public struct ExternalPolicy: SchedulingPolicy {
    let host: ExternalDecisionHost
    /// This copy's device conversation, opened at the first call: the
    /// registry's prototype never has one, each device's copy gets its own.
    private var session: ExternalSession?

    init(host: ExternalDecisionHost) { self.host = host }

    /// What the decision process declared (its `hello`): in plan mode only
    /// the observation kinds it reads are delivered, and it is asked at a
    /// session start only if it reads launches, as a built-in planning
    /// policy. Reading it starts the first process if none has run.
    public var instanceTraits: PolicyTraits { host.declared()?.traits ?? Self.traits }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        open(context).observe(observation, context: context)
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        open(context).decide(context: context)
    }

    private mutating func open(_ context: PolicyContext) -> ExternalSession {
        if let s = session { return s }
        let s = ExternalSession(host: host, appCount: context.appCount, now: context.now,
                                   platform: context.android == nil ? nil : .android)
        session = s
        return s
    }

    /// The registry entry of `external`.
    public static let registration = PolicyDescriptor(
            name: "external",
            summary: "decisions from a process of your own (any language) over JSON lines: Docs/ExternalPolicyProtocol.md",
            parameters: [
                PolicyParameter("command", .stringList, required: true,
                                "argv of the decision process, e.g. [\"python3\", \"Examples/python/greedy.py\"]"),
                PolicyParameter("timeout", .duration, default: .string("10s"),
                                "longest wait for any one reply before the run stops with an error"),
            ],
            acceptsOtherParameters: true) { p, _ in
        let host = ExternalDecisionHost(command: p.strings("command"), timeout: .microseconds(p.duration("timeout").microseconds),
                                        params: p.others)
        p.own(host)
        return ExternalPolicy(host: host)
    }
}
