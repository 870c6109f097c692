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
///
/// Its rule is one plan per request (``RequestPlanningPolicy``): `decide`
/// is derived from it, and the simulator keeps the plans instead of asking
/// at every decision point.
public struct FixedIntervalPolicy: RequestPlanningPolicy {
    /// Only task reports (they move `lastRun`).
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: .taskFinished) }
    /// A report changes only `lastRun` of the reported app.
    public static var planningScope: PlanScope { .observedApp }

    public var interval: SimDuration
    public var flex: SimDuration
    /// Last background run start per app (grows on demand).
    var lastRun: [SimTime] = []

    public init(interval: SimDuration = .hours(1), flex: SimDuration = .minutes(5)) {
        self.interval = interval
        self.flex = flex
    }

    /// When `app`'s refresh is due: `interval` after its last background
    /// run, time zero if none. (`SimTime(microseconds: 0)`, not `.zero`: a
    /// static of another module is read through an accessor call.)
    @inline(__always)
    func due(_ app: Int32) -> SimTime {
        Int(app) < lastRun.count ? lastRun[Int(app)] + interval : SimTime(microseconds: 0)
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        guard case .taskFinished(let report) = observation, report.request.kind.refreshesContent else { return }
        let a = Int(report.request.app)
        if lastRun.count <= a { lastRun += Array(repeating: SimTime(microseconds: Int64.min / 4), count: a + 1 - lastRun.count) }
        lastRun[a] = report.start
    }

    /// Processing runs whenever the OS allows it (no wake of its own); a
    /// refresh runs from `flex` before it is due (`interval` after the
    /// app's last background run, time zero if none) and wakes the device
    /// when it is due (not before its earliest begin).
    public func plan(for r: TaskRequest) -> RequestPlan {
        if r.kind == .processing { return RequestPlan(runFrom: SimTime(microseconds: .min), wakeAt: nil) }
        let due = due(r.app)
        return RequestPlan(runFrom: due - flex, wakeAt: max(due, r.earliestBegin))
    }
}

