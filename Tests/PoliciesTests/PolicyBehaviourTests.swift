@_spi(BuiltInPolicies) import Device
@_spi(BuiltInPolicies) import Policies
import SimCore
import TestSupport
import XCTest

final class PolicyBehaviourTests: XCTestCase {
    /// A user who opens the app at 08:00 every day: after a few days the
    /// predictor refreshes shortly before 08:00, and never at 03:00.
    func testPredictorLearnsEightOClock() {
        let days = 10
        let sessions = makeSessions((0..<days).map { (at(day: $0, 8), Int32(0)) })
        var rng = TestRandom(seed: 3)
        let t = trace(days: days, apps: ["news"], sessions: sessions,
                      updates: [rng.poisson(perHour: 0.5, horizon: SimTime(day: days))])
        let (m, log) = simulateDeviceWithLog(trace: t, policy: UsagePredictorPolicy(), randomKey: 1)
        let refreshes = log.events.filter { $0.kind == .task && $0.taskKind == .appRefresh }
        XCTAssertTrue(refreshes.filter { $0.start!.day == 0 }.isEmpty, "no knowledge on day 0")
        for d in 3..<days {
            let today = refreshes.filter { $0.start!.day == d }
            XCTAssertTrue(today.contains { $0.start! >= at(day: d, 7.75) && $0.start! < at(day: d, 8) },
                          "day \(d): a refresh in the 15 min before 08:00")
            XCTAssertFalse(today.contains { $0.start! >= at(day: d, 2.5) && $0.start! < at(day: d, 3.5) }, "day \(d): nothing near 03:00")
        }
        let never = simulateDevice(trace: t, policy: NeverPolicy(), randomKey: 1)
        XCTAssertGreaterThan(m.freshLaunches, never.freshLaunches + 3)
        XCTAssertLessThan(m.tasksRun, 3 * days, "only around the habitual launch")
    }

    /// Coalescing cuts wakes and radio tails against its base at (about) equal freshness.
    func testCoalescingCutsWakesAndTails() {
        let days = 7
        var rng = TestRandom(seed: 11)
        let apps = ["a", "b", "c", "d", "e"]
        var starts: [(SimTime, Int32)] = []
        for a in 0..<apps.count {
            for s in rng.poisson(perHour: 0.5, horizon: SimTime(day: days)) { starts.append((s, Int32(a))) }
        }
        let updates = apps.indices.map { _ in rng.poisson(perHour: 1, horizon: SimTime(day: days)) }
        let t = trace(days: days, apps: apps, sessions: makeSessions(starts), updates: updates, network: .cellular)
        let base = FixedIntervalPolicy(interval: .hours(1))
        let plain = simulateDevice(trace: t, policy: base, randomKey: 5)
        let coalesced = simulateDevice(trace: t, policy: CoalescingPolicy(base: base, window: .minutes(15)), randomKey: 5)
        print("coalescing: wakes \(plain.backgroundWakes) → \(coalesced.backgroundWakes); tail J \(plain.energy.tail) → \(coalesced.energy.tail); promotions J \(plain.energy.promotion) → \(coalesced.energy.promotion); fresh \(plain.freshLaunchRatio) → \(coalesced.freshLaunchRatio)")
        XCTAssertLessThan(Double(coalesced.backgroundWakes), 0.8 * Double(plain.backgroundWakes))
        XCTAssertLessThan(coalesced.energy.tail + coalesced.energy.promotion, 0.7 * (plain.energy.tail + plain.energy.promotion))
        // At least as fresh: riding foreground tails refreshes other apps for free.
        XCTAssertGreaterThanOrEqual(coalesced.freshLaunchRatio, plain.freshLaunchRatio - 0.02)
    }

