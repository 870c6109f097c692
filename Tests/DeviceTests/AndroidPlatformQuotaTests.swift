@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// Standby buckets and job quotas on a simulated Android device
/// (Docs/AndroidPlatform.md A10–A14): a greedy app's run time per window,
/// the buckets from usage recency, and the ablation switches.
final class AndroidPlatformQuotaTests: XCTestCase {
    /// The event log of the last ``greedy`` run.
    var lastLog: [DeviceEvent] = []

    /// Asks to run every due request (so the OS's refusals are counted,
    /// by reason) and wakes when the next one is due.
    struct AsksForDue: SchedulingPolicy {
        func decide(context: PolicyContext) -> PolicyDecision {
            let next = context.pending.map(\.earliestBegin).filter { $0 > context.now }.min()
            return PolicyDecision(run: context.pending.filter { $0.earliestBegin <= context.now }.map(\.id), wakeAt: next)
        }
    }

    /// App 0 holds a job running whenever it may: its refresh (every
    /// 15 min, WorkManager's floor) would run 50 min, so each run ends at
    /// the 10-minute execution limit or when the quota stops it. One 10 s
    /// session of app 0 at 1 min; unplugged (unless `charging`), no
    /// network needed, no failures, no drain.
    func greedy(days: Int = 2, doze: Bool = false, buckets: Bool = true, table: JobQuotaGeneration = .android13Plus,
                limit: SimDuration = .minutes(10), charging: [DeviceTrace.Charging] = [],
                extra: [DeviceTrace.Session] = [], rules: (inout AndroidWorkRules) -> Void = { _ in })
        -> (UserMetrics, [(start: SimTime, end: SimTime)]) {
        var config = DeviceConfiguration()
        config.platform = .android
        config.android.doze = doze
        config.android.buckets = buckets
        config.android.quotaTable = table
        config.android.executionLimit = limit
        rules(&config.android)
        config.defaultApp.refresh.cpuSeconds = 3_000
        config.defaultApp.refresh.usesNetwork = false
        config.defaultApp.refresh.failureProbabilityWifi = 0
        config.defaultApp.refresh.failureProbabilityCellular = 0
        config.defaultApp.forgetProbability = 0
        config.defaultApp.refreshEarliestBeginDelay = .minutes(15)
        let trace = flatTrace(days: days, apps: ["greedy", "other"],
                              sessions: sessions(at: [.zero + .minutes(1)]) + extra,
                              network: [.init(start: .zero, end: SimTime(day: 30), kind: .wifi)],
                              charging: charging)
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: AsksForDue(), randomKey: 3)
        lastLog = log.events
        let runs = log.events.filter { $0.kind == .task && $0.app == 0 && $0.taskKind == .appRefresh }
        return (m, runs.map { (start: $0.start!, end: $0.end!) })
    }

    /// Run time of `runs` within [from, to].
    func runTime(_ runs: [(start: SimTime, end: SimTime)], from: SimTime, to: SimTime) -> SimDuration {
        runs.reduce(SimDuration.zero) { total, r in
            r.end > from && r.start < to ? total + (min(r.end, to) - max(r.start, from)) : total
        }
    }

    /// The most run time in any window of `window` ending at a run's end
    /// (the maximum over all windows is reached at one) among `runs`.
    func busiestWindow(_ runs: [(start: SimTime, end: SimTime)], window: SimDuration) -> SimDuration {
        runs.map { runTime(runs, from: $0.end - window, to: $0.end) }.max() ?? .zero
    }

    /// Android 13+: while active (12 h after the last use) at most 20 min
    /// of jobs in any hour; in working set afterwards, exactly one 10-min
    /// run every 4 h 30 s (the 10 min leave the 4 h window, the app is in
    /// quota again with 30 s to spare, and its run lasts until the window
    /// has let the old run go: 10 min).
    func testGreedyAppRunsAtMostTheAllowedTimePerWindow() {
        let (m, runs) = greedy()
        let lastUse = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        let workingSet = lastUse + .hours(12)
        let active = runs.filter { $0.end <= workingSet }
        XCTAssertGreaterThan(active.count, 10)
        XCTAssertLessThanOrEqual(busiestWindow(active, window: .hours(1)), .minutes(20))
        XCTAssertEqual(busiestWindow(active, window: .hours(1)), .minutes(20), "greedy: the quota binds")
        // Well into working set: the closed form.
        let late = runs.filter { $0.start >= workingSet + .hours(4) }
        XCTAssertGreaterThanOrEqual(late.count, 5)
        for r in late { XCTAssertEqual(r.end - r.start, .minutes(10)) }
        for (a, b) in zip(late, late.dropFirst()) { XCTAssertEqual(b.start - a.start, .hours(4) + .seconds(30 as Int64)) }
        XCTAssertLessThanOrEqual(busiestWindow(runs.filter { $0.start >= workingSet }, window: .hours(4)), .minutes(10))
        XCTAssertGreaterThan(m.refusalsByReason[Int(Refusal.quota.rawValue)], 0)
        XCTAssertEqual(Refusal.quota.name, "quota")
        // runs.csv's Android columns: each late run ends at its quota and
        // its 10-min limit at once (the budget wins the tie: no quota
        // stop) and leaves the app out of quota; the app ends in working set.
        let a = m.android!
        XCTAssertGreaterThanOrEqual(a.counters[.quotaExhausted], late.count)
        XCTAssertEqual(a.counters[.quotaStops], 0)
        XCTAssertEqual(a.counters[.dozeWindows], 0, "Doze off")
        XCTAssertEqual(a.appsInBucketAtEnd, [0, 2, 0, 0, 0])
        // events.csv: one quota_exhausted row per exhaustion, each at the
        // end of one of the app's runs, naming its bucket.
        let exhausted = lastLog.filter { $0.kind == .quotaExhausted }
        XCTAssertEqual(exhausted.count, a.counters[.quotaExhausted])
        for e in exhausted {
            XCTAssertEqual(e.app, 0)
            XCTAssertTrue(runs.contains { $0.end == e.time }, "\(e.time) ends no run")
            XCTAssertEqual(e.detail, e.time < workingSet ? "active" : "working-set")
        }
        XCTAssertTrue(exhausted.contains { $0.time == late[0].end })
    }

    /// Doze on, buckets off: the windows are counted, and the runs in them with their energy.
    func testDozeColumns() {
        let (m, runs) = greedy(days: 1, doze: true, buckets: false)
        let a = m.android!
        XCTAssertGreaterThanOrEqual(a.counters[.dozeWindows], 8, "4 light, then deep windows at 2 h, 4 h 05, 8 h 15, 14 h 25")
        // The greedy app runs in every window after the first light one (its period not yet due then).
        XCTAssertEqual(a.counters[.dozeWindowRuns], runs.filter { $0.start > runs[0].start }.count)
        XCTAssertGreaterThan(a.counters[.maintenanceEnergyJoules], 0)
        XCTAssertLessThanOrEqual(a.counters[.maintenanceEnergyJoules], m.energy.total)
        XCTAssertNil(a.appsInBucketAtEnd)
        // events.csv: a doze_window row at each window opening, the deep
        // ones at 2 h, 4 h 05, 8 h 15, 14 h 25, 20 h 35 of quiet time.
        let windows = lastLog.filter { $0.kind == .dozeWindow }
        XCTAssertEqual(windows.count, a.counters[.dozeWindows])
        let quiet = SimTime.zero + .minutes(1) + .seconds(10 as Int64)
        XCTAssertEqual(windows.filter { $0.detail == "deep" }.map { $0.time - quiet },
                       [120, 245, 495, 865, 1235].map { SimDuration.minutes(Int64($0)) })
        XCTAssertEqual(a.counters[.quotaExhausted], 0)
        XCTAssertFalse(runs.isEmpty)
        // iOS has none of them.
        let (ios, _) = simulateDeviceWithLog(trace: flatTrace(days: 1), policy: RunEverythingAllowed(), randomKey: 3)
        XCTAssertNil(ios.android)
        XCTAssertTrue(AndroidMetrics.columns.allSatisfy { $0.value(ios).isNaN })
    }

    /// With a 15-min execution limit the quota, not the limit, ends the
    /// runs: the second run of the first hour is stopped at 20 min of job
    /// time, and in working set every run at its 10 min.
    func testTheQuotaStopsARunningJob() {
        let (m, runs) = greedy(limit: .minutes(15))
        let workingSet = SimTime.zero + .minutes(1) + .seconds(10 as Int64) + .hours(12)
        XCTAssertEqual(runs[0].end - runs[0].start, .minutes(15))
        XCTAssertEqual(runs[1].end - runs[1].start, .minutes(5))
        XCTAssertLessThanOrEqual(busiestWindow(runs.filter { $0.end <= workingSet }, window: .hours(1)), .minutes(20))
        let late = runs.filter { $0.start >= workingSet + .hours(4) }
        XCTAssertGreaterThanOrEqual(late.count, 5)
        for r in late { XCTAssertEqual(r.end - r.start, .minutes(10)) }
        XCTAssertGreaterThanOrEqual(m.android!.counters[.quotaStops], late.count + 1)
    }

    /// Android ≤ 12 in working set: 10 min per 2 h, one run every 2 h 30 s.
    func testGreedyAppUnderTheAndroid12Table() {
        let (_, runs) = greedy(table: .upToAndroid12)
        let workingSet = SimTime.zero + .minutes(1) + .seconds(10 as Int64) + .hours(12)
        let late = runs.filter { $0.start >= workingSet + .hours(2) }
        XCTAssertGreaterThanOrEqual(late.count, 10)
        for (a, b) in zip(late, late.dropFirst()) { XCTAssertEqual(b.start - a.start, .hours(2) + .seconds(30 as Int64)) }
        XCTAssertLessThanOrEqual(busiestWindow(late, window: .hours(2)), .minutes(10))
    }

    /// Plugged in: no quota, a 10-min run every 15 min all day, nothing refused for quota.
    func testNoQuotaWhileCharging() {
        let (m, runs) = greedy(days: 1, charging: [.init(start: .zero, end: SimTime(day: 1))])
        XCTAssertEqual(m.refusalsByReason[Int(Refusal.quota.rawValue)], 0)
        XCTAssertEqual(runs.count, 96)
        for r in runs.dropLast() { XCTAssertEqual(r.end - r.start, .minutes(10)) }
    }

    /// `buckets` false: the greedy app runs 10 of every 15 min, no quota refusal;
    /// `doze` false: no doze refusal, and with Doze on the same quiet device has some.
    func testAblationSwitchesTurnOffTheirMechanism() {
        let (noBuckets, runs) = greedy(days: 1, buckets: false)
        XCTAssertEqual(noBuckets.refusalsByReason[Int(Refusal.quota.rawValue)], 0)
        // 10 min of every 15 (until the battery falls under 15 %): 40 min in an hour.
        XCTAssertEqual(busiestWindow(runs, window: .hours(1)), .minutes(40))
        let (noDoze, _) = greedy(days: 1, doze: false)
        XCTAssertEqual(noDoze.refusalsByReason[Int(Refusal.doze.rawValue)], 0)
        let (withDoze, _) = greedy(days: 1, doze: true)
        XCTAssertGreaterThan(withDoze.refusalsByReason[Int(Refusal.doze.rawValue)], 0)
    }

    /// On a device that is never quiet and always charging neither Doze
    /// nor the quotas act: every switch gives the same metrics.
    func testAblationSwitchesChangeNothingElse() {
        let charging: [DeviceTrace.Charging] = [.init(start: .zero, end: SimTime(day: 1))]
        func summary(_ m: UserMetrics) -> [Double] {
            [Double(m.tasksRun), Double(m.tasksExpired), Double(m.tasksRefused), m.energy.total, m.minBatteryPercent]
                + m.refusalsByReason.map(Double.init)
        }
        let base = greedy(days: 1, doze: true, buckets: true, charging: charging).0
        for (doze, buckets) in [(false, true), (true, false), (false, false)] {
            XCTAssertEqual(summary(greedy(days: 1, doze: doze, buckets: buckets, charging: charging).0), summary(base),
                           "doze \(doze), buckets \(buckets)")
        }
    }

    /// The fallback assignment as the simulator drives it: a session is a
    /// use (start and end); working set 12 h after, frequent once 24 h and
    /// 1 h of screen-on time have passed since, rare at 48 h and 2 h.
    func testBucketTransitionsFromUsageRecency() {
        var q = BucketQuotas(apps: 2, table: .android13Plus, at: .zero, screenOn: false)
        var state = DeviceState()
        func at(_ t: SimTime, foreground: Int32?) {
            state.isScreenOn = foreground != nil
            state.foregroundApp = foreground
            q.sync(now: t, state: state)
        }
        let h = SimDuration.hours(1)
        at(.zero + h, foreground: 0)
        at(.zero + h + .minutes(10), foreground: nil)
        let used = SimTime.zero + h + .minutes(10)
        at(.zero + h * 13, foreground: 1)   // app 1 in use for 2 h: screen time
        XCTAssertEqual(q.bucket(of: 1, at: .zero + h * 14), .active)
        at(.zero + h * 15, foreground: nil)
        XCTAssertEqual(q.bucket(of: 0, at: used + h * 12 - .seconds(1 as Int64)), .active)
        XCTAssertEqual(q.bucket(of: 0, at: used + h * 12), .workingSet)
        XCTAssertEqual(q.bucket(of: 0, at: used + h * 24 - .seconds(1 as Int64)), .workingSet)
        XCTAssertEqual(q.bucket(of: 0, at: used + h * 24), .frequent)
        XCTAssertEqual(q.bucket(of: 0, at: used + h * 48), .rare, "2 h of screen since its use")
        // App 1's 2 h session ended at 15 h: 1 h of screen since is not
        // reached with the screen off, so it stays in working set.
        XCTAssertEqual(q.bucket(of: 1, at: .zero + h * 15 + h * 30), .workingSet)
        // Every app counts as used at time 0 (A10).
        XCTAssertEqual(BucketQuotas(apps: 1, table: .android13Plus, at: .zero, screenOn: false)
            .bucket(of: 0, at: .zero + h * 11), .active)
    }
}
