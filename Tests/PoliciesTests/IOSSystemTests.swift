@testable import Device
import Foundation
@testable import Policies
import SimCore
import XCTest

/// ios-system: each factor in isolation on a tiny world, then the whole
/// policy in simulations (budget over a day, honest vs dishonest apps) and
/// the conformance helper.
final class IOSSystemTests: XCTestCase {
    func request(_ id: UInt32, app: Int32, kind: TaskKind = .appRefresh, earliestBegin: SimTime = .zero) -> TaskRequest {
        TaskRequest(id: RequestID(id), app: app, identifier: kind == .processing ? 1 : 0, kind: kind,
                    earliestBegin: earliestBegin, requiresExternalPower: kind == .processing, submittedAt: .zero)
    }

    func context(_ now: SimTime, _ pending: [TaskRequest], apps: Int, device: DeviceState = DeviceState(),
                 lastSessionEnd: SimTime? = nil, joules: Double = 0) -> PolicyContext {
        PolicyContext(now: now, device: device, pending: pending, appCount: apps, lastSessionEnd: lastSessionEnd,
                      backgroundJoules: joules)
    }

    /// A policy that saw `app` launched at `hour` on each of `days` days.
    func learnt(_ policy: IOSSystemPolicy = IOSSystemPolicy(), apps: [Int32] = [0], hour: Double, days: Int) -> IOSSystemPolicy {
        var p = policy
        for d in 0..<days {
            for a in apps { p.observe(.launch(app: a), context: context(at(day: d, hour), [], apps: apps.count)) }
        }
        return p
    }

    func report(app: Int32, start: SimTime, seconds: Double = 1, outcome: TaskOutcome = .success,
                result: FetchResult? = .newData) -> TaskReport {
        TaskReport(request: request(1, app: app), start: start, end: start + .seconds(seconds), outcome: outcome,
                   fetchResult: result, energyJoules: 1)
    }

    // MARK: Usage at this time of day

    /// An app used at this hour is refreshed; one never used is not, and
    /// the policy does not even wake for it.
    func testUsedAppIsRefreshedNeverUsedIsNot() {
        var p = learnt(apps: [0], hour: 8.2, days: 3)
        let d = p.decide(context: context(at(day: 3, 8.0), [request(1, app: 0), request(2, app: 1)], apps: 2))
        XCTAssertEqual(d.run, [RequestID(1)])
        var q = learnt(apps: [0], hour: 8.2, days: 3)
        let onlyUnused = q.decide(context: context(at(day: 3, 8.0), [request(2, app: 1)], apps: 2))
        XCTAssertEqual(onlyUnused, .none, "no run and no wake for an app never used")
    }

    /// Priority follows the hour: the app used at 08:00 is not refreshed at
    /// 15:00, but the policy wakes at the next hour to look again.
    func testPriorityFollowsTheTimeOfDay() {
        var p = learnt(hour: 8.2, days: 3)
        XCTAssertEqual(p.usage.priority(app: 0, at: at(day: 3, 8.5)), 1, accuracy: 1e-12)
        XCTAssertEqual(p.usage.priority(app: 0, at: at(day: 3, 7.5)), 1, accuracy: 1e-12, "the hour before counts: refresh before use")
        XCTAssertEqual(p.usage.priority(app: 0, at: at(day: 3, 15)), 0)
        let d = p.decide(context: context(at(day: 3, 15.25), [request(1, app: 0)], apps: 1))
        XCTAssertTrue(d.run.isEmpty)
        XCTAssertEqual(d.wakeAt, at(day: 3, 16))
    }

    /// Launches decay by `usageDecay` per day: a habit dropped fades.
    func testUsageDecays() {
        var u = UsagePriority(decay: 0.5)
        u.recordLaunch(app: 0, at: at(day: 0, 8.1))
        u.roll(to: at(day: 2, 0))
        // counts 0.25, days seen 0.25 + 0.5 + 1 = 1.75
        XCTAssertEqual(u.priority(app: 0, at: at(day: 2, 8.5)), 0.25 / 1.75, accuracy: 1e-12)
    }

