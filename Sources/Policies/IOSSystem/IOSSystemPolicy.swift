import Device
import SimCore

/// `ios-system` — a model of the discretionary scheduler iOS itself runs:
/// the baseline a study compares its policy with ("what does iOS do?").
///
/// It composes the factors Apple names in WWDC 2020 "Background execution
/// demystified" (session 10063), each in its own file of this folder:
/// - critically low battery and Low Power Mode: no refresh is even asked
///   for in Low Power Mode or under the device's low-battery threshold
///   (`context.eligibilityRules.lowBatteryPercent`, 20 % by default; the
///   OS rules refuse them too; this policy does not ask);
/// - app usage at this time of day: ``UsagePriority``;
/// - the Background App Refresh switch: the simulated OS's (an app with it
///   off submits nothing);
/// - system energy and data budgets spread over the day: ``EnergyBudget``,
///   ``CellularDataBudget``;
/// - rate limiting: ``RateLimiter``;
/// - fetch-result feedback and penalties: ``OpportunityRate``;
/// - processing in idle, charging periods for recently used apps:
///   ``ProcessingPlacement``.
/// - the app switcher: a force-quit app gets no background launch until
///   its next launch. The simulated OS enforces it (`Refusal.appForceQuit`);
///   this policy does not even ask for such an app (it reads
///   `context.device.forceQuitApps`; the app's next launch is a decision
///   point, since it observes launches).
///
/// The opportunity interval: an app's pending refresh (or legacy fetch) is
/// due `baseInterval / (rate · priority)` after the start of its last
/// refresh seen to finish, where `priority` is its usage priority now
/// (0…1) and `rate` its feedback multiplier; never while its priority is
/// 0. A due refresh runs if the OS allows it, the rate limiter has room,
/// and the energy budget (and, on cellular, the data budget) covers it.
///
/// Parameter (besides those of the components, documented on each):
/// - `baseInterval` (duration > 0, default 1h; assumption): the interval of an
///   app with priority 1 and rate 1 (with `maxRate` 4: 15 min, the usual
///   `earliestBeginDate` minimum).
///
/// It reads only `.launch` and `.taskFinished` observations and the
/// context; everything it records comes from observations, never from
/// having asked.
public struct IOSSystemPolicy: SchedulingPolicy {
    /// It reads launches and task reports only (`PolicyConformance` checks
    /// it against delivering every observation).
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: [.launch, .taskFinished]) }

    public var baseInterval: SimDuration
    public var usage: UsagePriority
    public var energy: EnergyBudget
    public var data: CellularDataBudget
    public var rate: OpportunityRate
    public var limiter: RateLimiter
    public var placement: ProcessingPlacement
    /// Start of each app's last refresh seen to finish.
    var lastRefreshStart: [SimTime] = []

    /// `lastRefreshStart` of an app whose refresh was never seen to finish.
    static var neverRefreshed: SimTime { SimTime(microseconds: Int64.min / 4) }

    public init(baseInterval: SimDuration = .hours(1), usage: UsagePriority = UsagePriority(),
                energy: EnergyBudget = EnergyBudget(), data: CellularDataBudget = CellularDataBudget(),
                rate: OpportunityRate = OpportunityRate(), limiter: RateLimiter = RateLimiter(),
                placement: ProcessingPlacement = ProcessingPlacement()) {
        self.baseInterval = baseInterval
        self.usage = usage
        self.energy = energy
        self.data = data
        self.rate = rate
        self.limiter = limiter
        self.placement = placement
    }

    mutating func ensure(apps: Int) {
        while lastRefreshStart.count < apps { lastRefreshStart.append(Self.neverRefreshed) }
        usage.ensure(apps: apps)
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        energy.sync(context)
        switch observation {
        case .launch(let app):
            ensure(apps: Int(app) + 1)
            usage.recordLaunch(app: Int(app), at: context.now)
        case .taskFinished(let report):
            let a = Int(report.request.app)
            ensure(apps: a + 1)
            energy.taskFinished()
            rate.record(report)
            if report.request.kind.refreshesContent {
                lastRefreshStart[a] = max(lastRefreshStart[a], report.start)
                limiter.record(start: report.start)
                data.refreshFinished(report, at: context.now)
            }
        default:
            break
        }
    }

    /// Whether the policy asks for refreshes at all in this state: not in
    /// Low Power Mode nor under the device's low-battery threshold (the
    /// OS's rule 4, read from the context so that a device configured with
    /// another threshold is modelled with it; WWDC 2020: "critically low
    /// battery", 20 % by default).
    static func refreshesAllowed(_ context: PolicyContext) -> Bool {
        context.eligibilityRules.contentRefreshBlocked(context.device) == nil
    }

    /// When the app's refresh is next due (nil: never, its priority is 0).
    public func refreshDue(app: Int, at t: SimTime) -> SimTime? {
        let p = usage.priority(app: app, at: t)
        guard p > 0 else { return nil }
        // Never refreshed: due now.
        guard app < lastRefreshStart.count, lastRefreshStart[app] > Self.neverRefreshed else { return .zero }
        let last = lastRefreshStart[app]
        // Capped at a year, so that a tiny priority (or a huge `baseInterval`)
        // gives a far time rather than an overflow.
        let micros = min(Double(SimDuration.days(365).microseconds),
                         Double(baseInterval.microseconds) / (rate.rate(app: app) * p))
        return last + SimDuration(microseconds: Int64(micros.rounded()))
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        let now = context.now
        ensure(apps: context.appCount)
        energy.sync(context)
        usage.roll(to: now)
        let refreshing = Self.refreshesAllowed(context)
        let room = limiter.room(at: now)
        let midnight = SimTime(day: now.day + 1)
        var run: [RequestID] = []
        var asked = 0, askedOnCellular = 0
        var wake: SimTime? = nil
        func wakeAt(_ t: SimTime?) {
            guard let t, t > now else { return }
            wake = wake.map { min($0, t) } ?? t
        }
        let forceQuit = context.device.forceQuitApps
        for r in context.pending {
            let app = Int(r.app)
            // The app switcher: nothing for a force-quit app until its next launch.
            if !forceQuit.isEmpty && forceQuit.contains(r.app) { continue }
            if r.kind == .processing {
                if placement.allows(app: app, context: context, usage: usage) {
                    if context.isEligible(r) { run.append(r.id) } else { wakeAt(r.earliestBegin) }
                } else {
                    wakeAt(placement.wake(context))
                }
                continue
            }
            // Low Power Mode, low battery: not even asked (their end is a decision point).
            guard refreshing else { continue }
            guard let due = refreshDue(app: app, at: now) else {
                // Priority 0 now: it may rise at the next hour if the app was ever used.
                if usage.lastLaunch(app: app) != nil { wakeAt(UsagePriority.nextHour(after: now)) }
                continue
            }
            let from = max(due, r.earliestBegin)
            if from > now {
                wakeAt(min(from, UsagePriority.nextHour(after: now)))
                continue
            }
            guard context.isEligible(r) else { continue } // foreground app, offline: state changes are decision points
            guard asked < room else { wakeAt(limiter.nextRoom()); continue }
            guard energy.allows(runs: asked + 1, at: now, charging: context.device.isCharging) else {
                wakeAt(energy.nextRoom(after: now) ?? midnight)
                continue
            }
            let cellular = context.device.network == .cellular
            guard data.allows(runs: askedOnCellular + (cellular ? 1 : 0), on: context.device.network, at: now) else {
                wakeAt(data.nextRoom(after: now) ?? midnight)
                continue
            }
            run.append(r.id)
            asked += 1
            if cellular { askedOnCellular += 1 }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
