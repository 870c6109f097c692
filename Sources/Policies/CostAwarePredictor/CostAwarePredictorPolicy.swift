import Device
import SimCore

/// `cost-aware-predictor` — a learning policy that refreshes an app when
/// the fresh launches a refresh is expected to add, per joule it is
/// expected to cost now, clear a bar that it adapts toward a daily energy
/// target. It starts knowing nothing and sees only what any policy sees.
///
/// For each pending refresh of app `a`, at each decision point:
/// - **gain** = P(stale now) · P(the next launch comes before the next
///   update): the first from the content rate learnt from the app's
///   `.newData`/`.noData` reports (`ContentRateEstimator`) and the time
///   since its content was last fetched; the second from the launch model
///   (`LaunchModel`: time of week, recency, previous app) and the content
///   rate as competing Poisson processes over `horizon`;
/// - **cost** = the expected joules of a refresh started now
///   (`RefreshCost`: cellular or Wi-Fi, radio already up or not, charging);
/// - it runs when gain ≥ bar · cost and today's spending is under the cap
///   (`GainThreshold`, the bar adapted each day toward
///   `targetJoulesPerDay`), and otherwise looks again after `recheck` (both
///   factors move with the clock; a state change or a finished task —
///   which leaves the radio up for others to ride — is a decision point
///   too).
/// - with `holdForLaunch` on, an eligible refresh worth running may be
///   held for a likely launch instead (`LaunchTiming`): run when a session
///   that usually leads to the app is on or has just ended, or after
///   `maxHold`, and held only while waiting is worth more than running now.
/// Processing requests run only on the charger (they bring no fresh
/// launches; off the charger their energy is the battery's).
///
/// It is `model-bound`'s rule with the model learnt instead of given: the
/// distance between them is what learning still misses.
///
/// Sources: FALCON (Yan et al., MobiSys 2012: launch prediction from
/// context, content about 3 min old at launch for at most 2 % battery a
/// day), PREPP (Parate et al., UbiComp 2013: predicts "not only which app
/// will be used next but also when"), IMP (Higgins et al., MobiSys 2012:
/// "a cost-benefit analysis to decide when to prefetch", "goal-directed
/// adaptation" to budgets, "network-specific costs", tracked hit rates),
/// EBC (Baumann & Santini, IMWUT 2017: "different strategies depending on
/// whether a cellular or Wi-Fi connection is available"), and the LTE tail
/// of Huang et al. (MobiSys 2012) for the costs (REFERENCES.md).
///
/// Parameters (unit, range, default; every default is an assumption, set
/// once and not tuned; only the target was explored, on the first 300
/// users of the default suite, so the suite's figures are not out of sample):
/// - `targetJoulesPerDay` (J/day, 0–1e9, 60): the daily energy the bar adapts toward.
/// - `initialGainPerJoule` (fresh launches per J, 1e-5–10, 0.05): the bar on day 0.
/// - `adaptRate` (exponent, 0–4, 0.5): how fast the bar follows spending (0: fixed bar).
/// - `capFactor` (× target, 1–1e9, 3): spending today above this stops refreshes until midnight.
/// - `recheck` (duration, 15m): how soon a refresh not worth it now is looked at again.
/// - `horizon` (duration, 24h): how far ahead the next launch is looked for.
/// - `decay` (per day, 0–1, 0.95): weight of yesterday's counts (launches and content).
/// - `priorDays` (days, 0–1e6, 1): weight of the app's flat rate in each time-of-week bin.
/// - `timeOfWeek` (0/1, 1): hour-of-day × weekday/weekend launch rates (0: flat rate).
/// - `recencyWindow` (duration, 30m) and `recency` (0/1, 1): the burst term.
/// - `transitionWindow` (duration, 10m) and `previousApp` (0/1, 1): the previous-app term.
/// - `learnContent` (0/1, 1): learn each app's update rate (0: the prior for every app).
/// - `priorUpdatesPerHour` (updates/h, 0–1e3, 0.5) and `priorHours` (h, 0–1e6, 2): the prior.
/// - `cellularJoules` (J, 14), `wifiJoules` (J, 1), `rideJoules` (J, 1),
///   `chargingFactor` (0–1, 1): the cost model (`RefreshCost`).
/// - `holdForLaunch` (0/1, 0): the timing ingredient (`LaunchTiming`); with
///   it, `maxHold` (duration, 1 min–1 day, 2h), `triggerProbability`
///   (P(app next | app now), 0–1, 0.2) and `followWindow` (duration,
///   1 s–1 h, 5m: a launch this soon after a session's end follows it),
///   `holdCost` (κ of the stopping test, 0–1000, 1; 0 holds whenever a
///   trigger ever announced the app).
///   Every default is an assumption; only `maxHold` and
///   `triggerProbability` were explored (on the first 300–500 users of
///   the default world).
public struct CostAwarePredictorPolicy: SchedulingPolicy {
    var launches: LaunchModel
    var content: ContentRateEstimator
    var cost: RefreshCost
    var bar: GainThreshold
    var timing: LaunchTiming
    /// Whole-hour terms of the gain test, kept while each app's rates hold.
    var hourTerms = LaunchHourTerms()
    /// Per app, a bound on the launch factor over the current hour.
    var hourBounds = LaunchHourBounds()
    public var recheck: SimDuration
    public var horizon: SimDuration

