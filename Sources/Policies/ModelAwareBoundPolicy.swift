import Foundation
import Device
import SimCore
import Traces

/// `model-bound` — a realisable reference that knows the model, not the
/// future: each user's launch intensity per app and hour (weekday/weekend)
/// and each app's content rate per hour, as the generator draws them
/// (`UsageModelKnowledge`, filled by the runner), but none of the realised
/// launches or updates. Between it and the oracle lies what no policy can
/// reach without foresight; between it and a learning policy lies what
/// learning the user's model could still gain.
///
/// At each decision point, for each pending refresh request of app `a`:
/// - P(stale now) = 1 − exp(−M), M the expected updates since the app's
///   content was last fetched (foreground launch while online, or a
///   successful background refresh, from its start);
/// - P(the next launch comes before the next update) from the model's
///   rates over the next 24 h, hour by hour (competing Poisson processes);
/// - expected gain = their product: the fresh launches a refresh now adds;
/// - expected cost = `RefreshCost`, the estimate `cost-aware-predictor`
///   uses: `rideJoules` when the radio is already up (at most the cold
///   figure), else `wifiJoules` or `cellularJoules` by network;
/// and runs the refresh when gain / cost ≥ `minGainPerJoule` (`gainReaches`).
/// Otherwise it looks again after `recheck` (both factors move with the
/// clock). `decide` asks `ModelBoundGains`, which answers as `gainReaches`
/// does without its two hour-by-hour sums.
///
/// It is a greedy threshold rule on the model, **not an optimum**: it
/// decides app by app, knows the rates but not the bursts' timing, and the
/// cost figures are estimates. It obeys the OS rules and works only with
/// the requests the apps submit. Without a model (a trace-set world, or a
/// runner that does not fill it) it does nothing, like `never`.
///
/// Sources: the issue-16 definition; costs from the LTE model of Huang et
/// al., MobiSys 2012 (promotion 260 ms at 1.21 W + tail 11.6 s at 1.06 W +
/// about 1 s active ≈ 14 J on a cold radio; REFERENCES.md), Wi-Fi and
/// riding an up radio ≈ 1 J (assumption).
/// Parameters: `minGainPerJoule` (fresh launches per joule, default 0.01),
/// `recheck` (duration, default 15m), `cellularJoules` (14), `wifiJoules`
/// (1), `rideJoules` (1).
public struct ModelAwareBoundPolicy: SchedulingPolicy {
    public static var traits: PolicyTraits { PolicyTraits(needsModelKnowledge: true, observedKinds: [.launch, .taskFinished]) }
    public var minGainPerJoule: Double
    public var recheck: SimDuration
    /// The expected joules of a refresh now, the estimate `cost-aware-predictor` uses too.
    var cost: RefreshCost
    /// When each app's content was last fetched (`.zero`: never).
    var lastFetch: [SimTime] = []
    /// The gain test of `decide` made fast (ModelBoundGains.swift).
    var gains = ModelBoundGains()

    public init(minGainPerJoule: Double = 0.01, recheck: SimDuration = .minutes(15),
                cellularJoules: Double = 14, wifiJoules: Double = 1, rideJoules: Double = 1) {
        self.minGainPerJoule = minGainPerJoule
        self.recheck = recheck
        cost = RefreshCost(cellularJoules: cellularJoules, wifiJoules: wifiJoules, rideJoules: rideJoules)
    }

    mutating func fetched(_ app: Int32, at t: SimTime, apps: Int) {
        if lastFetch.count < max(apps, Int(app) + 1) {
            lastFetch += Array(repeating: .zero, count: max(apps, Int(app) + 1) - lastFetch.count)
        }
        lastFetch[Int(app)] = t
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        switch observation {
        case .launch(let app) where context.device.network.isOnline:
            fetched(app, at: context.now, apps: context.appCount)
        case .taskFinished(let r) where r.outcome == .success && r.request.kind.refreshesContent:
            fetched(r.request.app, at: r.start, apps: context.appCount)
        default:
            break
        }
    }

    /// Expected updates of `app` in [from, to), hour by hour.
    public static func expectedUpdates(_ model: UsageModelKnowledge, app: Int, from: SimTime, to: SimTime) -> Double {
        // More than two days back changes nothing: P(stale) is then ≈ 1 for
        // any app that publishes at all, and ≈ 0 for one that never does.
        var t = max(from, to - .hours(48)), m = 0.0
        let hour = SimDuration.hours(1)
        while t < to {
            // Up to the next hour boundary (rates are constant inside an hour).
            let next = min(to, SimTime(microseconds: (t.microseconds / hour.microseconds + 1) * hour.microseconds))
            m += model.updateRate(app: app, at: t) * Double((next - t).microseconds) / Double(hour.microseconds)
            if m > 30 { return m }  // stale for sure
            t = next
        }
        return m
    }

