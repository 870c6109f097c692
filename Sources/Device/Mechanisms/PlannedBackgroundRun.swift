import SimCore

/// One background run beside the worker: a silent push's handler run (the
/// app's `refresh` work within ``SilentPushRules/handlerBudget``) or the
/// extra time an app asks for at a session's end (`beginBackgroundTask`).
/// Planned whole at its start, since nothing but the network going offline
/// can end it early (a session start does not: the app simply comes to
/// the foreground), and the next offline time is known from the trace.
///
/// Outcome, as a task's (`DeviceSimulator+Tasks.swift`): expired when the
/// budget ends before the work does; failed (at the data end) when the
/// failure draw says so, or at the moment the network goes offline during
/// the data phase (connection lost); success otherwise.
struct PlannedBackgroundRun: Hashable {
    var app: Int32
    var start: SimTime
    /// When the bytes are in (== start without network work).
    var dataEnd: SimTime
    var end: SimTime
    var outcome: TaskOutcome
    /// CPU seconds that ran (charged at the run's end).
    var cpuRan: Double
    /// Energy charged at its start (wake, promotion, active); CPU added at the end.
    var ledger: EnergyLedger

    /// Plans a run starting at `start` whose data phase ends at `dataEnd`,
    /// followed by `cpuSeconds` of CPU; `fails` is the failure draw;
    /// `offlineAt` the next time the device goes offline (`.farFuture`: not
    /// in the run).
    static func plan(app: Int32, start: SimTime, dataEnd: SimTime, cpuSeconds: Double, fails: Bool,
                     budget: SimDuration, offlineAt: SimTime, ledger: EnergyLedger) -> PlannedBackgroundRun {
        let deadline = start + budget
        var run = PlannedBackgroundRun(app: app, start: start, dataEnd: dataEnd, end: dataEnd, outcome: .success,
                                       cpuRan: 0, ledger: ledger)
        if offlineAt < dataEnd && offlineAt < deadline {
            run.end = max(start, offlineAt)
            run.outcome = .failed
            return run
        }
        let natural = fails ? dataEnd : dataEnd + .seconds(cpuSeconds)
        run.end = min(natural, deadline)
        run.outcome = run.end < natural ? .expired : (fails ? .failed : .success)
        if run.outcome != .failed { run.cpuRan = max(0, min(cpuSeconds, (run.end - dataEnd).seconds)) }
        return run
    }
}
