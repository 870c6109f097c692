// Decision points through the external-policy protocol: the Python greedy
// and fixed-interval of Examples/python (a process, JSON lines over a
// socket), in each of their modes, against the same policy in Swift
// (observing everything and deciding at every decision point like the
// external one in decide mode, so both meet exactly the same decision
// points). One op = one decision point of the simulation (those of a
// policy asked at every one, session starts included): the plan-mode and
// standing-rule rows divide their CPU by the same count, although they are
// asked only for plans. One thread, one process; the default generator's
// world, one week.
import Device
import Experiments
import Foundation
import Policies
import SimCore
import Synchronization

/// Greedy as the external client computes it, counting its decision points.
private struct CountingGreedy: SchedulingPolicy {
    final class Counter: Sendable { let decisions = Atomic<Int>(0) }
    let counter: Counter

    mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {}

    func decide(context: PolicyContext) -> PolicyDecision {
        counter.decisions.wrappingAdd(1, ordering: .relaxed)
        let next = context.pending.lazy.map(\.earliestBegin).filter { $0 > context.now }.min()
        return PolicyDecision(runAllEligible: true, wakeAt: next)
    }
}

/// The built-in fixed-interval (1 h, flex 5 min) asked at every decision
/// point, as `fixed_interval.py --decide` is, counting them: at a session
/// start (which the built-in is not asked at) it keeps its last wake, unless
/// that wake is now (Docs/ExternalPolicyProtocol.md, "Session starts").
private struct CountingFixedInterval: SchedulingPolicy {
    let counter: CountingGreedy.Counter
    var base = FixedIntervalPolicy()
    var launchedAt: SimTime?
    var lastWake: SimTime?
    var first = true

    mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        if case .launch = observation { launchedAt = context.now }
        base.observe(observation, context: context)
    }

    mutating func decide(context: PolicyContext) -> PolicyDecision {
        counter.decisions.wrappingAdd(1, ordering: .relaxed)
        defer { first = false; launchedAt = nil }
        if !first, launchedAt == context.now, lastWake != context.now { return PolicyDecision(wakeAt: lastWake) }
        let d = base.decide(context: context)
        lastWake = d.wakeAt
        return d
    }
}

/// CPU seconds of this process and of its reaped children (the decision
/// processes are reaped when a run shuts them down): the cost of a
/// decision on both sides of the socket, whatever else the machine runs.
private func cpuSeconds() -> Double {
    var me = rusage(), children = rusage()
    // (RUSAGE_CHILDREN is -1: its raw value converted bit for bit.)
    getrusage(Int32(bitPattern: UInt32(truncatingIfNeeded: RUSAGE_SELF.rawValue)), &me)
    getrusage(Int32(bitPattern: UInt32(truncatingIfNeeded: RUSAGE_CHILDREN.rawValue)), &children)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(me.ru_utime) + s(me.ru_stime) + s(children.ru_utime) + s(children.ru_stime)
}

extension BenchmarkFamily {
    static let externalPolicy = BenchmarkFamily(
        name: "external-policy",
        summary: "one decision point, CPU time of bgbench and the decision process: Python greedy and fixed-interval over the protocol (asked at every decision point with the pending list whole or as changes, in plan mode, or with standing rules) vs. the same policy in Swift asked at every decision point (1 thread)",
        candidateTitle: "protocol ns/dec", baselineTitle: "Swift ns/dec"
    ) {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/python")
        let greedy = examples.appendingPathComponent("greedy.py").path
        let fixed = examples.appendingPathComponent("fixed_interval.py").path
        let counter = CountingGreedy.Counter()
        let registry = PolicyRegistry.standard.adding(PolicyDescriptor(
            name: "counting-greedy", summary: "greedy deciding at every decision point (benchmark)") { _, _ in
            CountingGreedy(counter: counter)
        }).adding(PolicyDescriptor(
            name: "counting-fixed-interval", summary: "fixed-interval deciding at every decision point (benchmark)") { _, _ in
            CountingFixedInterval(counter: counter)
        })
        return selectedSizes([20]).flatMap { users in
            func spec(_ policy: String) -> ExperimentSpec {
                try! ExperimentSpec.parse(#"{"name": "b", "seed": 7, "population": {"users": \#(users), "days": 7}, "policies": [\#(policy)]}"#,
                                          registry: registry)
            }
            func cpu(_ s: ExperimentSpec) -> Double {
                let runner = try! Runner(spec: s)
                let before = cpuSeconds()
                precondition((try? runner.run(threads: 1)) != nil, "\(runner.policyFailure.map { "\($0)" } ?? "stopped")")
                return cpuSeconds() - before
            }
            // greedy.py declares a standing rule in its hello (its
            // default); --plans: plan mode without it; --decide: asked at
            // every decision point with the pending list as changes (delta
            // mode), --whole-pending with the whole list. fixed_interval.py
            // (1 h, flex 5 min): standing rules given in its plans replies
            // (its default), --plans, --decide.
            let modes = [("external-greedy-whole", "counting-greedy", "greedy.py, whole pending list", [greedy, "--whole-pending"]),
                         ("external-greedy-delta", "counting-greedy", "greedy.py, pending as changes", [greedy, "--decide"]),
                         ("external-greedy-plans", "counting-greedy", "greedy.py, plan mode", [greedy, "--plans"]),
                         ("external-greedy-rules", "counting-greedy", "greedy.py, standing rule", [greedy]),
                         ("external-fixed-delta", "counting-fixed-interval", "fixed_interval.py, pending as changes", [fixed, "--decide"]),
                         ("external-fixed-plans", "counting-fixed-interval", "fixed_interval.py, plan mode", [fixed, "--plans"]),
                         ("external-fixed-rules", "counting-fixed-interval", "fixed_interval.py, standing rules", [fixed])]
            return modes.map { name, baseline, mode, args in
                let swift = spec(#"{"name": "\#(baseline)"}"#)
                let command = ["python3"] + args
                let argv = command.map { "\"\($0)\"" }.joined(separator: ", ")
                let external = spec(#"{"name": "external", "params": {"command": [\#(argv)]}}"#)
                var bestSwift = Double.infinity, bestExternal = Double.infinity
                var decisions = 0
                for _ in 0..<2 {
                    counter.decisions.store(0, ordering: .relaxed)
                    bestSwift = min(bestSwift, cpu(swift))
                    decisions = counter.decisions.load(ordering: .relaxed)
                    bestExternal = min(bestExternal, cpu(external))
                }
                let note = String(format: "%d users × 7 days, %d decision points, CPU of both processes: Swift %.0f decisions/s, protocol (python3 %@) %.0f decisions/s = %.1f µs per decision point",
                                  users, decisions, Double(decisions) / bestSwift, mode, Double(decisions) / bestExternal,
                                  bestExternal * 1e6 / Double(decisions))
                return Measurement(benchmark: name, n: users, operations: decisions,
                                   nsPerOp: bestExternal * 1e9 / Double(decisions),
                                   baselineNsPerOp: bestSwift * 1e9 / Double(decisions), bytesPerEvent: nil, note: note)
            }
        }
    }
}
