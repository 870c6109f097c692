/// Per-user continued-processing counts and energy (`UserMetrics.continuedProcessing`).
public struct ContinuedProcessingMetrics: Sendable, Hashable {
    /// Jobs the user started (requests submitted).
    public var requested = 0
    /// Requests that started running (at once or from the queue).
    public var started = 0
    /// `.queue` requests that had to wait.
    public var queued = 0
    /// `.fail` requests that could not start at once.
    public var failedToStart = 0
    /// Queued requests dropped when the user force-quit the app.
    public var droppedForceQuit = 0
    /// Jobs whose work finished (`setTaskCompleted(success: true)`).
    public var completed = 0
    /// Jobs whose work failed (server, no network, connection lost).
    public var failed = 0
    /// Jobs the user cancelled.
    public var cancelledByUser = 0
    /// Jobs the system ended under resource pressure.
    public var expiredPressure = 0
    /// Energy of the runs (promotion, active, CPU; no wake, tails excluded), joules.
    public var energyJoules = 0.0
    /// Of it, the energy of runs that did not complete (failed, cancelled, expired).
    public var wastedJoules = 0.0
    /// Sum over started jobs of the time from submission to start, seconds.
    public var queueWaitSeconds = 0.0

    public init() {}

    static let columns: [UserMetrics.Column] = [
        .init(name: "cp_requested", unit: "count", description: "continued-processing jobs the user started (requests submitted)") { Double($0.continuedProcessing.requested) },
        .init(name: "cp_started", unit: "count", description: "continued-processing requests that started running") { Double($0.continuedProcessing.started) },
        .init(name: "cp_queued", unit: "count", description: ".queue requests that had to wait") { Double($0.continuedProcessing.queued) },
        .init(name: "cp_failed_to_start", unit: "count", description: ".fail requests that could not start at once") { Double($0.continuedProcessing.failedToStart) },
        .init(name: "cp_dropped_force_quit", unit: "count", description: "queued requests dropped when the user force-quit the app") { Double($0.continuedProcessing.droppedForceQuit) },
        .init(name: "cp_completed", unit: "count", description: "jobs whose work finished") { Double($0.continuedProcessing.completed) },
        .init(name: "cp_failed", unit: "count", description: "jobs whose work failed (server, no network, connection lost)") { Double($0.continuedProcessing.failed) },
        .init(name: "cp_cancelled_by_user", unit: "count", description: "jobs the user cancelled while they ran") { Double($0.continuedProcessing.cancelledByUser) },
        .init(name: "cp_expired_pressure", unit: "count", description: "jobs the system ended under resource pressure (least progress first)") { Double($0.continuedProcessing.expiredPressure) },
        .init(name: "cp_energy_j", unit: "J", description: "energy of the continued-processing runs (promotion, active, CPU; tails excluded), included in energy_total_j") { $0.continuedProcessing.energyJoules },
        .init(name: "cp_wasted_j", unit: "J", description: "cp_energy_j of runs that did not complete") { $0.continuedProcessing.wastedJoules },
        .init(name: "cp_queue_wait_s", unit: "s", description: "total wait from submission to start of the started jobs") { $0.continuedProcessing.queueWaitSeconds },
    ]
}