    /// Over 5 simulated days, an app used every morning gets background
    /// refreshes; an app never opened gets none.
    func testInASimulationOnlyTheUsedAppIsRefreshed() {
        let days = 5
        let sessions = makeSessions((0..<days).flatMap { d in [(at(day: d, 8.3), Int32(0)), (at(day: d, 20.3), Int32(0))] })
        let t = trace(days: days, apps: ["news", "unused"], sessions: sessions, updates: [[], []])
        let (_, log) = simulateDeviceWithLog(trace: t, policy: IOSSystemPolicy(), randomKey: 3)
        let refreshes = log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
        XCTAssertEqual(refreshes.filter { $0.app == 1 }.count, 0)
        XCTAssertGreaterThanOrEqual(refreshes.filter { $0.app == 0 }.count, days, "at least one a day once learnt")
    }

    // MARK: Fetch-result feedback and penalties

    func testRateRisesWithNewDataAndFallsWithNoDataFailuresAndExpirations() {
        var r = OpportunityRate()
        for i in 0..<3 { r.record(report(app: 0, start: at(day: 0, Double(i)))) }
        XCTAssertEqual(r.rate(app: 0), 1.25 * 1.25 * 1.25, accuracy: 1e-12)
        for i in 0..<20 { r.record(report(app: 0, start: at(day: 1, Double(i)))) }
        XCTAssertEqual(r.rate(app: 0), 4, "capped at maxRate")
        r.record(report(app: 1, start: .zero, result: .noData))
        XCTAssertEqual(r.rate(app: 1), 0.9, accuracy: 1e-12)
        r.record(report(app: 2, start: .zero, outcome: .failed, result: .failed))
        XCTAssertEqual(r.rate(app: 2), 0.7, accuracy: 1e-12)
        r.record(report(app: 3, start: .zero, outcome: .expired, result: .failed))
        XCTAssertEqual(r.rate(app: 3), 0.5, accuracy: 1e-12)
        r.record(report(app: 4, start: .zero, seconds: 12))
        XCTAssertEqual(r.rate(app: 4), 1.25 * 0.8, accuracy: 1e-12, "slow run: the gain times the slow penalty")
        XCTAssertEqual(r.penalties, [0, 0, 1, 1, 1])
        for i in 0..<40 { r.record(report(app: 1, start: at(day: 2, Double(i) / 2), result: .noData)) }
        XCTAssertEqual(r.rate(app: 1), 0.1, "floored at minRate")
    }

    /// A dishonest app's `.newData` on a failed or expired run is judged by
    /// the outcome, not the report.
    func testADishonestReportOfAFailureIsJudgedByItsOutcome() {
        var r = OpportunityRate()
        r.record(report(app: 0, start: .zero, outcome: .failed, result: .newData))
        r.record(report(app: 1, start: .zero, outcome: .expired, result: .newData))
        XCTAssertEqual(r.rate(app: 0), 0.7, accuracy: 1e-12)
        XCTAssertEqual(r.rate(app: 1), 0.5, accuracy: 1e-12)
        XCTAssertEqual(r.lies, [1, 1])
        // Caught: for `distrustFor` (7 days) its .newData counts as .noData, then is believed again.
        r.record(report(app: 0, start: at(day: 3, 0)))
        XCTAssertEqual(r.rate(app: 0), 0.7 * 0.9, accuracy: 1e-12)
        r.record(report(app: 0, start: at(day: 7, 1)))
        XCTAssertEqual(r.rate(app: 0), 0.7 * 0.9 * 1.25, accuracy: 1e-12)
        // An honest failure is no lie.
        r.record(report(app: 2, start: .zero, outcome: .failed, result: .failed))
        r.record(report(app: 2, start: at(day: 0, 1)))
        XCTAssertEqual(r.rate(app: 2), 0.7 * 1.25, accuracy: 1e-12)
        XCTAssertEqual(r.lies, [1, 1, 0])
    }

