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
///   state change, which is a decision point);
/// - but never while the run would fail for a reason it foresees:
///   inside an outage of the app's backend (`device.backendOutages`) or a
///   dead zone (`device.deadZones`) a networked refresh is put off to the
///   end of the outage or zone, if that is before the launch, and dropped
///   for this launch otherwise (``FutureLaunches/networkedRunBlocked(app:at:)``).
///   With both off this changes nothing.
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
/// What it foresees: the trace's launches and content updates, and the
/// world's outages and dead zones; not the future network or charging,
/// nor the drawn failures.
///
/// Source: the "knows future launches" upper bound of the benchmark (Docs/WritingAPolicy.md).
/// Parameters:
/// - `leadTime` (duration, default 1m): the latest a refresh starts before
///   the launch (long enough for the task to finish).
/// - `radioWindow` (duration, default 10m): how long before the launch a
///   refresh may ride a radio that is already up.
public struct OraclePolicy: SchedulingPolicy {
    /// A bound: it sees the future; it reads launches and task reports
    /// (when the content was last fetched).
    public static var traits: PolicyTraits {
        PolicyTraits(needsFutureKnowledge: true, observedKinds: [.launch, .taskFinished])
    }
    public var leadTime: SimDuration
    public var radioWindow: SimDuration
    /// Per app, when its content was last fetched and its search cursors
    /// (one array: one bounds check and one growth check per pending
    /// refresh instead of two).
    var apps: [AppEntry] = []

    /// When each app's content was last fetched, in app order (for tests;
    /// `.zero` where nothing was fetched yet, as for an app not in it).
    var lastFetch: [SimTime] { apps.map(\.lastFetch) }

    /// One app's entry in `apps`.
    struct AppEntry {
        /// When the app's content was last fetched (foreground or background).
        var lastFetch = SimTime.zero
        /// Where its next launch and the updates before it were found at
        /// the last decision.
        var cursor = Cursor()
    }

    /// A cache of `decide`'s two binary searches for one app.
    ///
    /// Why: for every pending refresh at every decision point, `decide`
    /// needs the app's first launch after now and the last content update
    /// before that launch: two binary searches, most of the oracle's time.
    /// Time moves forward from one decision to the next, and the next launch
    /// changes only when now passes it, so the indices found last time
    /// almost always still hold. Each is checked against the arrays before
    /// it is used (a few loads), and searched for again when it does not
    /// fit (a launch passed, a copy deciding ahead, another trace's
    /// future): on sorted arrays exactly one index passes the check, the
    /// one the search finds, so the answers are the searches'.
    struct Cursor {
        /// Index of the first launch after `now` (`launches.count`: none).
        var launch = 0
        /// Number of content updates before that launch.
        var updatesBefore = 0
    }

    public init(leadTime: SimDuration = .minutes(1), radioWindow: SimDuration = .minutes(10)) {
        self.leadTime = leadTime
        self.radioWindow = radioWindow
    }

    mutating func setFetched(_ app: Int32, _ t: SimTime, apps: Int) {
        let n = max(apps, Int(app) + 1)
        if self.apps.count < n { grow(n) }
        self.apps[Int(app)].lastFetch = t
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
    /// `decide` answers the same from its cursors (`launchAndUpdate`;
    /// `FastPathTests` compares the two).
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

    /// The index of the first element of `a` after `t` (`a.count`: none),
    /// `FutureLaunches.firstAfter`'s binary search.
    static func indexAfter(_ a: [SimTime], _ t: SimTime) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The index of the first element of `a` not before `t`: the number of
    /// elements before `t` (`lastUpdate`'s binary search).
    static func countBefore(_ a: [SimTime], _ t: SimTime) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Makes room for apps 0..<n (nothing fetched, cursors at the start).
    @inline(never)
    mutating func grow(_ n: Int) {
        apps += Array(repeating: AppEntry(), count: n - apps.count)
    }

    /// `future.nextLaunch(app: a, after: now)` and the last update of `a`
    /// before that launch and after its last fetch (`lastUpdate`), from the
    /// app's cursor, corrected where it no longer fits. The cursor is
    /// written only when it changes (a copy deciding ahead then shares the
    /// array instead of copying it). nil for the launch: none after now;
    /// nil for the update: nothing to refresh for. `a` must be below
    /// `apps.count`.
    @inline(__always)
    mutating func launchAndUpdate(_ future: FutureLaunches, app a: Int, now: SimTime) -> (launch: SimTime, update: SimTime?)? {
        let entry = apps[a]
        let cursor = entry.cursor
        let launches = future.launches[a]
        var i = cursor.launch
        if !(i <= launches.count && (i == 0 || launches[i - 1] <= now) && (i == launches.count || launches[i] > now)) {
            i = Self.indexAfter(launches, now)
        }
        guard i < launches.count else {
            if cursor.launch != launches.count { apps[a].cursor.launch = launches.count }
            return nil
        }
        let launch = launches[i]
        if cursor.launch != i { apps[a].cursor.launch = i }
        guard a < future.contentUpdates.count else { return (launch, nil) }
        let u = future.contentUpdates[a]
        var k = cursor.updatesBefore
        if !(k <= u.count && (k == 0 || u[k - 1] < launch) && (k == u.count || u[k] >= launch)) {
            k = Self.countBefore(u, launch)
        }
        let update = k > 0 && u[k - 1] > entry.lastFetch ? u[k - 1] : nil
        if cursor.updatesBefore != k { apps[a].cursor.updatesBefore = k }
        return (launch, update)
    }

    /// Mutating only for the search cursors (`Cursor`), a cache: decisions
    /// are those of the searches.
    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        guard let future = context.future else { return .none }
        let now = context.now
        var radioUp = false
        if let up = context.radioUpUntil, up > now, context.device.network.isOnline { radioUp = true }
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            guard a < future.launches.count else { continue }
            if a >= apps.count { grow(a + 1) }
            guard let (launch, lastUpdate) = launchAndUpdate(future, app: a, now: now) else { continue }
            // Fresh at the launch without a refresh: nothing to do before it.
            guard let update = lastUpdate else { continue }
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
                    // Foreseen to fail now (outage, dead zone): after it, or not for this launch.
                    if r.requiresNetworkConnectivity, let free = future.networkedRunBlocked(app: r.app, at: now) {
                        at = free
                    } else {
                        run.append(r.id)
                        continue
                    }
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
