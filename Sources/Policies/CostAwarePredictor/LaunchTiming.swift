import Device
import Foundation
import SimCore

/// The `cost-aware-predictor`'s timing ingredient: *when* to run a refresh
/// that is allowed and worth running, by holding it for a likely launch.
///
/// Why it exists: an app resubmits its refresh at every handler start and
/// session end for `earliestBegin` = now + its delay (rule 6; 15 min by
/// default) and may have only one pending (rule 2). Running a refresh the
/// moment it becomes eligible — what greedy and a short fixed interval do —
/// refreshes each app every delay, so the content's age at a launch is
/// about uniform over that delay. No policy can refresh more often; one can
/// only refresh at better times. A refresh run at the start of the session
/// that usually precedes this app's launch (the world's app-to-app
/// transitions, which FALCON and PREPP use to predict the next app) meets
/// the launch seconds old, where one run at the eligible instant meets it
/// up to a delay old. Holding costs at the launches nothing announces:
/// their content is older by up to the hold.
///
/// The rule, for an eligible refresh of app `a` at a decision point:
/// 1. **Trigger** — run it now if the foreground app `b` (or the app whose
///    session ended less than `followWindow` ago, with no launch since) is
///    followed by `a` with a learnt probability of at least `trigger`:
///    P(a next | b) = (b's sessions followed by a launch of `a` within
///    `followWindow` of their end) / (b's sessions ended + 1).
/// 2. **Horizon** — run it if it has been eligible for `maxHold` already
///    (since its `earliestBegin`): the cap on how stale an unannounced
///    launch can get.
/// 3. **Stopping test** — otherwise hold it while waiting is worth more
///    than running now. With age uniform over an interval T, a launch is
///    fresh with probability f(λT) = (1 − e^{−λT})/(λT) (λ: the app's learnt
///    update rate). Running at each eligible instant gives every launch
///    c = f(λ·d) (d: the request's own delay, `earliestBegin − submittedAt`).
///    Holding gives the share q of the app's launches that a trigger would
///    have announced about 1 (the refresh is seconds old), and the others
///    at worst u = f(λ·(d + maxHold)). So hold while
///    q · (1 − c) > κ · (1 − q) · (c − u),
///    where κ (`holdCost`, default 1) is the weight of that worst case: 1
///    assumes every unannounced launch meets the full hold; a trigger
///    usually ends a hold sooner, so κ below 1 is closer to the truth;
///    q is learnt as the decayed share of the app's launches at which rule
///    1 held (checked at each launch, before the launch is counted).
///
/// It is a one-step look-ahead (compare stopping now with the best simple
/// continuation), the classic approximation of an optimal-stopping rule,
/// not the optimum. Sources for the idea of timing a prefetch to the
/// predicted launch: FALCON (Yan et al., MobiSys 2012) uses context "to
/// predict app launches before they occur" and then does "app-specific
/// prelaunching", reaching content "only 3 minutes old at launch";
/// PREPP (Parate et al., UbiComp 2013) predicts "not only which app will
/// be used next but also when" (REFERENCES.md). The previous app as the
/// predictor is the world's own structure (app-to-app
/// transitions); the stopping test is this benchmark's (assumption).
/// With `enabled` false nothing is held (the ablation; the default). It
/// is off by default because on the default world every configuration
/// tried lowered the fresh-launch ratio (paired by user, CIs below zero):
/// the world's previous app rarely names the next one with a probability
/// above 0.2, so few launches are announced and the held requests make
/// the others staler (report has the figures). With
/// `episodeOnly` a request is held only while a session is on or has just
/// ended (within `followWindow`), and looked at again when that ends.
struct LaunchTiming: Sendable {
    var enabled: Bool
    var maxHold: SimDuration
    var trigger: Double
    var followWindow: SimDuration
    /// κ: the weight of the unannounced launches' loss in the stopping test.
    var holdCost: Double
    /// Hold only during an episode (a session on, or one ended within
    /// `followWindow`); between episodes run at once.
    var episodeOnly: Bool = false
    var decay: Double

    private(set) var apps = 0
    /// Per app `b`: decayed sessions ended; follows[b * apps + a]: of those,
    /// the ones followed by a launch of `a` within `followWindow`.
    var ended: [Double] = []
    var follows: [Double] = []
    /// Per app: decayed launches, and of those the ones a trigger announced.
    var launches: [Double] = []
    var announced: [Double] = []
    /// The app whose session ended last and when, until a launch follows it.
    var lastEnded: (app: Int, at: SimTime)?

