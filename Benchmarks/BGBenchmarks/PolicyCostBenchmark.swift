// What each policy family costs per simulated event, against greedy in the
// same run: every configuration of the default suite simulated alone on one
// thread, on the default world cut to one week, in the process's CPU time
// (user + system, `getrusage`), which a busy neighbour slows far less than
// wall time. Greedy is re-measured beside each configuration, so both see
// the same machine. One op = one simulated event (Docs/Performance.md,
// "What one event is"); the ratio to greedy is the figure to read.
//
// Run alone, a configuration generates its users' traces (which a suite
// does once per user for all its configurations): the CPU of generating the
// same users, measured here, is taken off every run, so a policy with few
// events (never, the oracles) is not charged for its world. The same holds
// for the users' models (`PopulationGenerator.modelKnowledge`), which the
// runner generates once per user for every configuration that knows the
// model (model-bound): the CPU of generating them is taken off those
// configurations' runs, as it is part of the world, not of the policy.
// The per-user set-up of the simulator and the latency draws stay in.
import Device
import Experiments
import Foundation
import Policies
import Traces

extension BenchmarkFamily {
    static let policyCost = BenchmarkFamily(
        name: "policy-cost",
        summary: "one simulated event of a policy family (default suite's configurations alone, 1 thread, default world, 1 week), CPU time",
        candidateTitle: "CPU ns/event", baselineTitle: "greedy ns/event"
    ) {
        selectedSizes([40]).flatMap { users -> [Measurement] in
            let suite = defaultSuite(users: users, days: 7)
            var greedySpec = suite
            guard let g = suite.configurations.firstIndex(where: { $0.label == "greedy" }) else {
                fatalError("the default suite has no greedy configuration: update PolicyCostBenchmark")
            }
            greedySpec.configurations = [suite.configurations[g]]
            greedySpec.baseline = 0
            let generation = generationCPU(suite)
            func perEvent(_ r: (cpu: Double, events: Int)) -> Double { (r.cpu - generation.traces) / Double(max(1, r.events)) }
            // Per configuration: best of 2 (CPU ns per event), greedy beside it.
            var rows: [(label: String, family: String, cpu: Double, events: Int, greedy: Double, knowsModel: Bool)] = []
            for c in suite.configurations.indices {
                let knowsModel = suite.knowsModel(suite.configurations[c])
                var one = suite
                one.configurations = [suite.configurations[c]]
                one.baseline = 0
                var best = (cpu: Double.infinity, events: 0), greedyBest = Double.infinity
                for _ in 0..<2 {
                    greedyBest = min(greedyBest, perEvent(cpuRun(greedySpec)))
                    let r = cpuRun(one)
                    if r.cpu < best.cpu { best = r }
                }
                best.cpu -= generation.traces + (knowsModel ? generation.models : 0)
                let family = suite.configurations[c].family
                rows.append((suite.configurations[c].label, family, best.cpu, best.events, greedyBest, knowsModel))
            }
            var families: [String] = []
            for r in rows where !families.contains(r.family) { families.append(r.family) }
            return families.map { family in
                let members = rows.filter { $0.family == family }
                let cpu = members.reduce(0) { $0 + $1.cpu }, events = members.reduce(0) { $0 + $1.events }
                // Greedy's cost per event, averaged over the runs beside this family's.
                let greedy = members.reduce(0) { $0 + $1.greedy } / Double(members.count)
                let nsPerEvent = cpu * 1e9 / Double(max(1, events))
                let generated = members[0].knowsModel
                    ? String(format: "generating the users, %.0f ms, and their models, %.0f ms, taken off",
                             generation.traces * 1e3, generation.models * 1e3)
                    : String(format: "generating the users, %.0f ms, taken off", generation.traces * 1e3)
                var lines = [String(format: "%@: %.1f × greedy (%@ configuration%@ × %d users × 7 days; %@)",
                                    family, nsPerEvent / (greedy * 1e9),
                                    "\(members.count)", members.count == 1 ? "" : "s", users, generated)]
                if members.count > 1 || members[0].label != family {
                    lines += members.map { m in
                        String(format: "  %@: %.0f ns/event, %.1f × greedy, %.0f events per user-week",
                               m.label, m.cpu * 1e9 / Double(m.events), m.cpu / Double(m.events) / m.greedy,
                               Double(m.events) / Double(users))
                    }
                }
                return Measurement(benchmark: "policy-cost-\(family)", n: users, operations: events,
                                   nsPerOp: nsPerEvent, baselineNsPerOp: greedy * 1e9, bytesPerEvent: nil,
                                   note: lines.joined(separator: "\n         "))
            }
        }
    }
}

