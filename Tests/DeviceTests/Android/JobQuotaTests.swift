import Device
import SimCore
import XCTest

/// QuotaController's accounting (Docs/Android.md, rules A4–A8): closed
/// forms for an app that runs whenever its quota allows, and the limits
/// one by one.
final class JobQuotaTests: XCTestCase {
    func at(_ d: SimDuration) -> SimTime { SimTime.zero + d }

    /// An app that starts a job of `length` whenever its quota allows and
    /// has something to run at least `spacing` after its last start,
    /// stopped when its quota is used up (as JobScheduler stops it). Returns
    /// the runs.
    func greedy(_ table: JobQuotaTable, _ bucket: StandbyBucket, length: SimDuration, spacing: SimDuration,
                until horizon: SimTime) -> [(SimTime, SimTime)] {
        var quota = JobQuota(table: table)
        var runs: [(SimTime, SimTime)] = []
        var now = SimTime.zero
        while now < horizon {
            let t = quota.nextInQuota(at: now, bucket: bucket)
            if t >= horizon { break }
            XCTAssertTrue(quota.isInQuota(at: t, bucket: bucket), "nextInQuota \(t) is not in quota")
            let run = min(length, quota.timeUntilQuotaConsumed(at: t, bucket: bucket))
            XCTAssertGreaterThan(run, .zero, "in quota at \(t) with no time to run")
            quota.record(start: t, end: t + run)
            runs.append((t, t + run))
            now = max(t + run, t + spacing)
        }
        return runs
    }

    /// Job time in [to - window, to] of the runs.
    func time(of runs: [(SimTime, SimTime)], from: SimTime, to: SimTime) -> SimDuration {
        runs.reduce(.zero) { $0 + max(.zero, min($1.1, to) - max($1.0, from)) }
    }

    /// The closed form the issue asks for: in every rolling window a job
    /// runs at most the bucket's allowed time, the sessions stay under
    /// their cap, and the 4 h / 24 h cap holds; for every bucket of both
    /// tables, long jobs and short ones.
    func testGreedyAppNeverExceedsAllowedTimePerWindow() {
        for table in [JobQuotaTable.upToAndroid12, .android13Plus] {
            for bucket in [StandbyBucket.active, .workingSet, .frequent, .rare, .restricted] {
                for (length, spacing) in [(SimDuration.minutes(25), SimDuration.minutes(1)), (.minutes(3), .minutes(7))] {
                    let l = table.limits(for: bucket)
                    let runs = greedy(table, bucket, length: length, spacing: spacing, until: at(.days(3)))
                    XCTAssertFalse(runs.isEmpty)
                    for (_, end) in runs {
                        XCTAssertLessThanOrEqual(time(of: runs, from: end - l.window, to: end), l.allowedTime,
                                                 "\(bucket) window ending \(end)")
                        XCTAssertLessThanOrEqual(time(of: runs, from: end - .days(1), to: end), table.maxExecutionTime)
                        XCTAssertLessThanOrEqual(runs.filter { $0.1 >= end - l.window && $0.1 <= end }.count, l.maxSessions)
                    }
                }
            }
        }
    }

    /// Android <= 12, working set (10 min per 2 h): 10-minute jobs back to
    /// back run at k × (2 h + 30 s), 10 min each: the quota is in use
    /// again once 30 s (the in-quota buffer) of the first run left the window,
    /// and the run then gets its full 10 min as the rest of that run leaves.
    func testWorkingSetUpToAndroid12ClosedForm() {
        let runs = greedy(.upToAndroid12, .workingSet, length: .minutes(10), spacing: .zero, until: at(.hours(12)))
        XCTAssertEqual(runs.count, 6)
        for (k, run) in runs.enumerated() {
            let start = at((SimDuration.hours(2) + .seconds(30 as Int64)) * Int64(k))
            XCTAssertEqual(run.0, start, "run \(k)")
            XCTAssertEqual(run.1, start + .minutes(10), "run \(k)")
        }
    }

    /// The same on Android 13+ (10 min per 4 h): k × (4 h + 30 s).
    func testWorkingSetAndroid13ClosedForm() {
        let runs = greedy(.android13Plus, .workingSet, length: .minutes(10), spacing: .zero, until: at(.hours(12)))
        XCTAssertEqual(runs.map { $0.0 }, (0..<3).map { at((SimDuration.hours(4) + .seconds(30 as Int64)) * Int64($0)) })
    }

    /// Rare: 3 sessions per 24 h bind before the 10 minutes: 1-minute jobs
    /// every 10 minutes run 3 times, then not until the first session's end
    /// is 24 h old.
    func testRareSessionCap() {
        let runs = greedy(.android13Plus, .rare, length: .minutes(1), spacing: .minutes(10), until: at(.hours(30)))
        XCTAssertEqual(Array(runs.map { $0.0 }.prefix(4)), [at(.zero), at(.minutes(10)), at(.minutes(20)),
                                                 at(.days(1) + .minutes(1)) + SimDuration(microseconds: 1)])
    }

    /// Sessions closer than 5 s count as one: three jobs 3 s apart use one
    /// of rare's three sessions.
    func testCloseSessionsCoalesce() {
        var q = JobQuota(table: .android13Plus)
        for k in 0..<3 { q.record(start: at(.seconds(4 * Int64(k))), end: at(.seconds(4 * Int64(k) + 1))) }
        q.record(start: at(.minutes(5)), end: at(.minutes(6)))
        XCTAssertEqual(q.sessions.count, 4)
        XCTAssertTrue(q.isInQuota(at: at(.minutes(10)), bucket: .rare), "two coalesced sessions of 3")
        q.record(start: at(.minutes(20)), end: at(.minutes(21)))
        XCTAssertFalse(q.isInQuota(at: at(.minutes(30)), bucket: .rare))
    }

