import SimCore

/// A stretch of time during which at least one of an app's jobs ran and
/// the quota tracked it (AOSP QuotaController's `TimingSession`).
public struct QuotaSession: Sendable, Hashable {
    public var start: SimTime
    public var end: SimTime
    /// Jobs started in it.
    public var jobs: Int

    public init(start: SimTime, end: SimTime, jobs: Int) {
        self.start = start
        self.end = end
        self.jobs = jobs
    }
}

/// One app's job-quota accounting (AOSP `QuotaController`): the sessions
/// its jobs ran in, and from them whether the app is in quota for its
/// bucket, how much execution time it has left, when running jobs use up
/// the quota and when an app out of quota is in quota again.
///
/// What the caller records is what QuotaController's timers track: job
/// time on battery (any bucket) or while charging in the restricted bucket,
/// never while the app is in the foreground (``JobQuotaTable/isQuotaFree(bucket:charging:foreground:)``
/// says when not to record, and when not to ask). Runs that overlap in
/// time are one session. Queries are made at times no earlier than the
/// end of anything recorded. Docs/Android.md, rules A4–A8.
public struct JobQuota: Sendable, Hashable {
    public let table: JobQuotaTable
    /// Sessions by start, disjoint (overlapping runs merged).
    public private(set) var sessions: [QuotaSession] = []
    /// Start times of the counted jobs, sorted (the rate limit counts them).
    public private(set) var jobStarts: [SimTime] = []

    public init(table: JobQuotaTable) {
        self.table = table
    }

    /// How far back anything recorded can still matter.
    private var retention: SimDuration {
        [table.active.window, table.workingSet.window, table.frequent.window, table.rare.window,
         table.restricted.window, .days(1), table.rateLimitWindow].max()!
    }

    /// Records a run of `jobs` jobs (started at `start`) that the quota
    /// tracked from `start` to `end`. A run that overlaps a recorded
    /// session joins it.
    public mutating func record(start: SimTime, end: SimTime, jobs: Int = 1) {
        precondition(end >= start, "a run ends before it starts")
        var merged = QuotaSession(start: start, end: end, jobs: jobs)
        sessions.removeAll { s in
            guard s.start <= merged.end && merged.start <= s.end else { return false }
            merged = QuotaSession(start: min(s.start, merged.start), end: max(s.end, merged.end), jobs: s.jobs + merged.jobs)
            return true
        }
        let at = sessions.firstIndex { $0.start > merged.start } ?? sessions.count
        sessions.insert(merged, at: at)
        for _ in 0..<jobs {
            jobStarts.insert(start, at: jobStarts.firstIndex { $0 > start } ?? jobStarts.count)
        }
        // Nothing older than the longest window can count again.
        let horizon = end - retention
        sessions.removeAll { $0.end < horizon }
        jobStarts.removeAll { $0 < horizon }
    }

    // MARK: Queries

    /// Job time of the recorded sessions within [from, to].
    public func executionTime(from: SimTime, to: SimTime) -> SimDuration {
        var total = SimDuration.zero
        for s in sessions where s.end > from && s.start < to {
            total = total + (min(s.end, to) - max(s.start, from))
        }
        return total
    }

    /// Jobs of the sessions that end at or after `windowStart` (QuotaController
    /// counts a session's jobs while any of it is in the window).
    func jobsInWindow(since windowStart: SimTime) -> Int {
        sessions.reduce(0) { $0 + ($1.end >= windowStart ? $1.jobs : 0) }
    }

    /// The sessions ending at or after `windowStart`, one for each run of
    /// sessions closer than `sessionCoalescing` to the next.
    func sessionsInWindow(since windowStart: SimTime) -> Int {
        groupEnds().filter { $0 >= windowStart }.count
    }

    /// The end of each coalesced group of sessions, in order.
    private func groupEnds() -> [SimTime] {
        var ends: [SimTime] = []
        for (i, s) in sessions.enumerated() {
            if i + 1 < sessions.count && sessions[i + 1].start - s.end <= table.sessionCoalescing { continue }
            ends.append(s.end)
        }
        return ends
    }

    /// Whether `bucket`'s quota lets a job start at `now` (not counting the
    /// quota-free cases, which the caller checks first): execution time in
    /// the bucket's window under its allowed time, in the last 24 h under
    /// `maxExecutionTime`, jobs and sessions in the window under their
    /// limits, and the rate limit not reached.
    public func isInQuota(at now: SimTime, bucket: StandbyBucket) -> Bool {
        let l = table.limits(for: bucket)
        guard l.allowedTime > .zero else { return false }
        return executionTime(from: now - l.window, to: now) < l.allowedTime
            && executionTime(from: now - .days(1), to: now) < table.maxExecutionTime
            && jobsInWindow(since: now - l.window) < l.maxJobs
            && sessionsInWindow(since: now - l.window) < l.maxSessions
            && jobStarts.filter { $0 > now - table.rateLimitWindow }.count < table.rateLimitMaxJobs
            && sessions.filter { $0.start > now - table.rateLimitWindow }.count < table.rateLimitMaxSessions
    }

