import Device

/// `apps.csv` (`bgbench run --apps`): one row per configuration ×
/// replication × user × app, then that run's shared row (app -1, name
/// `shared`: the energy that goes to no app), streamed in work-item order
/// like `events.csv`. Columns and the attribution rule: Docs/Outputs.md.
enum AppsCSV {
    static let keyColumns = ["configuration", "replication", "user", "app", "app_name"]

    /// The header line.
    static var header: String {
        CSV.line(keyColumns + AppMetrics.columns.map(\.name))
    }

    /// The rows of one run: `prefix` is its key fields (configuration,
    /// replication, user) with a trailing comma.
    static func rows(prefix: String, appNames: [String], _ recorder: AppMetricsRecorder) -> String {
        var s = ""
        for (a, m) in recorder.apps.enumerated() {
            s += row(prefix: prefix, app: a, name: a < appNames.count ? appNames[a] : "", m)
        }
        s += row(prefix: prefix, app: -1, name: "shared", recorder.shared)
        return s
    }

    private static func row(prefix: String, app: Int, name: String, _ m: AppMetrics) -> String {
        var s = prefix + String(app) + "," + CSV.field(name)
        for c in AppMetrics.columns {
            s += ","
            s += CSV.number(c.value(m))
        }
        return s + "\n"
    }
}
