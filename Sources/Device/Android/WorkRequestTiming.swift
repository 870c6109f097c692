import SimCore

/// When WorkManager lets a request run, as closed forms of
/// ``AndroidWorkRules`` (androidx `WorkSpec.calculateNextRunTime`):
/// periodic work's interval and flex, its first and later periods, and the
/// backoff of a retried run. Pure: the simulator (`DeviceSimulator+Android.swift`)
/// applies them at a submission, and the tests check them alone.
public struct WorkRequestTiming: Sendable, Hashable {
    public var rules: AndroidWorkRules

    public init(rules: AndroidWorkRules) { self.rules = rules }

    /// A periodic request's interval: the one the app asks for, raised to
    /// ``AndroidWorkRules/minPeriodicInterval``.
    public func interval(requested: SimDuration) -> SimDuration {
        max(requested, rules.minPeriodicInterval)
    }

    /// Its flex window: ``AndroidWorkRules/periodicFlex`` (the interval if
    /// none), clamped to [``AndroidWorkRules/minPeriodicFlex``, interval].
    public func flex(interval: SimDuration) -> SimDuration {
        min(max(rules.periodicFlex ?? interval, rules.minPeriodicFlex), interval)
    }

    /// The first period of periodic work enqueued at `t`: it may run from
    /// the start of its flex window, `t + interval − flex` (WorkManager
    /// applies the flex to the first period only).
    public func firstRun(enqueuedAt t: SimTime, interval: SimDuration) -> SimTime {
        t + (interval - flex(interval: interval))
    }

    /// A later period, scheduled when the last one ran at `t`: not before
    /// `t + interval`, so the work runs at most once per interval.
    public func nextRun(lastRunAt t: SimTime, interval: SimDuration) -> SimTime {
        t + interval
    }

    /// The delay before retry number `attempt` (1 for the first retry):
    /// ``AndroidWorkRules/backoffDelay`` (at least the minimum), times
    /// `attempt` (linear) or 2^(attempt − 1) (exponential), at most
    /// ``AndroidWorkRules/maxBackoffDelay``.
    public func backoff(attempt: Int) -> SimDuration {
        let base = max(rules.backoffDelay, rules.minBackoffDelay).microseconds
        let cap = rules.maxBackoffDelay.microseconds
        let n = Int64(max(attempt, 1))
        let grown: Int64
        switch rules.backoffPolicy {
        case .linear:
            let (p, over) = base.multipliedReportingOverflow(by: n)
            grown = over ? cap : p
        case .exponential:
            // 2^(n−1) saturates long before Int64 does: stop at the cap.
            var d = base
            var k: Int64 = 1
            while k < n && d < cap { d = d > cap / 2 ? cap : d * 2; k += 1 }
            grown = d
        }
        return SimDuration(microseconds: min(grown, cap))
    }
}
