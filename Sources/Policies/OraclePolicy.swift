import Device
import SimCore

/// `oracle` — a bound, not a realisable policy: it sees the trace's future
/// launches and content updates, and refreshes an app just before a launch
/// that would otherwise be stale, and never otherwise. It approaches the
/// limit of freshness per joule (within the apps' own `earliestBeginDate`s
/// and the OS rules, which it obeys like any policy).
///
/// Source: the "knows future launches" bound of the brief.
/// Parameters:
/// - `leadTime` (duration, default 1m): how long before the launch to refresh
///   (long enough for the task to finish).
public struct OraclePolicy: SchedulingPolicy {
    public static var needsFutureKnowledge: Bool { true }
    public static var observedKinds: ObservationKinds { [.launch, .taskFinished] }
    public var leadTime: SimDuration
    /// When each app's content was last fetched (foreground or background).
    var lastFetch: [SimTime] = []

    public init(leadTime: SimDuration = .minutes(1)) { self.leadTime = leadTime }

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

    public func decide(context: PolicyContext) -> PolicyDecision {
        guard let future = context.future else { return .none }
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            guard a < future.launches.count, let launch = future.nextLaunch(app: r.app, after: context.now) else { continue }
            let runFrom = launch - leadTime
            if context.now >= runFrom {
                let fetched = a < lastFetch.count ? lastFetch[a] : .zero
                if future.hasUpdate(app: r.app, after: fetched, upTo: context.now) {
                    if context.isEligible(r) { run.append(r.id) }
                } else if let u = future.nextUpdate(app: r.app, after: context.now), u < launch {
                    // Fresh for now: look again when the next update is published.
                    let at = max(u, r.earliestBegin)
                    if wake == nil || at < wake! { wake = at }
                }
            } else {
                let at = max(runFrom, r.earliestBegin)
                if wake == nil || at < wake! { wake = at }
            }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
