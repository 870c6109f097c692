import Stats

/// Marginal energy efficiency against the baseline: extra background joules
/// per extra fresh launch, Σᵢ(Eᵢ − E′ᵢ) / Σᵢ(Fᵢ − F′ᵢ) over paired runs i
/// (E energy_total_j, F fresh_launches; primes the baseline's run of the
/// same user). Unlike the per-user `joules_per_fresh_launch`, it does not
/// credit a policy for launches the foreground fetch would have made fresh
/// anyway. Its 95 % interval is a paired percentile bootstrap (2000
/// resamples of users, `Bootstrap.ratioOfMeansInterval`) from a stream keyed
/// by the spec's seed and the configuration, so it is reproducible and the
/// same after a merge.
public struct EfficiencyRow: Sendable {
    public let configuration: String
    public let baseline: String
    public let pairs: Int
    /// Mean extra background energy per user, J.
    public let extraJoules: Double
    /// Mean extra fresh launches per user.
    public let extraFreshLaunches: Double
    public let interval: Bootstrap.Interval
}

extension Aggregation {
    public static let efficiencyColumns = ["configuration", "baseline", "n_pairs", "extra_energy_j", "extra_fresh_launches",
                                           "j_per_extra_fresh_launch", "ci95_low", "ci95_high"]

    public static func efficiency(_ results: ResultSet, baseline: Int, seed: UInt64) -> [EfficiencyRow] {
        guard let e = results.metricIndex("energy_total_j"), let f = results.metricIndex("fresh_launches") else { return [] }
        return results.configurations.indices.map { c in
            let de = pairedDifferences(results, metric: e, configuration: c, against: baseline)
            let df = pairedDifferences(results, metric: f, configuration: c, against: baseline)
            let rng = RandomStream(seed: seed, user: c, stream: "report.efficiency")
            // Equal lengths by construction, so this cannot throw.
            let interval = try! Bootstrap.ratioOfMeansInterval(de, df, using: rng)
            let n = Double(de.count)
            return EfficiencyRow(configuration: results.configurations[c], baseline: results.configurations[baseline],
                                 pairs: de.count, extraJoules: de.reduce(0, +) / n,
                                 extraFreshLaunches: df.reduce(0, +) / n, interval: interval)
        }
    }

    /// Per-user differences (configuration − baseline) of one metric, paired.
    static func pairedDifferences(_ results: ResultSet, metric m: Int, configuration c: Int, against base: Int) -> [Double] {
        pairedRows(results, configuration: c, against: base).map {
            results.value(row: $0.0, metric: m) - results.value(row: $0.1, metric: m)
        }
    }
}

extension ResultFiles {
    /// `efficiency.csv`: extra joules per extra fresh launch against the baseline.
    public static func efficiencyCSV(_ rows: [EfficiencyRow]) -> String {
        var out = CSV.line(Aggregation.efficiencyColumns)
        for r in rows {
            out += CSV.line([r.configuration, r.baseline, String(r.pairs)]
                + [r.extraJoules, r.extraFreshLaunches, r.interval.estimate, r.interval.low, r.interval.high].map(CSV.number))
        }
        return out
    }
}
