// The report's backoff section: what `exponential-backoff` saves
// and what it costs against its own base. Additive: one section, computed
// from the same runs as every other table.
import Foundation
import Stats
import Traces

extension ReportWriter {
    /// "## What backoff buys": for every `exponential-backoff` configuration
    /// whose base is itself a configuration of the suite (same policy, same
    /// device variant), the per-user paired differences wrapper − base in
    /// failed runs, runs, background energy, wasted energy and fresh-launch
    /// ratio. Empty when no such pair exists.
    func backoffSection() -> String {
        let configurations = spec.configurations
        var pairs: [(Int, Int)] = []  // (configuration, the one it is set against)
        for (w, c) in configurations.enumerated() {
            guard c.policy["name"] == .string("exponential-backoff"), let base = c.policy["base"] else { continue }
            if let b = configurations.indices.first(where: {
                $0 != w && configurations[$0].deviceVariant == c.deviceVariant
                    && Self.samePolicy(configurations[$0].policy, base)
            }) {
                pairs.append((w, b))
            }
        }
        guard let rows = pairedDifferenceRows(pairs, metrics: ["tasks_failed", "tasks_run", Self.energy, "energy_wasted_j", Self.freshness],
                                              digits: [2, 2, 1, 1, 3]) else { return "" }
        var s = "## What backoff buys\n\n"
        s += "Each `exponential-backoff` configuration against its own base (the same policy without the wrapper): per-user paired differences wrapper − base, mean with 95 % CI. Counts and energy are per user-day; a negative Δ means the wrapper has fewer or spends less. Failures come from the apps' drawn failure probabilities, from going offline during a run, and, where `device.backendOutages` is on, from runs during an outage of the app's backend, and, where `device.deadZones` is on, from runs in a dead zone (Docs/Semantics.md).\n\n"
        s += "| wrapper − base | Δ failed runs | Δ runs | Δ energy (J) | Δ wasted energy (J) | Δ fresh-launch ratio |\n|---|---|---|---|---|---|\n"
        s += rows
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
