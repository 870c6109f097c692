import Device
import SimCore

/// `oracle-planner` — a sharper foresight reference than `oracle`: it sees
/// the same future (launches and content updates) and refreshes only for
/// launches that would otherwise be stale, but it plans *where* in the
/// window before such a launch the refresh is cheapest instead of always
/// aiming at its end.
///
/// For each pending refresh of app `a`, with `L` its next launch and `U`
/// the last update before `L` not yet fetched (none: `L` is fresh anyway,
/// nothing is done):
/// - while an update is still to come before `L` (now < `U`), it waits:
///   a refresh now would be stale again at `L`;
/// - from `U` on, a refresh now keeps `L` fresh whatever happens until
///   `L`, so it runs at the first decision point where it is cheap: the
///   radio is already up (a session's or another task's tail: no
///   promotion) or the device is on Wi-Fi (no cellular tail) — it asks to
///   be woken at `U` for that;
/// - otherwise (cellular, radio idle) it waits for a cheap moment, up to
///   `L − leadTime`, when it runs whatever the cost, as `oracle` does.
/// - and never while the run would fail for a reason it foresees (issue
///   19): inside an outage of the app's backend or a dead zone, a networked
///   refresh waits for its end if that is before `L` (it asks to be woken
///   then) and is dropped for `L` otherwise, as in `oracle`.
/// Every refresh that runs leaves the radio up, and the decision point at
/// its end lets every other app whose window is open ride it: the
/// refreshes of several launches gather on one promotion.
///
/// What it knows beyond `oracle`: nothing (both see launches, updates,
/// outages and dead zones); what it does better: it uses
/// the whole window [`U`, `L`) rather than the last `radioWindow` of it.
/// What it still does not do: it does not see the future network or
/// charging (the context offers the present only), so it cannot wait for
/// a Wi-Fi that will come, nor choose jointly which launches to skip. Like
/// `oracle` it is a reference, **not a strict bound**: it obeys the OS
/// rules, works with the requests the apps submit, its refreshes fail with
/// the app's failure probability, and it judges freshness from a task's
/// start.
///
/// Sources: the tail energy of Huang et al. (MobiSys 2012) and TailEnder's
/// batching (Balasubramanian et al., IMC 2009; REFERENCES.md) for why
/// riding an up radio and Wi-Fi are the cheap moments.
/// Parameters:
/// - `leadTime` (duration, default 1m): the latest a refresh starts before
///   the launch (long enough for the task to finish), as `oracle`'s.
public struct OraclePlannerPolicy: SchedulingPolicy {
    /// A bound: it sees the future; it reads launches and task reports
    /// (when the content was last fetched).
    public static var traits: PolicyTraits {
        PolicyTraits(needsFutureKnowledge: true, observedKinds: [.launch, .taskFinished])
    }
    /// The fetch bookkeeping and the future's search cursors are the
    /// oracle's (the same observations, the same searches).
    var oracle: OraclePolicy

    public init(leadTime: SimDuration = .minutes(1)) {
        oracle = OraclePolicy(leadTime: leadTime)
    }

    public var leadTime: SimDuration { oracle.leadTime }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        oracle.observe(observation, context: context)
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        guard let future = context.future else { return .none }
        let now = context.now
        let online = context.device.network.isOnline
        let radioUp = online && (context.radioUpUntil ?? .zero) > now
        let cheap = radioUp || context.device.network == .wifi
        var run: [RequestID] = []
        var wake: SimTime? = nil
        func wakeAt(_ t: SimTime, before launch: SimTime) {
            if t < launch && (wake.map { t < $0 } ?? true) { wake = t }
        }
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            guard a < future.launches.count else { continue }
            if a >= oracle.apps.count { oracle.grow(a + 1) }
            guard let (launch, lastUpdate) = oracle.launchAndUpdate(future, app: a, now: now) else { continue }
            guard let update = lastUpdate else { continue }  // fresh at the launch anyway
            let latest = launch - oracle.leadTime
            if now < update {
                // An update is still to come: look again when it is out.
                wakeAt(max(update, r.earliestBegin), before: launch)
                continue
            }
            guard cheap || now >= latest else {
                // Cellular with the radio idle: a cheaper moment may come
                // (a state change, a task's tail); at the latest, run anyway.
                wakeAt(max(latest, r.earliestBegin), before: launch)
                continue
            }
            switch context.refusal(for: r) {
            case nil:
                // Foreseen to fail now (outage, dead zone): after it, or not for this launch.
                if r.requiresNetworkConnectivity, let free = future.networkedRunBlocked(app: r.app, at: now) {
                    wakeAt(free, before: launch)
                } else {
                    run.append(r.id)
                }
            case .beforeEarliestBegin?: wakeAt(r.earliestBegin, before: launch)
            default: break  // a state change brings the next decision
            }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
