import Stats

/// Per-configuration statistics of every metric across users and
/// replications (`summary.csv`), computed with `Stats.SampleSummary`:
/// mean, sd (n − 1), Student-t 95 % interval of the mean, median and p95
/// (type-7 quantiles). Runs whose value is not finite (a ratio with a zero
/// denominator) are left out and counted in `excluded`.
public struct SummaryRow: Sendable {
    public let configuration: String
    public let metric: MetricDescriptor
    public let summary: SampleSummary
}

/// Each configuration against the baseline, paired by (replication, user):
/// the same simulated user under both policies (common random numbers).
public struct ComparisonRow: Sendable {
    public let configuration: String
    public let baseline: String
    public let metric: MetricDescriptor
    public let comparison: PairedComparison
}

public enum Aggregation {
    public static func summaries(_ results: ResultSet) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        for (c, runs) in results.rowsByConfiguration().enumerated() {
            for (m, metric) in results.metrics.enumerated() {
                let values = runs.map { results.value(row: $0, metric: m) }
                // Compacted: 12 configurations × 30 metrics × 100 000 users
                // of sorted copies would otherwise stay alive (~300 MB).
                rows.append(SummaryRow(configuration: results.configurations[c], metric: metric,
                                       summary: SampleSummary(values).compacted()))
            }
        }
        return rows
    }

    /// Row pairs (run of `c`, run of `base`) of the same (replication, user);
    /// a run without a partner is left out.
    static func pairedRows(_ results: ResultSet, configuration c: Int, against base: Int,
                           byConfiguration: [[Int]]? = nil) -> [(Int, Int)] {
        let groups = byConfiguration ?? results.rowsByConfiguration()
        var baseRow: [RunKeyWithoutConfiguration: Int] = [:]
        for r in groups[base] { baseRow[RunKeyWithoutConfiguration(results.keys[r])] = r }
        return groups[c].compactMap { r in baseRow[RunKeyWithoutConfiguration(results.keys[r])].map { (r, $0) } }
    }

    /// Configuration `c` against configuration `base` on metric `m`, paired
    /// by (replication, user).
    public static func pairedComparison(_ results: ResultSet, metric m: Int, configuration c: Int,
                                        against base: Int) -> PairedComparison {
        comparison(results, metric: m, pairs: pairedRows(results, configuration: c, against: base))
    }

    /// Paired comparisons of every configuration (the baseline included, as
    /// a zero-difference sanity row) against configuration `baseline`, in
    /// configuration then metric order.
    public static func comparisons(_ results: ResultSet, baseline: Int) -> [ComparisonRow] {
        let groups = results.rowsByConfiguration()
        var rows: [ComparisonRow] = []
        for c in results.configurations.indices {
            let pairs = pairedRows(results, configuration: c, against: baseline, byConfiguration: groups)
            for (m, metric) in results.metrics.enumerated() {
                rows.append(ComparisonRow(configuration: results.configurations[c],
                                          baseline: results.configurations[baseline],
                                          metric: metric, comparison: comparison(results, metric: m, pairs: pairs)))
            }
        }
        return rows
    }

    private static func comparison(_ results: ResultSet, metric m: Int, pairs: [(Int, Int)]) -> PairedComparison {
        // Equal lengths by construction, so this cannot throw.
        try! PairedComparison(pairs.map { results.value(row: $0.0, metric: m) },
                              pairs.map { results.value(row: $0.1, metric: m) })
    }
}

struct RunKeyWithoutConfiguration: Hashable {
    let replication: Int
    let user: Int
    init(_ k: RunKey) { replication = k.replication; user = k.user }
}
