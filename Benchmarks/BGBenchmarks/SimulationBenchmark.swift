// The whole simulation: the default world (default generator, 26-app catalogue, one
// week) under every configuration of the default suite, through the same
// Runner that `bgbench run` uses. The candidate is the run on all cores, the
// baseline the same run on one thread, so "speed-up" is the parallel scaling.
// One op = one step of the device's main loop: a session start or end, a
// network or charging change, a task's end, a policy wake or a battery
// threshold. What happens at the same instant (the next task starting, the
// decision, the resubmission) is part of that step, and content updates are
// read by cursor, never events (Docs/Performance.md, "What one event is").
// Wall time, so a shared machine's load moves it: read the scaling, and
// take per-policy costs from `policy-cost` (CPU time, against greedy).
import Experiments
import Policies
import Foundation
import Traces

extension BenchmarkFamily {
    static let simulation = BenchmarkFamily(
        name: "simulation",
        summary: "one simulated event, default suite's configurations on the default world (1 week)",
        candidateTitle: "N thr ns/event", baselineTitle: "1 thr ns/event"
    ) {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        return selectedSizes([200]).map { users in
            let spec = defaultSuite(users: users, days: 7)
            var best1 = (wall: Double.infinity, events: 0), bestN = (wall: Double.infinity, events: 0)
            for _ in 0..<3 {
                let one = runOnce(spec, threads: 1)
                if one.wall < best1.wall { best1 = one }
                let all = runOnce(spec, threads: threads)
                if all.wall < bestN.wall { bestN = all }
            }
            let userDays = Double(users * 7 * spec.configurations.count)
            let note = String(format: "%d configurations × %d users × 7 days; 1 thread: %.2f M events/s, %.0f user-days/s; %d threads: %.2f M events/s, %.0f user-days/s; trace generation %.0f µs per user-week (included above)",
                              spec.configurations.count, users,
                              Double(best1.events) / best1.wall / 1e6, userDays / best1.wall,
                              threads, Double(bestN.events) / bestN.wall / 1e6, userDays / bestN.wall,
                              generationMicrosecondsPerUserWeek(users: 2_000))
            return Measurement(benchmark: "simulation-\(threads)-threads", n: users, operations: bestN.events,
                               nsPerOp: bestN.wall * 1e9 / Double(bestN.events),
                               baselineNsPerOp: best1.wall * 1e9 / Double(best1.events),
                               bytesPerEvent: nil, note: note)
        }
    }
}

private func runOnce(_ spec: ExperimentSpec, threads: Int) -> (wall: Double, events: Int) {
    do {
        let runner = try Runner(spec: spec)
        var output: Runner.Output?
        let ns = nanoseconds { output = try? runner.run(threads: threads) }
        guard let output else { fatalError("simulation benchmark interrupted") }
        consume(UInt64(output.simulatedEvents))
        return (ns / 1e9, output.simulatedEvents)
    } catch {
        fatalError("\(error)")
    }
}

/// One thread generating the default world's users, best of 3.
private func generationMicrosecondsPerUserWeek(users: Int) -> Double {
    let generator = PopulationGenerator(parameters: .default, seed: 1, days: 7)
    var best = Double.infinity
    for _ in 0..<3 {
        var sessions = 0
        best = min(best, nanoseconds { for u in 0..<users { sessions &+= generator.user(u).sessions.count } })
        consume(UInt64(sessions))
    }
    return best / 1e3 / Double(users)
}
