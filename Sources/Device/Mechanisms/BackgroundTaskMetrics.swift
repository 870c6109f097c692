/// Per-user `beginBackgroundTask` counts and energy (`UserMetrics.backgroundTask`).
public struct BackgroundTaskMetrics: Sendable, Hashable {
    /// Session ends at which the app asked for extra time and got it.
    public var started = 0
    /// Asked while the app's previous extra time still ran (not started again).
    public var alreadyRunning = 0
    /// Runs whose work finished in time (the app ended the task).
    public var ended = 0
    /// Runs expired at the budget.
    public var expired = 0
    /// Runs that failed (server, no network, connection lost).
    public var failed = 0
    /// Energy of the runs (promotion, active, CPU; no wake, tails
    /// excluded), joules.
    public var energyJoules = 0.0
    /// Of it, the energy of expired and failed runs.
    public var wastedJoules = 0.0

    public init() {}

    static let columns: [UserMetrics.Column] = [
        .init(name: "bg_task_started", unit: "count", description: "beginBackgroundTask runs at session ends") { Double($0.backgroundTask.started) },
        .init(name: "bg_task_already_running", unit: "count", description: "asks while the app's previous extra time still ran (not started)") { Double($0.backgroundTask.alreadyRunning) },
        .init(name: "bg_task_ended", unit: "count", description: "runs whose work finished in time (endBackgroundTask)") { Double($0.backgroundTask.ended) },
        .init(name: "bg_task_expired", unit: "count", description: "runs expired at the extra-time budget") { Double($0.backgroundTask.expired) },
        .init(name: "bg_task_failed", unit: "count", description: "runs failed (server, no network, connection lost)") { Double($0.backgroundTask.failed) },
        .init(name: "bg_task_energy_j", unit: "J", description: "energy of the extra-time runs (promotion, active, CPU; tails excluded), included in energy_total_j") { $0.backgroundTask.energyJoules },
        .init(name: "bg_task_wasted_j", unit: "J", description: "bg_task_energy_j of expired and failed runs") { $0.backgroundTask.wastedJoules },
    ]
}
