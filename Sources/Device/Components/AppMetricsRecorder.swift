import SimCore

/// One app's share of a run's metrics (a row of `apps.csv`). Counts are of
/// the app's own rows of the event log; energy is what the simulator charged
/// to work of this app (the attribution rule: ``AppMetricsRecorder``).
public struct AppMetrics: Sendable, Hashable {
    /// The app's counts and sums (``AppMetric``), read as `metrics[.launches]`.
    public var counters = MetricCounters<AppMetric>()
    /// Energy of the app's BGTask runs (their rows' ledgers), of its runs of
    /// the other mechanisms, and on rows without an app (the shared row
    /// only: BGTask batch wake-ups and radio tails), joules.
    public var taskEnergy = EnergyLedger(), mechanismEnergy = EnergyLedger(), sharedEnergy = EnergyLedger()

    public init() {}

    public subscript(count: AppMetric.Count) -> Int {
        get { counters[count] }
        set { counters[count] = newValue }
    }

    public subscript(sum: AppMetric.Sum) -> Double {
        get { counters[sum] }
        set { counters[sum] = newValue }
    }

    /// All background energy attributed to the app, by component.
    public var energy: EnergyLedger { taskEnergy + mechanismEnergy + sharedEnergy }
    /// BGTask runs started (every outcome, censored included).
    public var tasksRun: Int { self[.tasksSucceeded] + self[.tasksFailed] + self[.tasksExpired] + self[.tasksCensored] }

    /// One column of `apps.csv` after the key columns.
    public typealias Column = MetricColumn<AppMetrics>

    /// The metric columns of `apps.csv`, in order (Docs/Outputs.md).
    public static let columns: [Column] = [
        .count(\.counters, .launches, "launches", "foreground launches of the app"),
        .count(\.counters, .freshLaunches, "fresh_launches", "launches with fresh content (before the foreground fetch)"),
        Column(name: "fresh_launch_ratio", unit: "ratio", description: "fresh_launches / launches; NaN without launches") {
            $0[.launches] > 0 ? Double($0[.freshLaunches]) / Double($0[.launches]) : .nan
        },
        .mean(\.counters, .ageSumSeconds, per: [.launches], "mean_age_s", unit: "s", "mean content age at the app's launches; NaN without launches"),
        .mean(\.counters, .sinceRefreshSumSeconds, per: [.launches], "mean_since_refresh_s", unit: "s", "mean time since the app's content was last fetched, at its launches"),
        Column(name: "tasks_run", unit: "count", description: "BGTask runs started (refresh, processing, fetch)") { Double($0.tasksRun) },
        .count(\.counters, .tasksSucceeded, "tasks_succeeded", "BGTask runs ended successfully"),
        .count(\.counters, .tasksExpired, "tasks_expired", "BGTask runs expired"),
        .count(\.counters, .tasksFailed, "tasks_failed", "BGTask runs failed"),
        .count(\.counters, .tasksCensored, "tasks_censored", "BGTask runs still going at the horizon"),
        .count(\.counters, .refreshesNewData, "refreshes_new_data", "successful refreshes that fetched new content"),
        .count(\.counters, .mechanismRuns, "mechanism_runs", "background runs of the other mechanisms ended (push deliveries, beginBackgroundTask, URLSession relaunches, continued processing)"),
    ] + EnergyLedger.columns.map { $0.lifted(\.energy) } + [
        Column(name: "task_energy_j", unit: "J", description: "the part of energy_total_j of BGTask runs") { $0.taskEnergy.total },
        Column(name: "mechanism_energy_j", unit: "J", description: "the part of energy_total_j of the other mechanisms") { $0.mechanismEnergy.total },
        .sum(\.counters, .wastedJoules, "energy_wasted_j", unit: "J", "CPU + promotion + active energy of the app's expired and failed BGTask runs"),
        .sum(\.counters, .bytesWifi, "bg_bytes_wifi", unit: "B", "bytes up + down of the app's BGTask runs on Wi-Fi"),
        .sum(\.counters, .bytesCellular, "bg_bytes_cellular", unit: "B", "bytes up + down of the app's BGTask runs on cellular"),
    ]
}

