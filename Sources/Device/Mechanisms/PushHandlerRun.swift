import SimCore

/// One background run of an app woken by a silent push: it fetches what a
/// refresh fetches (the app's `refresh` work: server latency, bytes, CPU)
/// within ``SilentPushRules/handlerBudget``. Planned whole at delivery,
/// since nothing but the network going offline can end it early (a
/// session start does not: the app simply comes to the foreground), and
/// the next offline time is known from the trace.
///
/// Outcome, as a task's (`DeviceSimulator+Tasks.swift`): expired when the
/// budget ends before the work does; failed (at the data end) when the
/// failure draw says so, or at the moment the network goes offline during
/// the data phase (connection lost); success otherwise, and then the app's
/// copy includes every update published up to the data end.
struct PushHandlerRun: Hashable {
    var app: Int32
    var start: SimTime
    /// When the bytes are in (== start without network work).
    var dataEnd: SimTime
    var end: SimTime
    var outcome: TaskOutcome
    /// CPU seconds that ran (charged at the run's end).
    var cpuRan: Double
    /// The first push it answers and how many (coalesced) pushes.
    var firstSentAt: SimTime
    var pushes: Int
    /// Energy charged at delivery (wake, promotion, active); CPU added at the end.
    var ledger: EnergyLedger

    /// Plans a run starting at `start` whose data phase ends at `dataEnd`,
    /// followed by `cpuSeconds` of CPU; `fails` is the failure draw;
    /// `offlineAt` the next time the device goes offline (`.farFuture`: not
    /// in the run).
    static func plan(app: Int32, start: SimTime, dataEnd: SimTime, cpuSeconds: Double, fails: Bool,
                     budget: SimDuration, offlineAt: SimTime, firstSentAt: SimTime, pushes: Int,
                     ledger: EnergyLedger) -> PushHandlerRun {
        let deadline = start + budget
        var run = PushHandlerRun(app: app, start: start, dataEnd: dataEnd, end: dataEnd, outcome: .success,
                                 cpuRan: 0, firstSentAt: firstSentAt, pushes: pushes, ledger: ledger)
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
