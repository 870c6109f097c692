import Device
import Foundation
import SimCore

/// `exponential-backoff` — wraps any policy; after a failed or expired task
/// of an app, that app's next attempt waits initial·factor^(n−1) (n = failures
/// in a row) up to `cap`, optionally jittered; a success or a foreground
/// launch of the app resets it.
///
/// How it composes with the app's own retry (Docs/Semantics.md, "Backoff and
/// the app's retry"): the rule of Android's WorkManager, where a worker that
/// fails asks to be retried (`Result.retry()`) and the system decides when,
/// at the failure plus initial·2^(n−1) (n = run attempts), capped at 5 h.
/// Here the app keeps its own retry (it submits again with an earliest
/// begin `AppModel.retryDelayAfterFailure` after the failure) and the
/// wrapper holds that request until the failed run's end plus the delay:
/// the next attempt is at max(the app's retry, end + delay). The wrapped
/// policy's decisions are otherwise unchanged.
///
/// Source: Android `JobInfo` / WorkManager backoff (`BACKOFF_POLICY_EXPONENTIAL`,
/// initial 30 s, cap 5 h) — AOSP `JobSchedulerService`.
/// Parameters:
/// - `initial` (duration in [1 s, 30 d], default 2m): the first delay.
///   Android's default is 30 s, which is shorter than the apps' own 1-minute
///   retry here, so it held nothing before a third failure in a row; 2 min
///   (twice the app's retry, an assumption) makes the first held retry
///   already later than the app's own.
/// - `factor` (number in [1, 1000], default 2): growth per failure.
/// - `cap` (duration in [1 s, 365 d], default 5h): the longest delay.
/// - `jitter` (number in [0, 1], default 0): each delay is scaled by a
///   deterministic factor in [1 − jitter, 1 + jitter].
/// - `base` (policy, required): the policy whose runs are held back.
public struct ExponentialBackoffPolicy<Base: SchedulingPolicy>: SchedulingPolicy {
    /// Its base's, whole, also reading the failures (task reports) and the
    /// launches that reset them.
    public static var traits: PolicyTraits { Base.traits.observing([.taskFinished, .launch]) }
    public var base: Base
    public var initial: SimDuration
    public var factor: Double
    public var cap: SimDuration
    public var jitter: Double
    /// Failures in a row and the time before which the app may not run, per app.
    public private(set) var failures: [Int] = []
    public private(set) var blockedUntil: [SimTime] = []
    /// The latest `blockedUntil` ever set: at or after it no app is blocked,
    /// and `decide` skips its walk over the pending requests.
    var blockedAtMostUntil: SimTime = .zero
    var draws: UInt64 = 0

    public init(base: Base, initial: SimDuration = .minutes(2), factor: Double = 2,
                cap: SimDuration = .hours(5), jitter: Double = 0) {
        self.base = base
        self.initial = initial
        self.factor = factor
        self.cap = cap
        self.jitter = jitter
    }

    /// The delay after the n-th failure in a row (n ≥ 1), before jitter.
    public func delay(afterFailures n: Int) -> SimDuration {
        let seconds = initial.seconds * pow(factor, Double(max(0, n - 1)))
        return seconds >= cap.seconds ? cap : .seconds(seconds)
    }

    @inline(__always) // at every decision: mostly one comparison, not a call
    mutating func ensure(_ apps: Int) {
        while failures.count < apps { failures.append(0); blockedUntil.append(.zero) }
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        ensure(context.appCount)
        switch observation {
        case .taskFinished(let r):
            let a = Int(r.request.app)
            ensure(a + 1)
            if r.outcome == .success {
                failures[a] = 0
                blockedUntil[a] = .zero
            } else {
                failures[a] += 1
                var d = delay(afterFailures: failures[a])
                if jitter > 0 {
                    draws += 1
                    let u = context.random.uniform(0xBAC0FF, UInt64(a), draws)
                    d = d * (1 + jitter * (2 * u - 1))
                }
                blockedUntil[a] = r.end + d
                blockedAtMostUntil = max(blockedAtMostUntil, blockedUntil[a])
            }
        case .launch(let app):
            ensure(Int(app) + 1)
            failures[Int(app)] = 0
            blockedUntil[Int(app)] = .zero
        default:
            break
        }
        base.observe(observation, context: context)
    }

    func blocked(_ app: Int32, _ now: SimTime) -> Bool {
        Int(app) < blockedUntil.count && blockedUntil[Int(app)] > now
    }

    // Written without closures: the registry builds this generic type
    // around a base chosen at run time, so it runs unspecialised, where
    // closures capturing `self` instantiated generic metadata on every call.
    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        ensure(context.appCount)
        let inner = base.decide(context: context)
        guard blockedAtMostUntil > context.now else { return inner } // no app blocked
        var wake = inner.wakeAt
        var anyBlocked = false
        for r in context.pending where blocked(r.app, context.now) {
            anyBlocked = true
            let until = blockedUntil[Int(r.app)]
            if let w = wake { wake = min(w, until) } else { wake = until }
        }
        guard anyBlocked else { return PolicyDecision(run: inner.run, runAllEligible: inner.runAllEligible, wakeAt: wake) }
        var run: [RequestID] = []
        for id in inner.run {
            var app: Int32? = nil
            for r in context.pending where r.id == id { app = r.app; break }
            if let app, blocked(app, context.now) { continue }
            run.append(id)
        }
        if inner.runAllEligible {
            for r in context.pending where !blocked(r.app, context.now) && context.isEligible(r) && !run.contains(r.id) {
                run.append(r.id)
            }
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }
}
