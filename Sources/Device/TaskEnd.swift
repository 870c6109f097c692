import SimCore

/// How a background task's run ends, worked out before anything changes:
/// from the run (``TaskWorker/RunningTask``), the time, why it ends and the
/// app's model. The first half of "work it out, then apply":
/// `DeviceSimulator.finishRunningTask` applies it in one place, and the
/// metrics (``MetricsAccumulator/taskEnded(_:energy:wastedRefresh:)``), the
/// app's content, the task row of the event log and the policy's report all
/// read this one value, so none of them works the outcome out again (only
/// what depends on the fetch itself, new data or none and a wasted
/// refresh, is read from the fetch when it is applied).
///
/// The rules (Docs/Semantics.md, "Background tasks"): a run that lost its
/// connection fails; one cut short (interrupted, at its budget, held by a
/// handler that never completes, or past its budget by ignoring its
/// cancellation) expires (rule 5); otherwise it succeeds unless its drawn
/// failure (or a blocked network, ``NetworkedRunBlock``) fails it. A
/// failed run computes nothing; an expired one computed until now.
struct TaskEnd {
    /// What happens to the app's copy of its content or its processing work.
    enum ContentEffect: Equatable {
        case none
        /// The app's copy takes in the content published up to the data end;
        /// `reported`: a completed run whose fetch result the app reports (a
        /// held run's copy is updated with no report).
        case fetch(reported: Bool)
        /// The processing work is done at this time (progress back to 0).
        case processingDone(at: SimTime)
        /// An expired processing run that checkpoints keeps this much CPU.
        case checkpoint(seconds: Double)
    }

    /// The task row's `detail` (Docs/Outputs.md); at most one applies.
    enum Detail: UInt8 {
        case none, neverCompleted, ignoredCancellation, deadZone, backendOutage

        /// The column's text ("" for none).
        var text: String {
            switch self {
            case .none: ""
            case .neverCompleted: "never_completed"
            case .ignoredCancellation: "ignored_cancellation"
            case .deadZone: "dead_zone"
            case .backendOutage: "backend_outage"
            }
        }
    }

    var outcome: TaskOutcome
    /// Held to its budget by a handler that never completes.
    var held: Bool
    /// A SwiftUI handler that ran past its budget (it is expired even if its work returned).
    var overran: Bool
    /// CPU seconds the run computed by now, and the joules charged for them
    /// (none for a completed failure: a failed run computes nothing).
    var cpuSeconds: Double
    var cpuJoules: Double
    var content: ContentEffect
    /// The fetch result reported when the run did not fetch (`failed`, or
    /// `newData` from an app that does not report honestly); nil: none, or
    /// it follows the fetch (``ContentEffect/fetch(reported:)``).
    var failureReport: FetchResult?
    var detail: Detail

    /// Works out the end at `now` of `run` (its transfer already cut at
    /// `now` if its bytes were not in), ending because of an interruption
    /// (`interrupted`), a lost connection (`connectionLost`), or neither
    /// (its natural end or its budget).
    @inline(__always)
    init(_ run: TaskWorker.RunningTask, at now: SimTime, interrupted: Bool, connectionLost: Bool,
         budget: SimDuration, cpuWatts: Double, reportsHonestly: @autoclosure () -> Bool,
         checkpointsOnExpiration: @autoclosure () -> Bool) {
        let kind = run.request.kind
        held = run.neverCompletes
        overran = run.ignoresCancellation && now.microseconds > run.start.microseconds &+ budget.microseconds
        let expired = !connectionLost && (interrupted || now < run.naturalEnd || held || overran)
        outcome = expired ? .expired : (run.fails ? .failed : .success)
        (cpuSeconds, cpuJoules) = Self.cpu(of: run, at: now, cpuWatts: cpuWatts, expired: expired)
        failureReport = nil
        content = .none
        switch outcome {
        case .success:
            content = kind.refreshesContent ? .fetch(reported: true) : .processingDone(at: now)
        case .failed:
            if kind.refreshesContent { failureReport = reportsHonestly() ? .failed : .newData }
        case .expired:
            // A held run did its work if it ran to its natural end: only the
            // completion call is missing (the app's copy has the content).
            let workDone = held && !run.fails && now >= run.naturalEnd
            if workDone {
                content = kind.refreshesContent ? .fetch(reported: false) : .processingDone(at: run.naturalEnd)
            } else if kind == .processing && checkpointsOnExpiration() {
                content = .checkpoint(seconds: cpuSeconds)
            }
            // No completion call from a held run, so no fetch result.
            if !held && kind.refreshesContent { failureReport = reportsHonestly() ? .failed : .newData }
        }
        // At most one applies: a SwiftUI handler (`overran`) is never held,
        // and a held run ends expired, not failed.
        detail = held ? .neverCompleted : overran ? .ignoredCancellation
            : run.block == .deadZone ? .deadZone
            : (outcome == .failed && run.block == .backendOutage) ? .backendOutage : .none
    }

    /// The CPU seconds `run` computed by `now` (from its data end, at most
    /// its CPU), and the joules charged for them: none for a failed run
    /// unless it was cut short first (a failed run computes nothing). The
    /// one computation for a run's end and for the run censored at the
    /// horizon (`expired` false: `DeviceSimulator.censorRunningTask`).
    @inline(__always)
    static func cpu(of run: TaskWorker.RunningTask, at now: SimTime, cpuWatts: Double,
                    expired: Bool) -> (seconds: Double, joules: Double) {
        // `(now - dataEnd).seconds`, without the overflow test.
        let seconds = max(0, min(run.cpuSeconds, Double(now.microseconds &- run.dataEnd.microseconds) / 1_000_000))
        return (seconds, (run.fails && !expired) ? 0 : seconds * cpuWatts)
    }
}