    public init(targetJoulesPerDay: Double = 60, initialGainPerJoule: Double = 0.05, adaptRate: Double = 0.5,
                capFactor: Double = 3, recheck: SimDuration = .minutes(15), horizon: SimDuration = .hours(24),
                decay: Double = 0.95, priorDays: Double = 1, timeOfWeek: Bool = true,
                recencyWindow: SimDuration? = .minutes(30), transitionWindow: SimDuration? = .minutes(10),
                learnContent: Bool = true, priorUpdatesPerHour: Double = 0.5, priorHours: Double = 2,
                cellularJoules: Double = 14, wifiJoules: Double = 1, rideJoules: Double = 1, chargingFactor: Double = 1,
                holdForLaunch: Bool = false, maxHold: SimDuration = .hours(2), triggerProbability: Double = 0.2,
                followWindow: SimDuration = .minutes(5), holdCost: Double = 1, holdEpisodeOnly: Bool = false) {
        launches = LaunchModel(decay: decay, priorDays: priorDays, timeOfWeek: timeOfWeek,
                               recencyWindow: recencyWindow, transitionWindow: transitionWindow)
        content = ContentRateEstimator(priorRate: priorUpdatesPerHour, priorHours: priorHours, decay: decay, learn: learnContent)
        cost = RefreshCost(cellularJoules: cellularJoules, wifiJoules: wifiJoules, rideJoules: rideJoules,
                           chargingFactor: chargingFactor)
        bar = GainThreshold(target: targetJoulesPerDay, initialGain: initialGainPerJoule, adaptRate: adaptRate,
                            capFactor: capFactor)
        timing = LaunchTiming(enabled: holdForLaunch, maxHold: maxHold, trigger: triggerProbability,
                              followWindow: followWindow, holdCost: holdCost, episodeOnly: holdEpisodeOnly, decay: decay)
        self.recheck = recheck
        self.horizon = horizon
    }

    /// The bar today, fresh launches per joule (for tests and reports).
    public var gainPerJoule: Double { bar.gainPerJoule }

    mutating func roll(_ context: PolicyContext) {
        // Most calls come within the day with every app known, where each
        // step below would do nothing: one test for all of them first.
        let n = context.appCount, day = context.now.day
        if day <= launches.currentDay && day <= bar.day && n <= launches.apps && n <= content.apps.count
            && (!timing.enabled || n <= timing.apps) { return }
        launches.ensure(apps: context.appCount)
        content.ensure(apps: context.appCount)
        timing.ensure(apps: context.appCount)
        let passed = launches.roll(to: context.now)
        for _ in 0..<passed { content.decayOneDay(); timing.decayOneDay() }
        bar.roll(to: context.now.day, joules: context.backgroundJoules)
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        roll(context)
        switch observation {
        case .launch(let app):
            launches.launched(app: Int(app), at: context.now)
            timing.launched(app: Int(app), at: context.now)
            if context.device.network.isOnline { content.fetched(app: Int(app), at: context.now) }
        case .sessionEnded(let app):
            launches.sessionEnded(app: Int(app), at: context.now)
            timing.sessionEnded(app: Int(app), at: context.now)
        case .taskFinished(let r) where r.outcome == .success && r.request.kind.refreshesContent:
            content.refreshed(app: Int(r.request.app), start: r.start, result: r.fetchResult)
        default:
            break
        }
    }

    /// Expected fresh launches a refresh of `app` now adds.
    public func expectedGain(app a: Int, now: SimTime) -> Double {
        let stale = content.staleProbability(app: a, now: now)
        guard stale > 0 else { return 0 }
        return stale * launches.launchBeforeUpdate(app: a, now: now, updatesPerHour: content.rate(app: a), horizon: horizon)
    }