    /// P(the next launch of `app` after `now` comes before its next update),
    /// over the next 24 h; launches and updates as competing Poisson
    /// processes with the model's hourly rates.
    public static func launchBeforeUpdate(_ model: UsageModelKnowledge, app: Int, now: SimTime) -> Double {
        var survive = 1.0, p = 0.0, t = now
        let hour = SimDuration.hours(1)
        for _ in 0..<25 {
            let next = SimTime(microseconds: (t.microseconds / hour.microseconds + 1) * hour.microseconds)
            let length = Double((next - t).microseconds) / Double(hour.microseconds)
            let l = model.launchRate(app: app, at: t), u = model.updateRate(app: app, at: t)
            if l + u > 0 {
                let happens = 1 - exp(-(l + u) * length)
                p += survive * happens * l / (l + u)
                survive *= 1 - happens
            }
            if survive < 1e-4 { break }
            t = next
        }
        return p
    }

    /// The rule: a refresh of `app` now, its content last fetched at
    /// `fetchedAt`, is worth `bar` joules' worth of gain. P(launch first)
    /// is taken at the start of `now`'s hour: the model's rates are
    /// constant within an hour, so one value serves the whole hour (an
    /// approximation by at most one hour of the horizon).
    /// `ModelBoundGains.reaches` gives the same answer faster; this is
    /// its reference.
    public static func gainReaches(_ bar: Double, _ model: UsageModelKnowledge, app: Int, fetchedAt: SimTime,
                                   now: SimTime) -> Bool {
        let stale = 1 - exp(-expectedUpdates(model, app: app, from: fetchedAt, to: now))
        let hourStart = SimTime(microseconds: now.microseconds / SimDuration.microsecondsPerHour * SimDuration.microsecondsPerHour)
        return stale * launchBeforeUpdate(model, app: app, now: hourStart) >= bar
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        guard context.device.network.isOnline else { return .none }  // a state change brings the next decision
        // The model, once: the runner gives a policy one user's, which does not change.
        if gains.model == nil {
            guard let model = context.model else { return .none }
            gains.prepare(model)
        }
        let now = context.now
        let bar = minGainPerJoule * cost.joules(context)
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending where r.kind.refreshesContent {
            let a = Int(r.app)
            let fetchedAt = a < lastFetch.count ? lastFetch[a] : .zero
            let refusal = context.refusal(for: r)
            // Not worth it: look again after `recheck`, or when it may begin.
            let notWorthWake = max(now + recheck, r.earliestBegin)
            var at = notWorthWake
            if let refusal, !Self.gainTestMatters(refusal: refusal, r, now: now, recheck: recheck,
                                                  notWorthWake: notWorthWake, wake: wake) {
                // Either the outcomes agree on `at` or it is not the earliest.
            } else if gains.reaches(bar, app: a, fetchedAt: fetchedAt, now: now) {
                switch refusal {
                case nil:
                    run.append(r.id)
                    continue
                case .beforeEarliestBegin?:
                    at = r.earliestBegin
                default:
                    at = now + recheck
                }
            }
            if wake == nil || at < wake! { wake = at }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }

    /// Whether the gain test can change the decision for `r`, which the OS
    /// refuses now for `refusal`. Why ask: the test is most of the policy's
    /// cost, and for a request that may not start now its only effect is a
    /// wake — at its earliest begin if worth it and refused only for that,
    /// after `recheck` if worth it and refused for another reason (it is
    /// then past its earliest begin), `notWorthWake` if not worth it — and
    /// the decision keeps only the earliest wake. The test matters only
    /// where those differ and one of them is earlier than the wake found
    /// so far (`wake`); elsewhere the caller adds `notWorthWake`, which is
    /// then either both outcomes' wake or not the earliest.
    /// `GainTestDifferentialTests` checks whole decisions against the rule
    /// asked for every request.
    static func gainTestMatters(refusal: Refusal, _ r: TaskRequest, now: SimTime, recheck: SimDuration,
                                notWorthWake: SimTime, wake: SimTime?) -> Bool {
        let worthWake = refusal == .beforeEarliestBegin ? r.earliestBegin : now + recheck
        if worthWake == notWorthWake { return false }
        if let wake, min(worthWake, notWorthWake) >= wake { return false }
        return true
    }
}