    /// Backoff delays grow 30 s, 60 s, 120 s … to the cap, and reset on a launch.
    func testBackoffDelaysGrowToCapAndReset() {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: 1000, serverLatency: .zero,
                                              failureProbabilityWifi: 1, failureProbabilityCellular: 1)
        config.defaultApp.refreshEarliestBeginDelay = .seconds(1 as Int64)
        // The app retries a failure after 1 s (Device's default is 1 min,
        // which would hide the 30 s first delay).
        config.defaultApp.retryDelayAfterFailure = .seconds(1 as Int64)
        let t = trace(days: 1, apps: ["news"], sessions: makeSessions([(at(day: 0, 1), 0), (at(day: 0, 10), 0)]),
                      updates: [[]])
        let policy = ExponentialBackoffPolicy(base: GreedyPolicy(), initial: .seconds(30 as Int64), cap: .seconds(480 as Int64))
        let (m, log) = simulateDeviceWithLog(trace: t, configuration: config, policy: policy, randomKey: 1)
        let tasks = log.events.filter { $0.kind == .task }
        XCTAssertTrue(tasks.allSatisfy { $0.outcome == .failed })
        var gaps: [Double] = []
        for i in 1..<tasks.count where tasks[i].start! < at(day: 0, 10) || tasks[i - 1].end! >= at(day: 0, 10) {
            gaps.append((tasks[i].start! - tasks[i - 1].end!).seconds)
        }
        XCTAssertEqual(Array(gaps.prefix(6)), [30, 60, 120, 240, 480, 480])
        // After the 10:00 launch the delays start again at 30 s.
        let afterLaunch = tasks.filter { $0.start! > at(day: 0, 10) }
        XCTAssertEqual((afterLaunch[1].start! - afterLaunch[0].end!).seconds, 30)
        XCTAssertEqual((afterLaunch[2].start! - afterLaunch[1].end!).seconds, 60)
        XCTAssertGreaterThan(m.tasksFailed, 10)
        // Android's initial delay and cap.
        let android = ExponentialBackoffPolicy(base: NeverPolicy(), initial: .seconds(30 as Int64))
        XCTAssertEqual((1...4).map { android.delay(afterFailures: $0).seconds }, [30, 60, 120, 240])
        XCTAssertEqual(android.delay(afterFailures: 30), .hours(5))
        // The default starts at 2 min, twice the apps' own 1-minute retry.
        XCTAssertEqual((1...3).map { ExponentialBackoffPolicy(base: NeverPolicy()).delay(afterFailures: $0).seconds },
                       [120, 240, 480])
    }

    /// The oracle is at least as fresh as greedy for far less energy; never spends nothing.
    func testOracleGreedyNever() {
        let days = 5
        var rng = TestRandom(seed: 21)
        var starts: [(SimTime, Int32)] = []
        for a in 0..<3 { for s in rng.poisson(perHour: 0.4, horizon: SimTime(day: days)) { starts.append((s, Int32(a))) } }
        let updates = (0..<3).map { _ in rng.poisson(perHour: 0.5, horizon: SimTime(day: days)) }
        let t = trace(days: days, apps: ["a", "b", "c"], sessions: makeSessions(starts), updates: updates, network: .cellular)
        let greedy = simulateDevice(trace: t, policy: GreedyPolicy(), randomKey: 9)
        let oracle = simulateDevice(trace: t, policy: OraclePolicy(), randomKey: 9)
        let never = simulateDevice(trace: t, policy: NeverPolicy(), randomKey: 9)
        print("oracle fresh \(oracle.freshLaunchRatio) J \(oracle.energy.total); greedy fresh \(greedy.freshLaunchRatio) J \(greedy.energy.total); never fresh \(never.freshLaunchRatio)")
        XCTAssertGreaterThanOrEqual(oracle.freshLaunchRatio, greedy.freshLaunchRatio - 0.01)
        XCTAssertLessThan(oracle.energy.total, 0.25 * greedy.energy.total)
        XCTAssertGreaterThan(oracle.freshLaunchRatio, never.freshLaunchRatio)
        XCTAssertEqual(never.energy.total, 0)
        XCTAssertEqual(never.tasksRun, 0)
        XCTAssertEqual(never.backgroundWakes, 0)
    }

    /// Every built-in policy (and wrapper composition) passes the conformance check.
    func testStandardPoliciesConform() throws {
        let configs: [PolicyConfiguration] = [
            .init(name: "never"), .init(name: "greedy"), .init(name: "fixed-interval"), .init(name: "usage-predictor"),
            .init(name: "oracle"),
            .init(name: "coalescing", base: .init(name: "greedy")),
            .init(name: "exponential-backoff", base: .init(name: "coalescing", base: .init(name: "usage-predictor"))),
            .init(name: "exponential-backoff", params: ["jitter": .number(0.5)], base: .init(name: "fixed-interval")),
        ]
        for c in configs {
            let p = try PolicyRegistry.standard.make(c)
            XCTAssertEqual(PolicyConformance.check(p), [], "\(c.name)")
        }
    }

    /// The conformance check catches a policy that asks for illegal runs.
    func testConformanceCatchesMisbehaviour() {
        struct Rude: SchedulingPolicy {
            func decide(context: PolicyContext) -> PolicyDecision {
                PolicyDecision(run: context.pending.map(\.id), wakeAt: context.now + .minutes(1))
            }
        }
        XCTAssertFalse(PolicyConformance.check(Rude()).isEmpty)
    }
}