    /// The rule's test, `expectedGain(app:now:) >= bar`, answered without
    /// summing further than the answer needs, with whole-hour terms and
    /// sums reused (LaunchModel+GainTest.swift, LaunchWindows.swift); the
    /// same answer every time: where the kept sums' rounding could matter
    /// (gain within a relative 1e-9 of the bar) the sum is done as written.
    ///
    /// Before any of that, bounds answer where they are clear of the bar
    /// by a relative 1e-9 (far above their rounding): P(stale) = 1 − e^−m
    /// is at most `ContentRateEstimator.staleBound(exponent:)` (m:
    /// `staleExponent`, so no `exp` yet), the launch factor at most 1, and
    /// it lies within the app's bounds for the current hour
    /// (`launchBounds`, LaunchHourBound.swift): first with the ceiling over
    /// the whole hour (with a short-lived term on, an upper bound only),
    /// then with the hour's first step bracketed at `now`, then with the
    /// part-hour steps worked out as the rule does (`exactLaunchBounds`).
    mutating func gainReaches(_ bar: Double, app a: Int, now: SimTime) -> Bool {
        let m = content.staleExponent(app: a, now: now)
        let no = bar / (1 + 1e-9), staleAtMost = ContentRateEstimator.staleBound(exponent: m)
        // `!(… >= no)`: a NaN m is a "no", as the rule's `0 >= bar`.
        if bar > 0 && !(staleAtMost >= no) { return false }
        let bounds = bar > 0 ? launchBounds(app: a, now: now) : nil
        if let bounds, staleAtMost * bounds.ceiling < no { return false }
        if let bounds, !bounds.boosted, staleAtMost * bounds.hour.above(now) < no { return false }
        let stale = ContentRateEstimator.staleProbability(exponent: m), yes = bar * (1 + 1e-9)
        if let bounds, stale * launchBelow(now: now, hour: bounds.hour, boosted: bounds.boosted) >= yes { return true }
        if let bounds, let exact = exactLaunchBounds(app: a, now: now, hour: bounds.hour, boosted: bounds.boosted) {
            if stale * exact.above < no { return false }
            if stale * exact.below >= yes { return true }
        }
        guard stale > 0 else { return 0 >= bar }
        return launches.launchBeforeUpdateReaches(bar, stale: stale, app: a, now: now, updatesPerHour: content.rate(app: a),
                                                  horizon: horizon, terms: &hourTerms)
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        roll(context)
        let now = context.now
        let online = context.device.network.isOnline
        let capped = bar.capped(joules: context.backgroundJoules)
        let threshold = bar.gainPerJoule * cost.joules(context)
        let recheckAt = now + recheck
        var run: [RequestID] = []
        // The earliest wake asked for so far; `distantFuture`: none yet (the
        // agenda reads that time as none too).
        var wake = SimTime.distantFuture
        for r in context.pending {
            if r.kind == .processing {
                // On the charger only; other refusals end with a state change.
                if context.device.isCharging && context.isEligible(r) { run.append(r.id) }
                continue
            }
            // Offline or over the cap: a state change or midnight brings the next decision.
            guard online && !capped else { continue }
            let a = Int(r.app)
            let refusal = context.refusal(for: r)
            let notWorthWake = max(recheckAt, r.earliestBegin)
            if let refusal, !gainTestMatters(refusal: refusal, r, notWorthWake: notWorthWake, wake: wake) {
                // Either the outcomes agree on it or it is not the earliest.
                wake = min(wake, notWorthWake)
                continue
            }
            if gainReaches(threshold, app: a, now: now) {
                switch refusal {
                case nil:
                    if let until = timing.hold(r, now: now, device: context.device, rate: content.rate(app: a)) {
                        wake = min(wake, until)
                    } else {
                        run.append(r.id)
                    }
                case .beforeEarliestBegin?: wake = min(wake, r.earliestBegin)
                default: break
                }
            } else {
                wake = min(wake, notWorthWake)
            }
        }
        if capped { wake = min(wake, SimTime(day: now.day + 1)) }
        return PolicyDecision(run: run, wakeAt: wake == .distantFuture ? nil : wake)
    }

    /// Whether the gain test can change the decision for `r`, which the OS
    /// refuses now for `refusal`. Why ask: the test is most of the policy's
    /// cost, and for a request that may not start now its only effect is a
    /// wake — at its earliest begin if worth it and refused only for that,
    /// none if worth it and refused for another reason, `notWorthWake` if
    /// not worth it — and the decision keeps only the earliest wake. The
    /// test matters only where those differ and one of them is earlier than
    /// the wake found so far (`wake`); elsewhere the caller adds
    /// `notWorthWake`, which is then either both outcomes' wake or not the
    /// earliest (`distantFuture`: no wake yet). `GainTestDifferentialTests`
    /// checks whole decisions against the rule asked for every request.
    func gainTestMatters(refusal: Refusal, _ r: TaskRequest, notWorthWake: SimTime, wake: SimTime) -> Bool {
        let worthWake = refusal == .beforeEarliestBegin ? r.earliestBegin : nil
        if worthWake == notWorthWake { return false }
        // Each outcome's wake is at least `worthWake ?? notWorthWake`.
        return (worthWake ?? notWorthWake) < wake
    }
}

extension CostAwarePredictorPolicy {
    /// Launches and session ends feed the launch model, finished tasks the
    /// content model; the rest would only roll the day forward, which
    /// `decide` does too.
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: [.launch, .sessionEnded, .taskFinished]) }
}
