import Device
import SimCore

/// `fixed-interval` — refreshes each app every `interval`, as
/// `setMinimumBackgroundFetchInterval` or Android periodic work.
///
/// An app's refresh is due `interval` after its last background run; it may
/// run early by up to `flex` at any decision point (Android's flex window:
/// periodic work runs somewhere in the last `flex` of its period), and the
/// policy asks to be woken when the next one is due. Processing requests run
/// as soon as eligible.
///
/// Source: Apple, `setMinimumBackgroundFetchInterval(_:)`; Android
/// `PeriodicWorkRequest` (minimum interval 15 min, minimum flex 5 min).
/// Parameters:
/// - `interval` (duration, default 1h): the period per app.
/// - `flex` (duration, default 5m): how early a due refresh may run.
public struct FixedIntervalPolicy: SchedulingPolicy {
    public static var observedKinds: ObservationKinds { .taskFinished }
    public var interval: SimDuration
    public var flex: SimDuration
    /// Last background run start per app (grows on demand).
    var lastRun: [SimTime] = []

    public init(interval: SimDuration = .hours(1), flex: SimDuration = .minutes(5)) {
        self.interval = interval
        self.flex = flex
    }

    func due(_ app: Int32) -> SimTime {
        Int(app) < lastRun.count ? lastRun[Int(app)] + interval : .zero
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        guard case .taskFinished(let report) = observation, report.request.kind.refreshesContent else { return }
        let a = Int(report.request.app)
        if lastRun.count <= a { lastRun += Array(repeating: SimTime(microseconds: Int64.min / 4), count: a + 1 - lastRun.count) }
        lastRun[a] = report.start
    }

    /// Whether `r` runs now (a pure function of the request and the context).
    @inline(__always)
    func runsNow(_ r: TaskRequest, _ context: PolicyContext) -> Bool {
        guard context.isEligible(r) else { return false }
        return r.kind == .processing || context.now >= due(r.app) - flex
    }

    /// Runs processing when eligible and refreshes when due (within `flex`).
    ///
    /// Answers `runAllEligible` instead of a list when every eligible
    /// request runs (the usual case): the same requests in the same order,
    /// without allocating an array per decision. The list is built only
    /// when some eligible request is not yet due.
    public func decide(context: PolicyContext) -> PolicyDecision {
        var wake: SimTime? = nil
        var runs = 0
        var holdsEligible = false
        for r in context.pending {
            // `runsNow(r, context)`, with the eligibility and due time
            // computed once for the rest of the loop body.
            let eligible = context.isEligible(r)
            if r.kind == .processing { if eligible { runs += 1 }; continue }
            let due = due(r.app)
            if eligible && context.now >= due - flex { runs += 1; continue }
            if eligible { holdsEligible = true }
            let at = max(due, r.earliestBegin)
            if at > context.now && (wake == nil || at < wake!) { wake = at }
        }
        if runs == 0 { return PolicyDecision(wakeAt: wake) }
        if !holdsEligible { return PolicyDecision(runAllEligible: true, wakeAt: wake) }
        var run: [RequestID] = []
        run.reserveCapacity(runs)
        for r in context.pending where runsNow(r, context) { run.append(r.id) }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