    /// The quota-free cases first, then ``isInQuota(at:bucket:)``.
    public func allows(at now: SimTime, bucket: StandbyBucket, charging: Bool, foreground: Bool = false) -> Bool {
        JobQuotaTable.isQuotaFree(bucket: bucket, charging: charging, foreground: foreground)
            || isInQuota(at: now, bucket: bucket)
    }

    /// Execution time left at `now` before the bucket's allowed time or the
    /// 24 h maximum is used up, if the window did not slide (QuotaController's
    /// `getRemainingExecutionTimeLocked`); zero when out of quota.
    public func timeLeft(at now: SimTime, bucket: StandbyBucket) -> SimDuration {
        let l = table.limits(for: bucket)
        let inWindow = l.allowedTime - executionTime(from: now - l.window, to: now)
        let inDay = table.maxExecutionTime - executionTime(from: now - .days(1), to: now)
        return max(.zero, min(inWindow, inDay))
    }

    /// How long a job started at `now` can run before its app's quota is
    /// used up, the window sliding meanwhile (QuotaController's
    /// `getTimeUntilQuotaConsumedLocked`): the simulator stops the app's
    /// jobs then. Zero when out of quota.
    public func timeUntilQuotaConsumed(at now: SimTime, bucket: StandbyBucket) -> SimDuration {
        let l = table.limits(for: bucket)
        return min(untilConsumed(allowed: l.allowedTime, window: l.window, now: now),
                   untilConsumed(allowed: table.maxExecutionTime, window: .days(1), now: now))
    }

    /// The first d >= 0 at which a run from `now` plus the past sessions
    /// still in the window fill `allowed`. The filled time grows at rate 1
    /// while the window's start crosses a gap between sessions and stays
    /// level while it crosses a session (the run adds what the past loses).
    private func untilConsumed(allowed: SimDuration, window: SimDuration, now: SimTime) -> SimDuration {
        var need = allowed - executionTime(from: now - window, to: now)
        if need <= .zero { return .zero }
        var x = now - window
        var d = SimDuration.zero
        for s in sessions where s.end > x {
            let start = max(s.start, x)
            let gap = start - x
            if gap >= need { return d + need }
            d = d + gap
            need = need - gap
            d = d + (s.end - start)
            x = s.end
        }
        return d + need
    }

    /// The earliest time at or after `now` at which the app is in quota
    /// again if nothing more runs: `now` if it is in quota; otherwise the
    /// latest of the times each limit frees, where the execution-time
    /// limits must free `inQuotaBuffer` (QuotaController's in-quota alarm).
    /// `.distantFuture` for a bucket allowed nothing (never used).
    public func nextInQuota(at now: SimTime, bucket: StandbyBucket) -> SimTime {
        if isInQuota(at: now, bucket: bucket) { return now }
        let l = table.limits(for: bucket)
        guard l.allowedTime > .zero, l.maxJobs > 0, l.maxSessions > 0 else { return .distantFuture }
        var t = now
        t = max(t, whenExecutionFalls(to: l.allowedTime - table.inQuotaBuffer, window: l.window, now: now))
        t = max(t, whenExecutionFalls(to: table.maxExecutionTime - table.inQuotaBuffer, window: .days(1), now: now))
        // Counts: a session (group) leaves the window one microsecond after
        // its end is `window` old; the k-th oldest must leave.
        let one = SimDuration(microseconds: 1)
        var counted = sessions.filter { $0.end >= now - l.window }
        var jobs = counted.reduce(0) { $0 + $1.jobs }
        while jobs >= l.maxJobs, let oldest = counted.first {
            t = max(t, oldest.end + l.window + one)
            jobs -= oldest.jobs
            counted.removeFirst()
        }
        let groups = groupEnds().filter { $0 >= now - l.window }
        if groups.count >= l.maxSessions {
            t = max(t, groups[groups.count - l.maxSessions] + l.window + one)
        }
        // The rate limit counts starts in (t - window, t].
        let recentStarts = jobStarts.filter { $0 > now - table.rateLimitWindow }
        if recentStarts.count >= table.rateLimitMaxJobs {
            t = max(t, recentStarts[recentStarts.count - table.rateLimitMaxJobs] + table.rateLimitWindow)
        }
        let recentSessions = sessions.map(\.start).filter { $0 > now - table.rateLimitWindow }
        if recentSessions.count >= table.rateLimitMaxSessions {
            t = max(t, recentSessions[recentSessions.count - table.rateLimitMaxSessions] + table.rateLimitWindow)
        }
        return t
    }

    /// The first t >= now at which the sessions' time in [t - window, t]
    /// is at most `target`, nothing running: the window's start must pass
    /// over `excess` of session time.
    private func whenExecutionFalls(to target: SimDuration, window: SimDuration, now: SimTime) -> SimTime {
        var excess = executionTime(from: now - window, to: now) - target
        if excess <= .zero { return now }
        var x = now - window
        for s in sessions where s.end > x {
            let start = max(s.start, x)
            let length = s.end - start
            if length >= excess { return start + excess + window }
            excess = excess - length
            x = s.end
        }
        return x + window
    }
}
