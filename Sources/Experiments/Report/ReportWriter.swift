import Foundation
import Stats

/// Renders `report.md` and the freshness-versus-energy plot from the
/// summaries and paired comparisons. Every number in the report comes from
/// `summary.csv` / `comparison.csv` of the same run: nothing is typed in.
struct ReportWriter {
    let spec: ExperimentSpec
    let specPath: String
    /// The executable and registry that produced the run (the "Reproduce" line).
    let provenance: RunProvenance
    let results: ResultSet
    let summaries: [SummaryRow]
    let comparisons: [ComparisonRow]
    let efficiency: [EfficiencyRow]

    // The metrics the headline uses (names of `runs.csv` columns).
    static let freshness = "fresh_launch_ratio"
    static let energy = "energy_total_j"
    static let days = "days"

    private func summary(_ configuration: String, _ metric: String) -> SampleSummary? {
        summaries.first { $0.configuration == configuration && $0.metric.name == metric }?.summary
    }

    func comparison(_ configuration: String, _ metric: String) -> PairedComparison? {
        comparisons.first { $0.configuration == configuration && $0.metric.name == metric }?.comparison
    }

    var labels: [String] { spec.configurations.map(\.label) }
    var baseline: String { labels[spec.baseline] }

    /// Simulated days per user (the `days` column is the same for every run).
    var daysPerUser: Double {
        let d = labels.compactMap { summary($0, Self.days)?.mean }.first ?? .nan
        return d > 0 ? d : .nan
    }

    private struct Point {
        let label: String
        let fresh: SampleSummary
        let energy: SampleSummary
    }

    private var points: [Point] {
        labels.compactMap { l in
            guard let f = summary(l, Self.freshness), let e = summary(l, Self.energy) else { return nil }
            return Point(label: l, fresh: f, energy: e)
        }
    }

    private var frontier: Set<String> { frontier(of: points) }

    /// The frontier among realisable configurations only: without the
    /// bounds that see the future (the oracle dominates almost everything).
    private var realisableFrontier: Set<String> {
        let bounds = Set(spec.configurations.filter { spec.seesFuture($0) }.map(\.label))
        return frontier(of: points.filter { !bounds.contains($0.label) })
    }

    private func frontier(of pts: [Point]) -> Set<String> {
        let idx = ParetoFrontier.frontier(pts.map { .init(label: $0.label, cost: $0.energy.mean, benefit: $0.fresh.mean) })
        return Set(idx.map { pts[$0].label })
    }

    func freshnessEnergySVG() -> String {
        let d = daysPerUser
        let onFrontier = frontier
        let plot = SVGPlot(title: "Freshness versus background energy (mean, 95 % CI)",
                           xLabel: "background energy per user-day (J)", yLabel: "fresh-launch ratio")
        return plot.scatter(points.map { p in
            .init(label: p.label, x: p.energy.mean / d, xLow: p.energy.ciLow / d, xHigh: p.energy.ciHigh / d,
                  y: p.fresh.mean, yLow: p.fresh.ciLow, yHigh: p.fresh.ciHigh,
                  highlighted: onFrontier.contains(p.label))
        })
    }

    func wakesByHourSVG(_ wakes: WakesByHour, userDays: [Double]) -> String {
        var plot = SVGPlot(title: "Background wakes by hour of day", xLabel: "hour of day",
                           yLabel: "wakes per user-day in that hour")
        plot.width = 1000
        plot.legendWidth = 280
        return plot.lines(categories: (0..<24).map { String($0) },
                          series: wakes.configurations.enumerated().map { c, label in
                              (label, wakes.totals[c].map { Double($0) / userDays[c] })
                          })
    }

    func markdown(hasEvents: Bool) -> String {
        var md = "# BGBench report: \(spec.name)\n\n"
        if !spec.description.isEmpty { md += spec.description + "\n\n" }
        md += setup()
        md += answer()
        md += headlineTable()
        md += "![Freshness versus energy](freshness_vs_energy.svg)\n\n"
        md += "![Background wakes by hour of day](wakes_by_hour.svg)\n\n"
        md += frontierSection()
        md += headroomSection()
        md += backoffSection()
        md += platformsSection()
        md += platformAblationSection()
        md += comparisonTable()
        md += precisionSection()
        md += files(hasEvents: hasEvents)
        return md
    }

    private func setup() -> String {
        var s = "## Setup\n\n"
        switch spec.world {
        case let .generated(users, days, parameters):
            s += "- World: \(users) synthetic users × \(days) days, \(parameters.apps.count) apps (\(parameters.apps.map(\.name).joined(separator: ", "))), habit regularity \(fmt(parameters.usage.habitRegularity, 2)).\n"
        case let .traces(directory):
            s += "- World: trace set `\(directory)`.\n"
        }
        s += "- Seed \(spec.seed), \(spec.replications) replication\(spec.replications == 1 ? "" : "s"); every configuration simulates the same users (common random numbers), so comparisons are paired by user.\n"
        s += "- \(labels.count) configurations; baseline for comparisons: `\(baseline)`.\n"
        s += "- Reproduce: `\(provenance.executable) run \(specPath)` (bgbench \(BGBenchVersion.current), policy registry \(provenance.registryFingerprint): \(provenance.policies.joined(separator: ", "))); the spec is echoed in `manifest.json`.\n\n"
        return s
    }