    /// The due time is baseInterval / (rate · priority) after the last refresh.
    func testOpportunityIntervalScalesWithRateAndPriority() {
        var p = learnt(hour: 8.2, days: 2)
        let start = at(day: 2, 7.1)
        p.observe(.taskFinished(report(app: 0, start: start)), context: context(start + .seconds(1 as Int64), [], apps: 1))
        // priority 1, rate 1.25: due 48 min later.
        XCTAssertEqual(p.refreshDue(app: 0, at: at(day: 2, 7.2)), start + .minutes(48))
    }

    /// With no new content ever, the honest app reports `.noData` and its
    /// rate falls; the dishonest one says `.newData` every time and, as its
    /// runs never fail here (instant work), is never caught: it is believed
    /// (a policy cannot see the bytes), so it is refreshed several times as
    /// often and spends more energy.
    func testADishonestAppIsRefreshedMoreOftenThanAnHonestOne() {
        let days = 4
        let sessions = makeSessions((0..<days).flatMap { d in stride(from: 8.0, to: 22.0, by: 1.0).map { (at(day: d, $0 + 0.5), Int32(0)) } })
        let t = trace(days: days, apps: ["news"], sessions: sessions, updates: [[]])
        func run(honest: Bool) -> (refreshes: Int, joules: Double) {
            var config = DeviceConfiguration()
            config.defaultApp.reportsHonestly = honest
            config.defaultApp.refresh = .instant
            let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: IOSSystemPolicy(), randomKey: 1)
            return (log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }.count, m.energy.total)
        }
        let honest = run(honest: true), dishonest = run(honest: false)
        print("ios-system, no new content, 4 days: honest \(honest.refreshes) refreshes \(honest.joules) J; dishonest \(dishonest.refreshes) refreshes \(dishonest.joules) J")
        XCTAssertGreaterThan(honest.refreshes, 0)
        XCTAssertGreaterThanOrEqual(dishonest.refreshes, 3 * honest.refreshes)
        XCTAssertGreaterThan(dishonest.joules, honest.joules)
    }

    /// When its runs sometimes fail, the dishonest app's `.newData` on a
    /// failed run gives it away: distrusted, its reports count as `.noData`
    /// and it is refreshed less often than the honest app, whose `.newData`
    /// (content changes every 30 min) is believed.
    func testACaughtDishonestAppIsRefreshedLessOftenThanAnHonestOne() {
        let days = 4
        let sessions = makeSessions((0..<days).flatMap { d in stride(from: 8.0, to: 22.0, by: 1.0).map { (at(day: d, $0 + 0.5), Int32(0)) } })
        let updates = stride(from: 0.25, to: Double(days * 24), by: 0.5).map { SimTime.zero + .seconds($0 * 3600) }
        let t = trace(days: days, apps: ["news"], sessions: sessions, updates: [updates])
        func run(honest: Bool) -> Int {
            var config = DeviceConfiguration()
            config.defaultApp.reportsHonestly = honest
            config.defaultApp.refresh = .instant
            config.defaultApp.refresh.failureProbabilityWifi = 0.1
            config.defaultApp.retryDelayAfterFailure = nil
            let (_, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: IOSSystemPolicy(), randomKey: 1)
            return log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }.count
        }
        let honest = run(honest: true), dishonest = run(honest: false)
        print("ios-system, content every 30 min, 10 % failures, 4 days: honest \(honest) refreshes, dishonest \(dishonest)")
        XCTAssertLessThan(Double(dishonest), 0.8 * Double(honest))
    }

    // MARK: Budgets

    /// Battery energy over each day stays within the budget (plus the run
    /// that was started when it still fitted), and by noon within the
    /// share of the day that has passed: the budget is spread over the day.
    func testEnergyBudgetIsRespectedOverADay() {
        let budget = 10.0, days = 3
        var limited = 0.0, unlimited = 0.0
        for (i, t) in users(4, days: days).enumerated() {
            let (_, log) = simulateDeviceWithLog(trace: t, policy: IOSSystemPolicy(energy: EnergyBudget(perDay: budget)), randomKey: UInt64(i))
            var byDay = [Double](repeating: 0, count: days + 1), byNoon = byDay
            for e in log.events where e.kind == .task && !e.device.isCharging {
                byDay[e.time.day] += e.energy.total
                if e.time.timeOfDay < .hours(12) { byNoon[e.time.day] += e.energy.total }
            }
            for d in 0..<days {
                XCTAssertLessThanOrEqual(byDay[d], budget + oneLTERun, "user \(i) day \(d)")
                XCTAssertLessThanOrEqual(byNoon[d], budget * 0.6 + oneLTERun, "user \(i) day \(d) by noon")
            }
            limited += byDay.reduce(0, +)
            let (_, free) = simulateDeviceWithLog(trace: t, policy: IOSSystemPolicy(energy: EnergyBudget(perDay: 1e9)), randomKey: UInt64(i))
            unlimited += free.events.filter { $0.kind == .task && !$0.device.isCharging }.map(\.energy.total).reduce(0, +)
        }
        print("ios-system energy per user-day: budget \(budget) J → \(limited / Double(4 * days)) J; unlimited \(unlimited / Double(4 * days)) J")
        XCTAssertGreaterThan(unlimited, 2 * limited, "the budget binds")
    }

    func testDayAllowanceIsSpreadOverTheDay() {
        let a = DayAllowance(perDay: 100, burst: 0.1)
        XCTAssertEqual(a.allowed(at: at(day: 0, 0)), 10, accuracy: 1e-9)
        XCTAssertEqual(a.allowed(at: at(day: 0, 12)), 60, accuracy: 1e-9)
        XCTAssertEqual(a.allowed(at: at(day: 0, 23)), 100, accuracy: 1e-9)
        XCTAssertEqual(a.time(whenAllowed: 35, after: at(day: 0, 1)), at(day: 0, 6))
        XCTAssertNil(a.time(whenAllowed: 101, after: at(day: 0, 1)))
    }

    /// On cellular, refreshes stop when the day's cellular bytes are used
    /// (each run expected to cost the mean of those seen); on Wi-Fi they go
    /// on, and Wi-Fi bytes do not count.
    func testCellularBudgetStopsCellularRefreshesOnly() {
        var p = learnt(IOSSystemPolicy(data: CellularDataBudget(bytesPerDay: 4 * 52_000, burst: 0)), hour: 12.2, days: 2)
        let noon = at(day: 2, 12)
        for i in 0..<2 {
            let s = noon - .minutes(Int64(10 + i))
            var r = report(app: 0, start: s)
            r.bytesUp = 2_000; r.bytesDown = 50_000; r.network = .cellular
            p.observe(.taskFinished(r), context: context(s + .seconds(1 as Int64), [], apps: 1,
                                                         device: DeviceState(network: .cellular)))
            r.network = .wifi   // Wi-Fi bytes are not charged
            p.observe(.taskFinished(r), context: context(s + .seconds(2 as Int64), [], apps: 1))
        }
        XCTAssertEqual(p.data.bytesToday, 104_000)
        XCTAssertEqual(p.data.expectedBytesPerRun, 52_000)
        p.lastRefreshStart[0] = .zero // due now, whatever the feedback
        let cell = p.decide(context: context(noon, [request(9, app: 0)], apps: 1, device: DeviceState(network: .cellular)))
        XCTAssertTrue(cell.run.isEmpty, "2 of 4 × ½ day used at noon")
        XCTAssertEqual(cell.wakeAt, at(day: 2, 18), "3 runs allowed from 18:00")
        let wifi = p.decide(context: context(noon, [request(9, app: 0)], apps: 1, device: DeviceState(network: .wifi)))
        XCTAssertEqual(wifi.run, [RequestID(9)])
    }

    // MARK: Rate limiting

    func testRateLimiterCapsLaunchesPerHourForAllApps() {
        let apps = (0..<10).map(Int32.init)
        var p = learnt(IOSSystemPolicy(limiter: RateLimiter(launchesPerHour: 3)), apps: apps, hour: 9.2, days: 2)
        let now = at(day: 2, 9)
        let d = p.decide(context: context(now, apps.map { request(UInt32($0) + 1, app: $0) }, apps: apps.count))
        XCTAssertEqual(d.run.count, 3)
        for a in 0..<3 {
            let s = now + .seconds(Int64(a))
            p.observe(.taskFinished(report(app: Int32(a), start: s)), context: context(s + .seconds(1 as Int64), [], apps: apps.count))
        }
        let later = now + .minutes(5)
        let d2 = p.decide(context: context(later, (3..<10).map { request(UInt32($0) + 1, app: Int32($0)) }, apps: apps.count))
        XCTAssertTrue(d2.run.isEmpty, "the hour's three launches are used")
        XCTAssertEqual(d2.wakeAt, now + .hours(1), "room again when the first leaves the window")
    }

    // MARK: Low Power Mode and critically low battery

    /// The OS refuses refreshes in Low Power Mode and under 20 %; the
    /// policy does not even ask, nor wake for them.
    func testLowPowerModeAndLowBatteryAskForNothing() {
        let p = learnt(hour: 8.2, days: 3)
        let pending = [request(1, app: 0)]
        var normal = p
        XCTAssertEqual(normal.decide(context: context(at(day: 3, 8), pending, apps: 1)).run, [RequestID(1)], "control")
        for state in [DeviceState(isLowPowerMode: true), DeviceState(batteryPercent: 19.9)] {
            var q = p
            XCTAssertEqual(q.decide(context: context(at(day: 3, 8), pending, apps: 1, device: state)), .none, "\(state)")
        }
    }

    // MARK: Processing placement

    func testProcessingRunsIdleOnTheChargerForRecentlyUsedAppsOnly() {
        let p = learnt(hour: 21, days: 3)
        let night = at(day: 3, 2)
        let pending = [request(5, app: 0, kind: .processing)]
        let charging = DeviceState(isCharging: true)
        var a = p
        XCTAssertEqual(a.decide(context: context(night, pending, apps: 1, device: charging, lastSessionEnd: at(day: 2, 23))).run,
                       [RequestID(5)])
        var b = p
        let notIdle = b.decide(context: context(night, pending, apps: 1, device: charging, lastSessionEnd: night - .minutes(10)))
        XCTAssertTrue(notIdle.run.isEmpty)
        XCTAssertEqual(notIdle.wakeAt, night + .minutes(20), "when the idle delay ends")
        var c = p
        XCTAssertEqual(c.decide(context: context(night, pending, apps: 1, device: DeviceState(), lastSessionEnd: at(day: 2, 23))), .none,
                       "not on the charger")
        var d = p
        let stale = at(day: 3 + 8, 2)
        XCTAssertTrue(d.decide(context: context(stale, pending, apps: 1, device: charging, lastSessionEnd: at(day: 2, 23))).run.isEmpty,
                      "not launched within 7 days")
    }

    // MARK: Registry and conformance

    func testRegisteredWithCheckedRanges() throws {
        XCTAssertTrue(PolicyRegistry.standard.names.contains("ios-system"))
        XCTAssertTrue(PolicyRegistry.standard.listing().contains("ios-system"))
        let p = try PolicyRegistry.standard.make(PolicyConfiguration(name: "ios-system", params: ["maxRate": .number(2), "slowRun": .string("5s")]))
        let ios = try XCTUnwrap(p as? IOSSystemPolicy)
        XCTAssertEqual(ios.rate.factors.maxRate, 2)
        XCTAssertEqual(ios.rate.factors.slowRun, .seconds(5 as Int64))
        XCTAssertThrowsError(try PolicyRegistry.standard.make(PolicyConfiguration(name: "ios-system", params: ["noDataFactor": .number(1.5)]))) {
            XCTAssertEqual(($0 as? PolicyConfigurationError)?.path, "policy.params.noDataFactor")
        }
    }

    func testConformance() {
        XCTAssertEqual(PolicyConformance.check(IOSSystemPolicy()), [])
        XCTAssertEqual(PolicyConformance.check(IOSSystemPolicy(energy: EnergyBudget(perDay: 0), limiter: RateLimiter(launchesPerHour: 0))), [])
        XCTAssertEqual(PolicyConformance.check(CoalescingPolicy(base: IOSSystemPolicy(), window: .minutes(15))), [], "behind a wrapper")
    }
}
