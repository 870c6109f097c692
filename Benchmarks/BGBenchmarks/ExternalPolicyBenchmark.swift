// Decision points through the external-policy protocol: the Python greedy
// of Examples/python (a process, JSON lines over a socket) against the same
// policy built in (Swift, observing everything and deciding at every
// decision point like the external one, so both meet exactly the same
// decision points). One op = one decision point. One thread, one process;
// the world is the default generator's, one week.
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

extension BenchmarkFamily {
    static let externalPolicy = BenchmarkFamily(
        name: "external-policy",
        summary: "one decision point: Python greedy over the protocol vs. the same greedy in Swift (1 thread)",
        candidateTitle: "protocol ns/dec", baselineTitle: "Swift ns/dec"
    ) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/python/greedy.py").path
        let counter = CountingGreedy.Counter()
        let registry = PolicyRegistry.standard.adding(PolicyDescriptor(
            name: "counting-greedy", summary: "greedy deciding at every decision point (benchmark)") { _, _ in
            CountingGreedy(counter: counter)
        })
        return selectedSizes([20]).map { users in
            func spec(_ policy: String) -> ExperimentSpec {
                try! ExperimentSpec.parse(#"{"name": "b", "seed": 7, "population": {"users": \#(users), "days": 7}, "policies": [\#(policy)]}"#,
                                          registry: registry)
            }
            func wall(_ s: ExperimentSpec) -> Double {
                let runner = try! Runner(spec: s)
                let t = nanoseconds { precondition((try? runner.run(threads: 1)) != nil, "\(runner.policyFailure.map { "\($0)" } ?? "stopped")") }
                return t / 1e9
            }
            let swift = spec(#"{"name": "counting-greedy"}"#)
            let external = spec(#"{"name": "external", "params": {"command": ["python3", "\#(script)"]}}"#)
            var bestSwift = Double.infinity, bestExternal = Double.infinity
            var decisions = 0
            for _ in 0..<2 {
                counter.decisions.store(0, ordering: .relaxed)
                bestSwift = min(bestSwift, wall(swift))
                decisions = counter.decisions.load(ordering: .relaxed)
                bestExternal = min(bestExternal, wall(external))
            }
            let note = String(format: "%d users × 7 days, %d decision points: Swift %.0f decisions/s, protocol (python3 greedy.py) %.0f decisions/s",
                              users, decisions, Double(decisions) / bestSwift, Double(decisions) / bestExternal)
            return Measurement(benchmark: "external-greedy", n: users, operations: decisions,
                               nsPerOp: bestExternal * 1e9 / Double(decisions),
                               baselineNsPerOp: bestSwift * 1e9 / Double(decisions), bytesPerEvent: nil, note: note)
        }
    }
}
