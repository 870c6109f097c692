// The whole simulation: the default world (default generator, 26-app catalogue, one
// week) under every configuration of the default suite, through the same
// Runner that `bgbench run` uses. The candidate is the run on all cores, the
// baseline the same run on one thread, so "speed-up" is the parallel scaling.
// One op = one step of the device's main loop: a session start or end, a
// network or charging change, a task's end, a policy wake or a battery
// threshold. What happens at the same instant (the next task starting, the
// decision, the resubmission) is part of that step, and content updates are
// read by cursor, never events (Docs/Performance.md, "How throughput is
// measured").
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
            let spec = simulationSpec(users: users)
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
            // Per configuration, one thread, best of 2: which policies cost most
            // per event. Run alone, a configuration generates the traces and
            // draws the latencies (`TaskDrawMemo`) that the suite shares
            // between its configurations, so these rates are lower bounds.
            var perPolicy: [String] = []
            for c in spec.configurations.indices {
                var one = spec
                one.configurations = [spec.configurations[c]]
                one.baseline = 0
                let best = (0..<2).map { _ in runOnce(one, threads: 1) }.min { $0.wall < $1.wall }!
                perPolicy.append(String(format: "  %@: %.2f M events/s, %.0f events per user-week",
                                        spec.configurations[c].label,
                                        Double(best.events) / best.wall / 1e6, Double(best.events) / Double(users)))
            }
            return Measurement(benchmark: "simulation-\(threads)-threads", n: users, operations: bestN.events,
                               nsPerOp: bestN.wall * 1e9 / Double(bestN.events),
                               baselineNsPerOp: best1.wall * 1e9 / Double(best1.events),
                               bytesPerEvent: nil,
                               note: ([note, "1 thread, each configuration alone (its own trace generation and latency draws, which the suite shares, included):"] + perPolicy)
                                   .joined(separator: "\n         "))
        }
    }
}

/// The default suite's policies on a one-week population of `users`.
private func simulationSpec(users: Int) -> ExperimentSpec {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("suites/default.json")
    do {
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"users\": 2000, \"days\": 14", with: "\"users\": \(users), \"days\": 7")
        let spec = try ExperimentSpec.parse(text, registry: .standard)
        guard case .generated(users, 7, _) = spec.world else { fatalError("default.json changed shape: update SimulationBenchmark") }
        return spec
    } catch {
        fatalError("cannot load \(url.path): \(error)")
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
