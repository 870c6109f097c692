/// What Android's own mechanisms did on one simulated device (Doze and the
/// bucket quotas, Docs/AndroidPlatform.md A9–A13): `runs.csv` columns that
/// a suite has only when one of its devices is Android (so every iOS-only
/// suite's output is unchanged); NaN on an iOS device's rows, and the
/// bucket columns NaN with `device.android.buckets` false.
public struct AndroidMetrics: Sendable, Hashable {
    /// Times a run left its app out of quota (A12): the app's work is
    /// held back from then until its quota frees.
    public var quotaExhausted = 0
    /// Running jobs stopped because their app's quota was used up (A13).
    public var quotaStops = 0
    /// Doze maintenance windows (light or deep) opened (A9).
    public var dozeWindows = 0
    /// Runs that started in a maintenance window (work Doze batched, A9).
    public var dozeWindowRuns = 0
    /// Background energy of the runs that started in a maintenance window:
    /// each run's own ledger (its CPU, radio promotion and transfer; the
    /// wake and the radio's tail are the device's, not the run's), joules.
    public var maintenanceEnergyJoules: Double = 0
    /// Apps in each bucket at the end of the run (active, working set,
    /// frequent, rare, restricted; nil with buckets off).
    public var appsInBucketAtEnd: [Int]? = nil

    public init() {}

    /// The buckets counted at the end, in column order.
    static let endBuckets: [StandbyBucket] = [.active, .workingSet, .frequent, .rare, .restricted]

    private static func count(_ m: UserMetrics, _ k: KeyPath<AndroidMetrics, Int>) -> Double {
        m.android.map { Double($0[keyPath: k]) } ?? .nan
    }

    /// The columns, after every `UserMetrics.columns` one.
    public static let columns: [UserMetrics.Column] = [
        .init(name: "quota_exhausted", unit: "count", description: "Android: times a run left its app out of its standby bucket's job quota, its work held back until the quota frees (AndroidPlatform.md A12)") { count($0, \.quotaExhausted) },
        .init(name: "quota_stops", unit: "count", description: "Android: running jobs stopped because their app's quota was used up (also in tasks_expired; A13)") { count($0, \.quotaStops) },
        .init(name: "doze_windows", unit: "count", description: "Android: Doze maintenance windows (light or deep) opened (A9)") { count($0, \.dozeWindows) },
        .init(name: "doze_window_runs", unit: "count", description: "Android: runs that started in a Doze maintenance window (work Doze batched; A9)") { count($0, \.dozeWindowRuns) },
        .init(name: "energy_maintenance_j", unit: "J", description: "Android: CPU, radio promotion and transfer energy of the runs that started in a Doze maintenance window, wakes and tails excluded (in energy_total_j)") { $0.android?.maintenanceEnergyJoules ?? .nan },
    ] + endBuckets.enumerated().map { i, b in
        UserMetrics.Column(name: "apps_\(b.name.replacingOccurrences(of: "-", with: "_"))_end", unit: "count",
                           description: "Android: apps in the \(b.name) standby bucket at the end of the run (A10; NaN with buckets off)") {
            $0.android?.appsInBucketAtEnd.map { Double($0[i]) } ?? .nan
        }
    }
}
