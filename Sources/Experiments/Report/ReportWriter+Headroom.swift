// The report's headroom section: how far the learning policies
// are from the model-aware bound, and the bound from the oracle. Additive:
// one section, computed from the same runs as every other table.
import Foundation
import Stats

extension ReportWriter {
    /// "## Headroom": per model-aware configuration, the paired per-user
    /// gaps oracle − bound and bound − each learning policy, in fresh-launch
    /// ratio and background energy. Empty when the suite has no model-aware
    /// configuration.
    func headroomSection() -> String {
        let labels = spec.configurations.map(\.label)
        let oracles = spec.configurations.indices.filter { spec.seesFuture(spec.configurations[$0]) }
        let bounds = spec.configurations.indices.filter { spec.knowsModel(spec.configurations[$0]) }
        guard !bounds.isEmpty, let fresh = results.metricIndex(Self.freshness),
              let energy = results.metricIndex(Self.energy) else { return "" }
        let learners = spec.configurations.indices.filter { c in
            // The learning policies: neither a reference nor a bound, and
            // not a fixed rule (never, greedy, fixed-interval), wrapped or not.
            !oracles.contains(c) && !bounds.contains(c) && c != spec.baseline
                && !Self.fixedRules.contains(Self.innermostPolicy(labels[c]))
        }
        let meanDays = summaries.first { $0.metric.name == Self.days }?.summary.mean ?? 1
        let perDay = meanDays > 0 ? meanDays : 1
        func gap(_ a: Int, _ b: Int) -> String {
            let f = Aggregation.pairedComparison(results, metric: fresh, configuration: a, against: b)
            let e = Aggregation.pairedComparison(results, metric: energy, configuration: a, against: b)
            func num(_ x: Double, _ d: Int) -> String { x.isFinite ? String(format: "%.\(d)f", x) : "–" }
            return "| `\(labels[a])` − `\(labels[b])` | \(num(f.meanDifference, 3)) [\(num(f.ciLow, 3)), \(num(f.ciHigh, 3))] | \(num(e.meanDifference / perDay, 1)) [\(num(e.ciLow / perDay, 1)), \(num(e.ciHigh / perDay, 1))] |\n"
        }
        var s = "## Headroom: oracle, model-aware bound, learning policies\n\n"
        s += "The model-aware bound (`model-bound`) knows each user's launch and content rates from the generator's model but not the realised future. Oracle − bound is what no policy reaches without foresight; bound − a learning policy is what learning the user's model could still gain. Per-user paired differences, mean with 95 % CI; energy is background J per user-day (a positive Δ energy means the first configuration spends more).\n\n"
        s += "| gap | Δ fresh-launch ratio | Δ energy (J/user-day) |\n|---|---|---|\n"
        for b in bounds {
            for o in oracles { s += gap(o, b) }
            for l in learners { s += gap(b, l) }
        }
        return s + "\n"
    }

    /// Policies that follow a fixed rule and learn nothing.
    static let fixedRules: Set<String> = ["never", "greedy", "fixed-interval"]

    /// The policy a label names under its wrappers and device variant:
    /// "v: exponential-backoff(coalescing(fixed-interval 1h))" → "fixed-interval".
    static func innermostPolicy(_ label: String) -> String {
        var name = Substring(label)
        if let colon = name.range(of: ": ") { name = name[colon.upperBound...] }
        if let open = name.lastIndex(of: "(") { name = name[name.index(after: open)...] }
        return String(name.prefix { $0 != " " && $0 != ")" })
    }
}