    /// The question the report exists for, answered from the numbers.
    private func answer() -> String {
        let pts = points.filter { $0.fresh.mean.isFinite && $0.energy.mean.isFinite }
        guard let freshest = pts.max(by: { ($0.fresh.mean, -$0.energy.mean) < ($1.fresh.mean, -$1.energy.mean) }) else {
            return "## Answer\n\nNo configuration produced a finite fresh-launch ratio (no launches?).\n\n"
        }
        let d = daysPerUser
        var s = "## Which policy gives the freshest launches for the least energy?\n\n"
        s += "- Freshest: `\(freshest.label)`, fresh-launch ratio \(ci(freshest.fresh, 3)) at \(ci(freshest.energy, 1, scale: 1 / d)) J per user-day.\n"
        // Cheapest configuration whose freshness is statistically indistinguishable
        // from the freshest one (paired difference CI contains 0) or better.
        if let comparable = pts.filter({ p in
            p.label == freshest.label || pairedNotWorse(p.label, than: freshest.label)
        }).min(by: { $0.energy.mean < $1.energy.mean }), comparable.label != freshest.label {
            s += "- Cheapest configuration not measurably less fresh than it: `\(comparable.label)`, ratio \(ci(comparable.fresh, 3)) at \(ci(comparable.energy, 1, scale: 1 / d)) J per user-day.\n"
        }
        // Marginal efficiency: fewest extra joules per extra fresh launch.
        let bounds = Set(spec.configurations.filter { spec.seesFuture($0) }.map(\.label))
        let efficient = efficiency.filter { $0.configuration != baseline && $0.extraFreshLaunches > 0 && $0.interval.estimate.isFinite }
            .sorted { $0.interval.estimate < $1.interval.estimate }
        func describe(_ e: EfficiencyRow) -> String {
            "`\(e.configuration)`, \(fmt(e.interval.estimate, 1)) [\(fmt(e.interval.low, 1)), \(fmt(e.interval.high, 1))] J per extra fresh launch over `\(baseline)` (+\(fmt(e.extraFreshLaunches / d, 2)) fresh launches per user-day)"
        }
        if let best = efficient.first {
            s += "- Fewest extra joules per extra fresh launch: \(describe(best)).\n"
            if bounds.contains(best.configuration), let real = efficient.first(where: { !bounds.contains($0.configuration) }) {
                s += "- Among realisable policies (no future knowledge): \(describe(real)).\n"
            }
        }
        s += "- Pareto frontier (no other configuration is both fresher and cheaper): \(order(frontier).map { "`\($0)`" }.joined(separator: " → ")).\n"
        if realisableFrontier != frontier {
            s += "- Without the bounds that see the future (oracle): \(order(realisableFrontier).map { "`\($0)`" }.joined(separator: " → ")).\n"
        }
        return s + "\n"
    }

    /// True when `a`'s freshness is not significantly below `b`'s: the 95 %
    /// interval of the per-user paired difference (a − b) reaches 0.
    private func pairedNotWorse(_ a: String, than b: String) -> Bool {
        guard let ia = labels.firstIndex(of: a), let ib = labels.firstIndex(of: b),
              let m = results.metricIndex(Self.freshness) else { return false }
        let c = Aggregation.pairedComparison(results, metric: m, configuration: ia, against: ib)
        return c.ciHigh >= 0 || (c.n > 0 && c.meanDifference >= 0)
    }

    /// The members of a frontier, cheapest first.
    private func order(_ f: Set<String>) -> [String] {
        points.filter { f.contains($0.label) }.sorted { $0.energy.mean < $1.energy.mean }.map(\.label)
    }

    private func headlineTable() -> String {
        let d = daysPerUser
        var s = "## Results by configuration\n\nMean across users with 95 % Student-t confidence intervals; energy is background energy only. The last column is Σ extra background joules / Σ extra fresh launches against `\(baseline)`, paired by user, with a 95 % paired bootstrap interval (`efficiency.csv`): unlike joules per fresh launch, it does not credit a policy with launches the foreground fetch makes fresh anyway.\n\n"
        s += "| configuration | fresh-launch ratio | mean age at launch (min) | energy (J/user-day) | battery (%/day) | wakes/day | expired tasks/day | extra J per extra fresh launch |\n"
        s += "|---|---|---|---|---|---|---|---|\n"
        for l in labels {
            func cell(_ m: String, _ digits: Int, _ scale: Double = 1) -> String {
                summary(l, m).map { ci($0, digits, scale: scale) } ?? "–"
            }
            let name = l == baseline ? "`\(l)` (baseline)" : "`\(l)`"
            s += "| \(name) | \(cell(Self.freshness, 3)) | \(cell("mean_age_s", 1, 1.0 / 60)) | \(cell(Self.energy, 1, 1 / d)) | \(cell("battery_pct_per_day_bg", 3)) | \(cell("wakes", 1, 1 / d)) | \(cell("tasks_expired", 2, 1 / d)) | \(marginal(l)) |\n"
        }
        return s + "\n"
    }