    /// 20 jobs a minute: 1-second jobs every 2 s are out of quota after the
    /// 20th start (at 38 s) until the first start is a minute old.
    func testRateLimit() {
        var q = JobQuota(table: .android13Plus)
        for k in 0..<20 { q.record(start: at(.seconds(2 * Int64(k))), end: at(.seconds(2 * Int64(k) + 1))) }
        XCTAssertFalse(q.isInQuota(at: at(.seconds(40)), bucket: .active))
        XCTAssertEqual(q.nextInQuota(at: at(.seconds(40)), bucket: .active), at(.seconds(60)))
        XCTAssertFalse(q.isInQuota(at: at(.seconds(60)) - SimDuration(microseconds: 1), bucket: .active))
        XCTAssertTrue(q.isInQuota(at: at(.seconds(60)), bucket: .active))
    }

    func testTimeLeftAndTimeUntilConsumed() {
        var q = JobQuota(table: .upToAndroid12)
        q.record(start: at(.hours(1)), end: at(.hours(1) + .minutes(4)))
        let now = at(.hours(2))
        XCTAssertEqual(q.timeLeft(at: now, bucket: .workingSet), .minutes(6))
        XCTAssertEqual(q.timeUntilQuotaConsumed(at: now, bucket: .workingSet), .minutes(6))
        // At 2 h 58 the window [58 min, 2 h 58] holds all 4 minutes, but they
        // slide out of it (by 3 h 04) while a run started then goes on: the
        // run gets the whole 10 minutes.
        XCTAssertEqual(q.timeUntilQuotaConsumed(at: at(.hours(2) + .minutes(58)), bucket: .workingSet), .minutes(10))
        // Frequent on Android 13+: 10 min per 12 h, nothing slides out.
        var r = JobQuota(table: .android13Plus)
        r.record(start: at(.hours(1)), end: at(.hours(1) + .minutes(4)))
        XCTAssertEqual(r.timeUntilQuotaConsumed(at: at(.hours(2) + .minutes(58)), bucket: .frequent), .minutes(6))
    }

    func testQuotaFreeCasesAndNeverBucket() {
        XCTAssertTrue(JobQuotaTable.isQuotaFree(bucket: .rare, charging: true))
        XCTAssertFalse(JobQuotaTable.isQuotaFree(bucket: .restricted, charging: true))
        XCTAssertTrue(JobQuotaTable.isQuotaFree(bucket: .restricted, charging: false, foreground: true))
        XCTAssertFalse(JobQuotaTable.isQuotaFree(bucket: .active, charging: false))
        var q = JobQuota(table: .android13Plus)
        q.record(start: .zero, end: at(.minutes(10)))
        XCTAssertFalse(q.allows(at: at(.minutes(10)), bucket: .rare, charging: false))
        XCTAssertTrue(q.allows(at: at(.minutes(10)), bucket: .rare, charging: true))
        XCTAssertFalse(q.isInQuota(at: .zero, bucket: .never))
        XCTAssertEqual(q.nextInQuota(at: .zero, bucket: .never), .distantFuture)
    }

    /// The 4 h per 24 h cap binds an active app on Android <= 12 (10 min
    /// per 10 min: otherwise unlimited).
    func testMaxExecutionTimePerDay() {
        let runs = greedy(.upToAndroid12, .active, length: .hours(1), spacing: .zero, until: at(.days(1)))
        XCTAssertEqual(time(of: runs, from: .zero, to: at(.days(1))), .hours(4))
    }

    func testOverlappingRunsAreOneSession() {
        var q = JobQuota(table: .android13Plus)
        q.record(start: at(.minutes(5)), end: at(.minutes(8)))
        q.record(start: at(.minutes(0)), end: at(.minutes(10)), jobs: 2)
        XCTAssertEqual(q.sessions, [QuotaSession(start: .zero, end: at(.minutes(10)), jobs: 3)])
        XCTAssertEqual(q.jobStarts.count, 3)
        XCTAssertEqual(q.executionTime(from: .zero, to: at(.hours(1))), .minutes(10))
    }

    func testTablesAndTheirChecks() throws {
        XCTAssertEqual(JobQuotaTable.upToAndroid12.limits(for: .workingSet).window, .hours(2))
        XCTAssertEqual(JobQuotaTable.upToAndroid12.limits(for: .frequent).window, .hours(8))
        XCTAssertEqual(JobQuotaTable.upToAndroid12.limits(for: .active).allowedTime, .minutes(10))
        XCTAssertEqual(JobQuotaTable.android13Plus.limits(for: .active), JobQuotaLimits(window: .hours(1),
            allowedTime: .minutes(20), maxJobs: 75, maxSessions: 75))
        XCTAssertEqual(JobQuotaTable.android13Plus.limits(for: .frequent).window, .hours(12))
        XCTAssertEqual(JobQuotaTable.android13Plus.limits(for: .restricted).maxSessions, 1)
        XCTAssertNil(JobQuotaTable.upToAndroid12.rangeProblem)
        XCTAssertNil(JobQuotaTable.android13Plus.rangeProblem)
        let json = Data(#"{"rareWindow": "5m"}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(JobQuotaTable.self, from: json)) { error in
            XCTAssertTrue(String(describing: error).contains("rareAllowedTime"), "\(error)")
        }
    }
}
