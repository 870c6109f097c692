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

    /// Whether `r` runs now (a pure function of the request and the context,
    /// whose device-state rules `eligibility` holds).
    @inline(__always)
    func runsNow(_ r: TaskRequest, _ eligibility: EligibilityTest) -> Bool {
        guard eligibility.allows(r) else { return false }
        return r.kind == .processing || eligibility.now >= (due(r.app) - flex).microseconds
    }

    /// Runs processing when eligible and refreshes when due (within `flex`).
    ///
    /// Answers `runAllEligible` instead of a list when every eligible
    /// request runs (the usual case): the same requests in the same order,
    /// without allocating an array per decision. The list is built only
    /// when some eligible request is not yet due.
    ///
    /// The loop is the hottest policy code of the default suite (six of its
    /// twelve configurations run it at every decision point), hence its
    /// form: the device-state rules read once (`EligibilityTest`), times as
    /// plain microseconds, `pending` and `lastRun` walked through buffer
    /// pointers (no bounds checks: `lastRun` is indexed after an explicit
    /// range test), and the earliest wake kept as a plain time and a flag
    /// rather than an optional. Same requests, order and wake as `runsNow`
    /// request by request: a request not yet due (or not eligible) asks for
    /// a wake at max(due, earliestBegin) if that is after now, and the
    /// earliest such time is the wake (nil if none). `FastPathTests`
    /// compares it with the plain loop on random contexts.
    public func decide(context: PolicyContext) -> PolicyDecision {
        let eligibility = EligibilityTest(context)
        let now = eligibility.now
        let interval = interval.microseconds, flex = flex.microseconds
        var wake = Int64.max, hasWake = false
        // Counts, not flags: some eligible request is held when fewer run
        // than are eligible. (Boolean flags carried around the loop made the
        // optimiser duplicate the loop body per flag state.)
        var runs = 0, eligibles = 0
        lastRun.withUnsafeBufferPointer { lastRun in
            context.pending.withUnsafeBufferPointer { pending in
                for r in pending {
                    let eligible = eligibility.allows(r)
                    if eligible { eligibles &+= 1 }
                    if r.kind == .processing { if eligible { runs &+= 1 }; continue }
                    // `due(r.app)`: never run (or beyond `lastRun`) is due at time zero.
                    let a = Int(r.app)
                    let due = UInt(bitPattern: a) < UInt(lastRun.count) ? lastRun[a].microseconds + interval : 0
                    if eligible && now >= due - flex { runs &+= 1; continue }
                    let at = max(due, r.earliestBegin.microseconds)
                    // `<=`: the first time after now sets the flag even if
                    // it is the sentinel's value.
                    if at > now && at <= wake { wake = at; hasWake = true }
                }
            }
        }
        let wakeAt = hasWake ? SimTime(microseconds: wake) : nil
        if runs == 0 { return PolicyDecision(wakeAt: wakeAt) }
        if runs == eligibles { return PolicyDecision(runAllEligible: true, wakeAt: wakeAt) }
        var run: [RequestID] = []
        run.reserveCapacity(runs)
        for r in context.pending where runsNow(r, eligibility) { run.append(r.id) }
        return PolicyDecision(run: run, wakeAt: wakeAt)
    }
}