extension ExperimentConfiguration {
    /// The policy family a configuration belongs to: its policy's name (a
    /// wrapper's for a wrapped one), else its label.
    var family: String {
        policy["name"].flatMap { v -> String? in
            if case let .string(s) = v { return s } else { return nil }
        } ?? label
    }
}

/// The default suite (`Benchmarks/suites/default.json`) on a generated
/// population of `users` × `days`.
func defaultSuite(users: Int, days: Int) -> ExperimentSpec {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("suites/default.json")
    do {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let range = text.range(of: #""population": \{ "users": \d+, "days": \d+ \}"#, options: .regularExpression) else {
            fatalError("\(url.path) has no \"population\": { \"users\": U, \"days\": D }: update defaultSuite")
        }
        let spec = try ExperimentSpec.parse(
            text.replacingCharacters(in: range, with: #""population": { "users": \#(users), "days": \#(days) }"#),
            registry: .standard)
        guard case .generated(users, days, _) = spec.world else { fatalError("default.json changed shape: update defaultSuite") }
        return spec
    } catch {
        fatalError("cannot load \(url.path): \(error)")
    }
}

/// CPU seconds of generating the users of `spec`'s generated world as the
/// runner does: their traces (the trace, then the device's view of it) and
/// their models (`modelKnowledge`, a generator per user), each best of 3.
private func generationCPU(_ spec: ExperimentSpec) -> (traces: Double, models: Double) {
    guard case .generated = spec.world else { return (0, 0) }
    func bestOf3(_ generate: () -> UInt64) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let before = ProcessUsage.now().cpuSeconds
            consume(generate())
            best = min(best, ProcessUsage.now().cpuSeconds - before)
        }
        return best
    }
    let traces = bestOf3 { generateWorld(of: spec, models: false) }
    let models = bestOf3 { generateWorld(of: spec, models: true) }
    return (traces, models)
}

/// Generates the users of `spec`'s generated world as the runner does,
/// and nothing else: their traces (the trace, then the device's view of
/// it), or with `models` their models (`modelKnowledge`, a generator per
/// user). Returns a checksum so the work cannot be dropped.
func generateWorld(of spec: ExperimentSpec, models: Bool) -> UInt64 {
    guard case let .generated(users, days, parameters) = spec.world else { return 0 }
    var checksum = 0
    if models {
        for u in 0..<users {
            checksum &+= PopulationGenerator(parameters: parameters, seed: spec.seed, days: days)
                .modelKnowledge(user: u).launchesPerHour.count
        }
    } else {
        let generator = PopulationGenerator(parameters: parameters, seed: spec.seed, days: days)
        for u in 0..<users { checksum &+= DeviceTrace(generator.user(u), apps: parameters.apps).sessions.count }
    }
    return UInt64(checksum)
}

/// One run of `spec` on one thread: the process's CPU seconds it took and
/// the events it simulated.
private func cpuRun(_ spec: ExperimentSpec) -> (cpu: Double, events: Int) {
    do {
        let runner = try Runner(spec: spec)
        let before = ProcessUsage.now().cpuSeconds
        guard let output = try runner.run(threads: 1) else { fatalError("policy-cost benchmark interrupted") }
        let cpu = ProcessUsage.now().cpuSeconds - before
        consume(UInt64(output.simulatedEvents))
        return (cpu, output.simulatedEvents)
    } catch {
        fatalError("\(error)")
    }
}
