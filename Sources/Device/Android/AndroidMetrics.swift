/// Android's own counts and energy on one simulated device (Doze and the
/// bucket quotas, Docs/AndroidPlatform.md A9–A13), a metrics group like a
/// mechanism's (``MetricGroup``).
public enum AndroidMetric: MetricGroup {
    /// `quotaExhausted`: times a run left its app out of quota (A12), the
    /// app's work held back until its quota frees; `quotaStops`: running
    /// jobs stopped because their app's quota was used up (A13);
    /// `dozeWindows`: Doze maintenance windows (light or deep) opened (A9);
    /// `dozeWindowRuns`: runs that started in one (work Doze batched).
    public enum Count: Int, CaseIterable, Sendable { case quotaExhausted, quotaStops, dozeWindows, dozeWindowRuns }
    /// Background energy of the runs that started in a maintenance window:
    /// each run's own ledger (its CPU, radio promotion and transfer; the
    /// wake and the radio's tail are the device's, not the run's), joules.
    public enum Sum: Int, CaseIterable, Sendable { case maintenanceEnergyJoules }
}

/// What Android's own mechanisms did on one simulated device: `runs.csv`
/// columns that a suite has only when one of its devices is Android (so
/// every iOS-only suite's output is unchanged); NaN on an iOS device's
/// rows, and the bucket columns NaN with `device.android.buckets` false.
public struct AndroidMetrics: Sendable, Hashable {
    public var counters = MetricCounters<AndroidMetric>()
    /// Apps in each bucket at the end of the run (active, working set,
    /// frequent, rare, restricted; nil with buckets off).
    public var appsInBucketAtEnd: [Int]? = nil

    public init() {}

    /// The buckets counted at the end, in column order.
    static let endBuckets: [StandbyBucket] = [.active, .workingSet, .frequent, .rare, .restricted]

    /// The columns, after every `UserMetrics.columns` one, read from
    /// `UserMetrics.android` (NaN where it is nil: an iOS device's row).
    public static let columns: [UserMetrics.Column] = ownColumns.map { $0.lifted(\UserMetrics.android) }

    private static let ownColumns: [MetricColumn<AndroidMetrics>] = [
        .count(\.counters, .quotaExhausted, "quota_exhausted", "Android: times a run left its app out of its standby bucket's job quota, its work held back until the quota frees (AndroidPlatform.md A12)"),
        .count(\.counters, .quotaStops, "quota_stops", "Android: running jobs stopped because their app's quota was used up (also in tasks_expired; A13)"),
        .count(\.counters, .dozeWindows, "doze_windows", "Android: Doze maintenance windows (light or deep) opened (A9)"),
        .count(\.counters, .dozeWindowRuns, "doze_window_runs", "Android: runs that started in a Doze maintenance window (work Doze batched; A9)"),
        .sum(\.counters, .maintenanceEnergyJoules, "energy_maintenance_j", unit: "J", "Android: CPU, radio promotion and transfer energy of the runs that started in a Doze maintenance window, wakes and tails excluded (in energy_total_j)"),
    ] + endBuckets.enumerated().map { i, b in
        MetricColumn<AndroidMetrics>(name: "apps_\(b.name.replacingOccurrences(of: "-", with: "_"))_end", unit: "count",
                                     description: "Android: apps in the \(b.name) standby bucket at the end of the run (A10; NaN with buckets off)") {
            $0.appsInBucketAtEnd.map { Double($0[i]) } ?? .nan
        }
    }
}