/// The counts and sums of one app's row of `apps.csv`.
public enum AppMetric: MetricGroup {
    /// Launches and fresh ones (before the foreground fetch); BGTask runs
    /// (refresh, processing, legacy fetch) by outcome (censored: still
    /// running at the horizon); successful refreshes that brought new
    /// content; runs of the other mechanisms that ended in the background
    /// (silent-push deliveries, `beginBackgroundTask` runs, URLSession
    /// relaunches, continued-processing jobs that ran and ended).
    public enum Count: Int, CaseIterable, Sendable {
        case launches, freshLaunches, tasksSucceeded, tasksFailed, tasksExpired, tasksCensored, refreshesNewData
        case mechanismRuns
    }
    /// Over the app's launches: content age and time since the last fetch,
    /// s; CPU + promotion + active energy of its expired and failed BGTask
    /// runs, J; bytes (up + down) of its BGTask runs by the network at
    /// their start.
    public enum Sum: Int, CaseIterable, Sendable {
        case ageSumSeconds, sinceRefreshSumSeconds, wastedJoules, bytesWifi, bytesCellular
    }
}

/// The event sink behind `apps.csv`: it accumulates every event of a run
/// per app instead of keeping it, and can also keep the log (`--events`
/// with `--apps`).
///
/// The attribution rule: a row of the event log carrying an app (a launch,
/// a task run, a silent-push delivery, a `beginBackgroundTask` run, a
/// URLSession relaunch, a continued-processing job's end) counts for that
/// app with the energy on the row; a URLSession transfer's radio energy and
/// a mechanism run still going at the horizon, which are on no row, are
/// told to the sink (`attribute`) and count for their app too. What is on a
/// row without an app is *shared* and goes to no app: the wake-up of a
/// BGTask batch (one wake for every task of the batch, whatever their
/// apps) and radio tails (settled after the work that caused them, often
/// after several apps' transfers, and net of the foreground's own tails).
/// So the apps' rows plus the shared row sum to the run's `runs.csv`
/// energy, component by component (up to the order of the additions).
///
/// Kept per run, so its memory is one ``AppMetrics`` per app (plus the log
/// when asked). Only used when per-app output is asked for: the default
/// simulation runs with ``NoEventLog`` and pays nothing for it.
public struct AppMetricsRecorder: DeviceEventSink {
    /// Per app, by app number.
    public private(set) var apps: [AppMetrics]
    /// What goes to no app: BGTask batch wake-ups and radio tails.
    public private(set) var shared = AppMetrics()
    /// The whole event log too, when made with `keepingEvents`.
    public private(set) var log: EventRecorder?

    public init(apps: Int, keepingEvents: Bool = false) {
        self.apps = Array(repeating: AppMetrics(), count: apps)
        log = keepingEvents ? EventRecorder() : nil
    }

    public static var isEnabled: Bool { true }

    public mutating func record(_ event: DeviceEvent) {
        if log != nil { log!.record(event) }
        let a = Int(event.app)
        guard a >= 0 && a < apps.count else {
            // Rows without an app: of those, only wakes and tails carry energy.
            shared.sharedEnergy = shared.sharedEnergy + event.energy
            return
        }
        switch event.kind {
        case .launch:
            apps[a][.launches] += 1
            if event.fresh == true { apps[a][.freshLaunches] += 1 }
            apps[a][.ageSumSeconds] += event.ageSeconds ?? 0
            apps[a][.sinceRefreshSumSeconds] += event.sinceRefreshSeconds ?? 0
        case .task:
            apps[a].taskEnergy = apps[a].taskEnergy + event.energy
            switch event.outcome {
            case .success?:
                apps[a][.tasksSucceeded] += 1
                if event.newData == true { apps[a][.refreshesNewData] += 1 }
            case .failed?:
                apps[a][.tasksFailed] += 1
                apps[a][.wastedJoules] += event.energy.total
            case .expired?:
                apps[a][.tasksExpired] += 1
                apps[a][.wastedJoules] += event.energy.total
            case nil:
                apps[a][.tasksCensored] += 1
            }
        default:
            // A mechanism's rows (`DeviceEvent.endsMechanismRun`: the row
            // that ends one of its runs) and the app's other rows
            // (submitted, chain_break, force_quit, cancelled, update), which
            // carry no energy: added all the same, so that a later kind with
            // energy is never lost from the sums.
            if event.endsMechanismRun { apps[a][.mechanismRuns] += 1 }
            apps[a].mechanismEnergy = apps[a].mechanismEnergy + event.energy
        }
    }

    public mutating func attribute(app: Int32, energy: EnergyLedger) {
        let a = Int(app)
        guard a >= 0 && a < apps.count else { shared.sharedEnergy = shared.sharedEnergy + energy; return }
        apps[a].mechanismEnergy = apps[a].mechanismEnergy + energy
    }

    public mutating func attribute(app: Int32, bytes: Double, network: NetworkType) {
        let a = Int(app)
        guard a >= 0 && a < apps.count else { return }
        if network == .cellular { apps[a][.bytesCellular] += bytes } else { apps[a][.bytesWifi] += bytes }
    }
}
