// The report's precision section: how wide the headline intervals are, how
// many users would halve them, and which differences between configurations
// the population does not resolve. It tells a reader whether the suite's
// size fits its claims, from the same runs as every other table.
import Foundation
import Stats

extension ReportWriter {
    /// Users (replication × user pairs divided by the replications) needed
    /// for `pairs`.
    private func users(_ pairs: Int) -> Int { (pairs + spec.replications - 1) / spec.replications }

    /// "## Precision": per configuration against the baseline, the 95 %
    /// half-width of Δ fresh-launch ratio and Δ energy and the users needed
    /// to halve it (``SampleSize/pairsToHalve(n:sd:)``); then how many of
    /// the pairwise differences between configurations in fresh-launch ratio
    /// and in energy have an interval that excludes 0, naming the rest with
    /// the users each would need at its current spread.
    func precisionSection() -> String {
        let d = daysPerUser
        var s = "## Precision\n\n"
        s += "Half-width of each 95 % interval of the paired differences against `\(baseline)` (the ± of the table above), and the users the suite would need to halve it: the smallest n whose Student-t half-width t₀.₉₇₅,ₙ₋₁·s/√n is at most half of today's, s the standard deviation of the per-user differences (about 4 × today's users, since a half-width shrinks as 1/√n).\n\n"
        s += "| configuration | ± Δ fresh-launch ratio | ± Δ energy (J/user-day) | users to halve |\n|---|---|---|---|\n"
        for l in labels where l != baseline {
            guard let f = comparison(l, Self.freshness), let e = comparison(l, Self.energy) else { continue }
            let halve = [f, e].map { c in SampleSize.pairsToHalve(n: c.n, sd: c.sdDifference).map { String(users($0)) } ?? "–" }
            s += "| `\(l)` | \(fmt(halfWidth(f), 4)) | \(fmt(halfWidth(e) / d, 1)) | \(halve[0] == halve[1] ? halve[0] : halve.joined(separator: " / ")) |\n"
        }
        guard labels.count > 2 else { return s + "\n" }
        s += "\nBetween configurations (every pair, per-user paired differences):\n\n"
        s += pairwiseResolution(Self.freshness, "fresh-launch ratio", digits: 4)
        s += pairwiseResolution(Self.energy, "energy (J/user-day)", digits: 1, scale: 1 / d)
        return s.hasSuffix("\n\n") ? s : s + "\n"
    }

    private func halfWidth(_ c: PairedComparison) -> Double { (c.ciHigh - c.ciLow) / 2 }

    /// How many pairwise differences between configurations in `metric`
    /// have an interval that excludes 0, naming the others.
    private func pairwiseResolution(_ metric: String, _ title: String, digits: Int, scale: Double = 1) -> String {
        guard labels.count > 2, let m = results.metricIndex(metric) else { return "" }
        let groups = results.rowsByConfiguration()
        var total = 0
        var unresolved: [(a: String, b: String, c: PairedComparison)] = []
        for a in labels.indices {
            for b in labels.indices where b > a {
                let pairs = Aggregation.pairedRows(results, configuration: a, against: b, byConfiguration: groups)
                let c = try! PairedComparison(pairs.map { results.value(row: $0.0, metric: m) },
                                              pairs.map { results.value(row: $0.1, metric: m) })
                total += 1
                // Resolved: the interval excludes 0 (an SD of 0 with a
                // non-zero mean is an exact difference).
                if !(c.ciLow > 0 || c.ciHigh < 0) { unresolved.append((labels[a], labels[b], c)) }
            }
        }
        var s = "- \(title): \(total - unresolved.count) of the \(total) pairwise differences have a 95 % paired interval that excludes 0"
        if unresolved.isEmpty { return s + ".\n" }
        s += "; not the following, with the users each would need for its interval to exclude 0 if its mean difference and spread stayed as they are (– when the mean difference is 0):\n\n"
        s += "  | pair | Δ \(title) | users to resolve |\n  |---|---|---|\n"
        let shown = 12
        for u in unresolved.prefix(shown) {
            let need = SampleSize.pairsForHalfWidth(abs(u.c.meanDifference), sd: u.c.sdDifference)
                .flatMap { $0 > u.c.n ? users($0) : nil }
            s += "  | `\(u.a)` − `\(u.b)` | \(diff(u.c, digits, scale: scale)) | \(need.map(String.init) ?? "–") |\n"
        }
        if unresolved.count > shown { s += "\n  (and \(unresolved.count - shown) more)\n" }
        return s + "\n"
    }
}
