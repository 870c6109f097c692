// The report's backoff section: what `exponential-backoff` saves
// and what it costs against its own base. Additive: one section, computed
// from the same runs as every other table.
import Foundation
import Stats

extension ReportWriter {
    /// "## What backoff buys": for every `exponential-backoff` configuration
    /// whose base is itself a configuration of the suite (same policy, same
    /// device variant), the per-user paired differences wrapper − base in
    /// failed runs, runs, background energy, wasted energy and fresh-launch
    /// ratio. Empty when no such pair exists.
    func backoffSection() -> String {
        let configurations = spec.configurations
        var pairs: [(wrapper: Int, base: Int)] = []
        for (w, c) in configurations.enumerated() {
            guard c.policy["name"] == .string("exponential-backoff"), let base = c.policy["base"] else { continue }
            if let b = configurations.indices.first(where: {
                $0 != w && configurations[$0].deviceVariant == c.deviceVariant
                    && Self.samePolicy(configurations[$0].policy, base)
            }) {
                pairs.append((w, b))
            }
        }
        let metrics = ["tasks_failed", "tasks_run", Self.energy, "energy_wasted_j", Self.freshness]
        let indices = metrics.compactMap { results.metricIndex($0) }
        guard !pairs.isEmpty, indices.count == metrics.count else { return "" }
        let meanDays = summaries.first { $0.metric.name == Self.days }?.summary.mean ?? 1
        let perDay = meanDays > 0 ? meanDays : 1
        func num(_ x: Double, _ d: Int) -> String {
            guard x.isFinite else { return "–" }
            let s = String(format: "%.\(d)f", x)
            return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
        }
        var s = "## What backoff buys\n\n"
        s += "Each `exponential-backoff` configuration against its own base (the same policy without the wrapper): per-user paired differences wrapper − base, mean with 95 % CI. Counts and energy are per user-day; a negative Δ means the wrapper has fewer or spends less. Failures come from the apps' drawn failure probabilities, from going offline during a run, and, where `device.backendOutages` is on, from runs during an outage of the app's backend, and, where `device.deadZones` is on, from runs in a dead zone (Docs/Semantics.md).\n\n"
        s += "| wrapper − base | Δ failed runs | Δ runs | Δ energy (J) | Δ wasted energy (J) | Δ fresh-launch ratio |\n|---|---|---|---|---|---|\n"
        for (w, b) in pairs {
            var cells: [String] = []
            for (k, m) in indices.enumerated() {
                let p = Aggregation.pairedComparison(results, metric: m, configuration: w, against: b)
                let isRatio = metrics[k] == Self.freshness
                let scale = isRatio ? 1 : 1 / perDay
                let digits = isRatio ? 3 : (k < 2 ? 2 : 1)
                cells.append("\(num(p.meanDifference * scale, digits)) [\(num(p.ciLow * scale, digits)), \(num(p.ciHigh * scale, digits))]")
            }
            s += "| `\(configurations[w].label)` − `\(configurations[b].label)` | " + cells.joined(separator: " | ") + " |\n"
        }
        return s + "\n"
    }

    /// Two policy entries are the same policy: objects equal whatever their
    /// key order (a spec may write `base` before `name`).
    static func samePolicy(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { pair in y.contains { $0.key == pair.key && samePolicy($0.value, pair.value) } }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { samePolicy($0, $1) }
        default:
            return a == b
        }
    }
}