    mutating func ensure(apps n: Int) {
        guard enabled, n > apps else { return }
        follows = follows.grownSquare(from: apps, to: n)
        ended += Array(repeating: 0, count: n - apps)
        launches += Array(repeating: 0, count: n - apps)
        announced += Array(repeating: 0, count: n - apps)
        apps = n
    }

    mutating func decayOneDay() {
        guard enabled else { return }
        for i in follows.indices { follows[i] *= decay }
        for i in ended.indices { ended[i] *= decay; launches[i] *= decay; announced[i] *= decay }
    }

    /// P(`a` is the next app launched after a session of `b`), learnt.
    func followProbability(_ a: Int, after b: Int) -> Double {
        guard a < apps, b < apps, a != b else { return 0 }
        return follows[b * apps + a] / (ended[b] + 1)
    }

    /// The app whose session is on now or ended within `followWindow` with
    /// no launch since: the one whose followers a trigger serves.
    func predecessor(now: SimTime, device: DeviceState) -> Int? {
        if device.isScreenOn, let b = device.foregroundApp { return Int(b) }
        if let (b, end) = lastEnded, now - end < followWindow { return b }
        return nil
    }

    /// Rule 1: a session that usually leads to `a` is on or has just ended.
    func triggered(app a: Int, now: SimTime, device: DeviceState) -> Bool {
        guard let b = predecessor(now: now, device: device) else { return false }
        return followProbability(a, after: b) >= trigger
    }

    mutating func launched(app a: Int, at t: SimTime) {
        guard enabled else { return }
        ensure(apps: a + 1)
        // Would a trigger have announced this launch? (Before it is counted,
        // so the share is out of sample.) The session that precedes a
        // launch has ended by then: only `lastEnded` can be its predecessor.
        if let (b, end) = lastEnded, t - end < followWindow {
            if followProbability(a, after: b) >= trigger { announced[a] += 1 }
            if b != a { follows[b * apps + a] += 1 }
        }
        launches[a] += 1
        lastEnded = nil
    }

    mutating func sessionEnded(app b: Int, at t: SimTime) {
        guard enabled else { return }
        ensure(apps: b + 1)
        ended[b] += 1
        lastEnded = (b, t)
    }

    /// The share of `a`'s launches a trigger announced (0 before any launch).
    func announcedShare(app a: Int) -> Double {
        guard a < apps, launches[a] > 0 else { return 0 }
        return announced[a] / launches[a]
    }

    /// P(fresh) of a launch whose content age is uniform over `hours`, with
    /// updates at `rate` an hour: (1 − e^{−x})/x, x = rate · hours.
    static func freshUniform(rate: Double, hours: Double) -> Double {
        let x = rate * hours
        return x < 1e-9 ? 1 : -expm1(-x) / x
    }

    /// Rule 3: waiting for a trigger is worth more than running at the
    /// eligible instant, for app `a` updating at `rate` an hour whose
    /// request comes back `delay` after each run.
    func worthHolding(app a: Int, rate: Double, delay: SimDuration) -> Bool {
        let q = announcedShare(app: a)
        guard q > 0 else { return false }
        let c = Self.freshUniform(rate: rate, hours: delay.inHours)
        let u = Self.freshUniform(rate: rate, hours: (delay + maxHold).inHours)
        return q * (1 - c) > holdCost * (1 - q) * (c - u)
    }

    /// Whether to hold the eligible request `r` now (nil: run it; else the
    /// time to look again: the end of its hold).
    func hold(_ r: TaskRequest, now: SimTime, device: DeviceState, rate: Double) -> SimTime? {
        guard enabled else { return nil }
        let a = Int(r.app)
        let until = r.earliestBegin + maxHold
        guard now < until, !triggered(app: a, now: now, device: device) else { return nil }
        if episodeOnly && predecessor(now: now, device: device) == nil { return nil }
        let delay = r.earliestBegin > r.submittedAt ? r.earliestBegin - r.submittedAt : SimDuration.zero
        guard worthHolding(app: a, rate: rate, delay: delay) else { return nil }
        // Held for an episode only: look again when it ends (a session's
        // end is a decision point; the end of the window after it is not).
        if episodeOnly && !device.isScreenOn, let (_, end) = lastEnded { return min(until, end + followWindow) }
        return until
    }
}
