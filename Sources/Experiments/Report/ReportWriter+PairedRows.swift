// One table row per pair of configurations, shared by the report's
// sections that set one configuration against another for the same users
// (backoff against its base, Android against iOS).
import Foundation
import Stats

extension ReportWriter {
    /// The rows `| `a` − `b` | Δ … | … |` of per-user paired differences
    /// a − b, mean [95 % CI], for `metrics` in order: the fresh-launch
    /// ratio as it is, every other metric per user-day; `digits[k]`
    /// decimals for metric k. Nil when there is no pair or a metric is not
    /// in the results, so a section can leave itself out.
    func pairedDifferenceRows(_ pairs: [(Int, Int)], metrics: [String], digits: [Int]) -> String? {
        let indices = metrics.compactMap { results.metricIndex($0) }
        guard !pairs.isEmpty, indices.count == metrics.count else { return nil }
        let meanDays = summaries.first { $0.metric.name == Self.days }?.summary.mean ?? 1
        let perDay = meanDays > 0 ? meanDays : 1
        func num(_ x: Double, _ d: Int) -> String {
            guard x.isFinite else { return "–" }
            let s = String(format: "%.\(d)f", x)
            // "-0.0" reads as a direction the data does not have.
            return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
        }
        let configurations = spec.configurations
        var rows = ""
        for (a, b) in pairs {
            var cells: [String] = []
            for (k, m) in indices.enumerated() {
                let p = Aggregation.pairedComparison(results, metric: m, configuration: a, against: b)
                let scale = metrics[k] == Self.freshness ? 1 : 1 / perDay
                let d = digits[k]
                cells.append("\(num(p.meanDifference * scale, d)) [\(num(p.ciLow * scale, d)), \(num(p.ciHigh * scale, d))]")
            }
            rows += "| `\(configurations[a].label)` − `\(configurations[b].label)` | " + cells.joined(separator: " | ") + " |\n"
        }
        return rows
    }
}
