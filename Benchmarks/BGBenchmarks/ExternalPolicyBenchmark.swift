// Decision points through the external-policy protocol: the Python greedy
// of Examples/python (a process, JSON lines over a socket) against the same
// policy built in (Swift, observing everything and deciding at every
// decision point like the external one in decide mode, so both meet exactly
// the same decision points). One op = one decision point of the simulation
// (those of a policy asked at every one, session starts included): the
// plan-mode row divides its CPU by the same count, although it is asked
// only for plans. One thread, one process; the default generator's world,
// one week.
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
        summary: "one decision point, CPU time of bgbench and the decision process: Python greedy over the protocol (asked at every decision point with the pending list whole or as changes, or in plan mode) vs. the same greedy in Swift (1 thread)",
        candidateTitle: "protocol ns/dec", baselineTitle: "Swift ns/dec"
    ) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/python/greedy.py").path
        let counter = CountingGreedy.Counter()
        let registry = PolicyRegistry.standard.adding(PolicyDescriptor(
            name: "counting-greedy", summary: "greedy deciding at every decision point (benchmark)") { _, _ in
            CountingGreedy(counter: counter)
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
            let swift = spec(#"{"name": "counting-greedy"}"#)
            // greedy.py declares plans (plan mode); with --decide it is asked
            // at every decision point with the pending list as changes
            // (delta mode), with --whole-pending with the whole list.
            let modes = [("external-greedy-whole", "whole pending list", ["python3", script, "--whole-pending"]),
                         ("external-greedy-delta", "pending as changes", ["python3", script, "--decide"]),
                         ("external-greedy-plans", "plan mode", ["python3", script])]
            return modes.map { name, mode, command in
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
                let note = String(format: "%d users × 7 days, %d decision points, CPU of both processes: Swift %.0f decisions/s, protocol (python3 greedy.py, %@) %.0f decisions/s = %.1f µs per decision",
                                  users, decisions, Double(decisions) / bestSwift, mode, Double(decisions) / bestExternal,
                                  bestExternal * 1e6 / Double(decisions))
                return Measurement(benchmark: name, n: users, operations: decisions,
                                   nsPerOp: bestExternal * 1e9 / Double(decisions),
                                   baselineNsPerOp: bestSwift * 1e9 / Double(decisions), bytesPerEvent: nil, note: note)
            }
        }
    }
}
