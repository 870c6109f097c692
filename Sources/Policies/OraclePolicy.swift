import Device
import SimCore

/// `oracle` — a foresight reference, not a realisable policy: it sees the
/// trace's future launches and content updates, and refreshes an app only
/// for a launch that would otherwise be stale, as late as it usefully can.
///
/// For each pending refresh request, with `L` the app's next launch and `U`
/// the last content update before `L`: if nothing was published since the
/// app's content was last fetched (foreground or by a finished background
/// refresh), nothing is done (the launch will be fresh anyway). Otherwise
/// the refresh runs
/// - at the first decision point in [L − `radioWindow`, L) where the radio
///   is already up (a foreground session's or another task's tail: no
///   promotion) and no update is still to come before `L` (now ≥ `U`);
/// - else at `L − leadTime` (or at `U`, if the update comes later), the
///   latest moment that leaves the task time to finish;
/// - and if the request is not eligible then, at every later decision point
///   until the launch (it asks to be woken at the request's
///   `earliestBeginDate` when only that blocks it; other refusals end with a
///   state change, which is a decision point).
/// It is deterministic: the same trace gives the same runs.
///
/// It is a reference, **not a strict upper bound** on freshness or on
/// freshness per joule: it obeys the OS rules and works only with the
/// requests the apps submit (their `earliestBeginDate`s, broken chains,
/// Low Power Mode), its refreshes fail with the app's failure probability
/// like any other, it decides app by app (no joint choice of which
/// refreshes share a wake beyond riding tails that are already up), and it
/// judges freshness from a task's start. So a policy can beat it on some
/// users (greedy may catch an update published inside the lead window; a
/// lucky batch may be cheaper), and "fraction of the oracle" is a guide,
/// not a proof of optimality.
///
/// Source: the "knows future launches" reference of the brief.
/// Parameters:
/// - `leadTime` (duration, default 1m): the latest a refresh starts before
///   the launch (long enough for the task to finish).
/// - `radioWindow` (duration, default 10m): how long before the launch a
///   refresh may ride a radio that is already up.
public struct OraclePolicy: SchedulingPolicy {
    public static var needsFutureKnowledge: Bool { true }
    public static var observedKinds: ObservationKinds { [.launch, .taskFinished] }
    public var leadTime: SimDuration
    public var radioWindow: SimDuration
    /// When each app's content was last fetched (foreground or background).
    var lastFetch: [SimTime] = []

    public init(leadTime: SimDuration = .minutes(1), radioWindow: SimDuration = .minutes(10)) {
        self.leadTime = leadTime
        self.radioWindow = radioWindow
    }

    mutating func setFetched(_ app: Int32, _ t: SimTime, apps: Int) {
        let n = max(apps, Int(app) + 1)
        if lastFetch.count < n { lastFetch += Array(repeating: .zero, count: n - lastFetch.count) }
        lastFetch[Int(app)] = t
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        switch observation {
        case .launch(let app) where context.device.network.isOnline:
            setFetched(app, context.now, apps: context.appCount)
        case .taskFinished(let r) where r.outcome == .success && r.request.kind.refreshesContent:
            // The start, not the end: conservative (an update during the task counts as missed).
            setFetched(r.request.app, r.start, apps: context.appCount)
        default:
            break
        }
    }

    /// The last update of `app` in (after, before), or nil (binary search).
    static func lastUpdate(_ future: FutureLaunches, app: Int32, after: SimTime, before: SimTime) -> SimTime? {
        guard Int(app) < future.contentUpdates.count else { return nil }
        let u = future.contentUpdates[Int(app)]
        var lo = 0, hi = u.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if u[mid] < before { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, u[lo - 1] > after else { return nil }
        return u[lo - 1]
    }

    public func decide(context: PolicyContext) -> PolicyDecision {
        guard let future = context.future else { return .none }
        let now = context.now
        var radioUp = false
        if let up = context.radioUpUntil, up > now, context.device.network.isOnline { radioUp = true }
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            guard a < future.launches.count, let launch = future.nextLaunch(app: r.app, after: now) else { continue }
            let fetched = a < lastFetch.count ? lastFetch[a] : .zero
            // Fresh at the launch without a refresh: nothing to do before it.
            guard let update = Self.lastUpdate(future, app: r.app, after: fetched, before: launch) else { continue }
            let latest = launch - leadTime
            let due: Bool
            if now < update {
                due = false // an update is still to come: refreshing now would be wasted
            } else if now >= latest {
                due = true
            } else {
                due = radioUp && now >= launch - radioWindow
            }
            var at: SimTime
            if due {
                switch context.refusal(for: r) {
                case nil:
                    run.append(r.id)
                    continue
                case .beforeEarliestBegin?:
                    at = r.earliestBegin
                default:
                    continue // a state change brings the next decision
                }
            } else {
                at = max(latest, update)
                if r.earliestBegin > at { at = r.earliestBegin }
            }
            if at < launch && (wake == nil || at < wake!) { wake = at }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
