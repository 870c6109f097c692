// The report's platforms section: the same policy on iOS and on Android,
// for the same users. Additive: one section, empty unless the suite runs
// a policy on both platforms (a `devices` axis with `device.platform`).
import Device
import Foundation
import Stats

extension ReportWriter {
    /// "## iOS and Android, the same users": for every configuration on an
    /// Android device whose policy also runs on an iOS device of the suite,
    /// the per-user paired differences Android − iOS in background energy,
    /// fresh-launch ratio, runs and wakes, with 95 % CIs (the users are the
    /// same people with the same draws on both: Docs/AndroidPlatform.md).
    /// Empty when no such pair exists.
    func platformsSection() -> String {
        let configurations = spec.configurations
        var pairs: [(android: Int, ios: Int)] = []
        for (a, c) in configurations.enumerated() where spec.device(for: c).platform == .android {
            if let i = configurations.indices.first(where: {
                spec.device(for: configurations[$0]).platform == .ios
                    && Self.samePolicy(configurations[$0].policy, c.policy)
            }) {
                pairs.append((a, i))
            }
        }
        let metrics = [Self.energy, Self.freshness, "tasks_run", "wakes"]
        let indices = metrics.compactMap { results.metricIndex($0) }
        guard !pairs.isEmpty, indices.count == metrics.count else { return "" }
        let meanDays = summaries.first { $0.metric.name == Self.days }?.summary.mean ?? 1
        let perDay = meanDays > 0 ? meanDays : 1
        func num(_ x: Double, _ d: Int) -> String {
            guard x.isFinite else { return "–" }
            let s = String(format: "%.\(d)f", x)
            return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
        }
        var s = "## iOS and Android, the same users\n\n"
        s += "Each policy on an Android device against the same policy on an iOS device of this suite: per-user paired differences Android − iOS, mean with 95 % CI; energy, runs and wakes per user-day. The users, their sessions, network, charging and every drawn failure are the same on both platforms; only the OS's rules differ (Docs/AndroidPlatform.md).\n\n"
        s += "| Android − iOS | Δ energy (J/day) | Δ fresh-launch ratio | Δ runs/day | Δ wakes/day |\n|---|---|---|---|---|\n"
        for (a, i) in pairs {
            var cells: [String] = []
            for (k, m) in indices.enumerated() {
                let p = Aggregation.pairedComparison(results, metric: m, configuration: a, against: i)
                let isRatio = metrics[k] == Self.freshness
                let scale = isRatio ? 1 : 1 / perDay
                let digits = isRatio ? 3 : (k == 0 ? 1 : 2)
                cells.append("\(num(p.meanDifference * scale, digits)) [\(num(p.ciLow * scale, digits)), \(num(p.ciHigh * scale, digits))]")
            }
            s += "| `\(configurations[a].label)` − `\(configurations[i].label)` | " + cells.joined(separator: " | ") + " |\n"
        }
        return s + "\n"
    }
}