    /// Extra joules per extra fresh launch against the baseline, with its
    /// bootstrap interval ("–" for the baseline itself or no extra launches).
    private func marginal(_ label: String) -> String {
        guard label != baseline, let e = efficiency.first(where: { $0.configuration == label }),
              e.interval.estimate.isFinite, e.extraFreshLaunches > 0 else { return "–" }
        return "\(fmt(e.interval.estimate, 1)) [\(fmt(e.interval.low, 1)), \(fmt(e.interval.high, 1))]"
    }

    private func frontierSection() -> String {
        let d = daysPerUser
        var s = "## Pareto frontier\n\nConfigurations that no other configuration beats on both mean freshness and mean energy, cheapest first (\"realisable\": also on the frontier once the bounds that see the future are left out):\n\n"
        s += "| configuration | energy (J/user-day) | fresh-launch ratio | on frontier |\n|---|---|---|---|\n"
        let all = frontier, realisable = realisableFrontier
        for p in points.filter({ all.contains($0.label) || realisable.contains($0.label) })
            .sorted(by: { $0.energy.mean < $1.energy.mean }) {
            let which = all.contains(p.label) ? (realisable.contains(p.label) ? "all, realisable" : "all") : "realisable"
            s += "| `\(p.label)` | \(fmt(p.energy.mean / d, 1)) | \(fmt(p.fresh.mean, 3)) | \(which) |\n"
        }
        return s + "\n"
    }

    private func comparisonTable() -> String {
        let d = daysPerUser
        var s = "## Paired differences against `\(baseline)`\n\nPer-user differences (configuration − baseline), mean with 95 % CI and two-sided paired t-test p-value.\n\n"
        s += "| configuration | Δ fresh-launch ratio | p | Δ energy (J/user-day) | p |\n|---|---|---|---|---|\n"
        for l in labels where l != baseline {
            guard let f = comparison(l, Self.freshness), let e = comparison(l, Self.energy) else { continue }
            s += "| `\(l)` | \(diff(f, 3)) | \(pValue(f.pValue)) | \(diff(e, 1, scale: 1 / d)) | \(pValue(e.pValue)) |\n"
        }
        return s + "\n"
    }

    private func files(hasEvents: Bool) -> String {
        var s = "## Files\n\n- `runs.csv`: one row per configuration × replication × user (columns and units: Docs/Outputs.md).\n"
        s += "- `summary.csv`: per configuration and metric: n, mean, sd, 95 % CI, median, p95.\n"
        s += "- `comparison.csv`: every metric paired against the baseline.\n"
        s += "- `efficiency.csv`: extra joules per extra fresh launch against the baseline, with a bootstrap CI.\n"
        s += "- `wakes_by_hour.csv`: background wakes by hour of day per configuration (total and per user-day).\n"
        if hasEvents { s += "- `events.csv`: every launch, content update, task run and device-state change.\n" }
        s += "- `manifest.json`: version, toolchain, executable and policy registry, spec, seed, threads, what the run cost (wall and CPU time, simulated events, peak memory).\n"
        return s
    }

    // MARK: Number formatting (fixed digits: stable bytes)

    /// Fixed digits; a value that rounds to zero prints without a minus sign.
    func fmt(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "–" }
        let s = String(format: "%.\(digits)f", v)
        return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
    }

    private func ci(_ s: SampleSummary, _ digits: Int, scale: Double = 1) -> String {
        guard s.mean.isFinite else { return "–" }
        guard s.ciLow.isFinite else { return fmt(s.mean * scale, digits) }
        return "\(fmt(s.mean * scale, digits)) [\(fmt(s.ciLow * scale, digits)), \(fmt(s.ciHigh * scale, digits))]"
    }

    func diff(_ c: PairedComparison, _ digits: Int, scale: Double = 1) -> String {
        guard c.meanDifference.isFinite else { return "–" }
        let sign = c.meanDifference * scale >= 0 ? "+" : ""
        guard c.ciLow.isFinite else { return sign + fmt(c.meanDifference * scale, digits) }
        return "\(sign)\(fmt(c.meanDifference * scale, digits)) [\(fmt(c.ciLow * scale, digits)), \(fmt(c.ciHigh * scale, digits))]"
    }

    private func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "–" }
        return p < 0.001 ? "< 0.001" : String(format: "%.3f", p)
    }
}
