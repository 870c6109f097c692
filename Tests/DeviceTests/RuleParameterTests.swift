@testable import Device
import Foundation
import SimCore
import XCTest

/// Every threshold, budget and limit of `OSRules` changed in the device
/// configuration, and every behaviour that depends on it following: the
/// battery decision points and what the policy is told, the Low Power
/// Mode offers and switch-off, `isEligible` / `refusal`, the event log,
/// the task budgets and the submission limits.
final class RuleParameterTests: XCTestCase {
    /// What a policy sees of the battery rules over one drain and charge.
    struct Recorder: SchedulingPolicy {
        var told: [(StateChange, SimTime)] = []
        /// At each decision: battery, Low Power Mode, and whether a refresh
        /// (earliest begin long past, another app) would be allowed.
        var asked: [(battery: Double, lowPower: Bool, eligible: Bool, refusal: Refusal?)] = []
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) {
            if case .stateChanged(let c) = o { told.append((c, context.now)) }
        }
        mutating func decide(context: PolicyContext) -> PolicyDecision {
            let r = TaskRequest(id: RequestID(7), app: 5, identifier: 0, kind: .appRefresh, earliestBegin: .zero,
                                submittedAt: .zero)
            asked.append((context.device.batteryPercent, context.device.isLowPowerMode,
                          context.isEligible(r), context.refusal(for: r)))
            return PolicyDecision(wakeAt: context.now + .seconds(60 as Int64))
        }
    }

    /// 1 Wh battery (3,600 J) from 50 %, idle drain 1 W (1 % per 36 s) for
    /// 1,500 s, then a 10 W charger (net +9 W: 1 % per 4 s). Low Power Mode
    /// is refused at the first offer and accepted at the second.
    func run(_ rules: OSRules) -> (Recorder, [DeviceEvent]) {
        let trace = DeviceTrace(horizon: SimTime.zero + .seconds(2_400 as Int64), appNames: ["news"],
                                charging: [.init(start: SimTime.zero + .seconds(1_500 as Int64),
                                                 end: SimTime.zero + .seconds(2_400 as Int64))],
                                lowPowerAccepted: [[false, true]], screenOnDrainWatts: 1, idleDrainWatts: 1,
                                initialBatteryPercent: 50, batteryCapacityWh: 1, chargingWatts: 10)
        var config = DeviceConfiguration(apps: [:], rules: rules)
        // A legacy fetch pending all along (never due): the policy is
        // consulted at every decision point.
        config.defaultApp = AppModel(usesLegacyFetch: true, minimumFetchInterval: .hours(100))
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 1,
                                  sink: EventRecorder())
        _ = sim.run()
        return (sim.policy, sim.sink.events)
    }

    /// When a level moving from `from` % at `t0` s at `percentPerSecond` reaches `level`.
    func crossing(_ level: Double, from: Double, at t0: Double, percentPerSecond: Double) -> Double {
        t0 + (level - from) / percentPerSecond
    }

    func testBatteryThresholdsFollowTheConfiguration() {
        for rules in [OSRules.standard,
                      OSRules(lowBatteryPercent: 35, secondLowPowerOfferPercent: 15, lowPowerModeOffPercent: 90)] {
            let (policy, events) = run(rules)
            let low = rules.lowBatteryPercent, second = rules.secondLowPowerOfferPercent
            let off = rules.lowPowerModeOffPercent
            let levelAtPlug = 50 - 1_500.0 / 36
            let expected: [(StateChange, Double)] = [
                (.batteryLow, crossing(low, from: 50, at: 0, percentPerSecond: -1 / 36)),
                (.lowPowerModeOn, crossing(second, from: 50, at: 0, percentPerSecond: -1 / 36)),
                (.chargingStarted, 1_500),
                (.batteryOK, crossing(low, from: levelAtPlug, at: 1_500, percentPerSecond: 0.25)),
                (.lowPowerModeOff, crossing(off, from: levelAtPlug, at: 1_500, percentPerSecond: 0.25)),
            ]
            let told = policy.told
            XCTAssertEqual(told.map(\.0), expected.map(\.0), "\(rules)")
            for ((change, t), (_, want)) in zip(told, expected) {
                XCTAssertEqual(Double(t.microseconds) / 1e6, want, accuracy: 1e-3, "\(change) with \(rules)")
            }
            // Eligibility and the refusal reason follow the low-battery threshold.
            XCTAssertFalse(policy.asked.isEmpty)
            for a in policy.asked {
                XCTAssertEqual(a.eligible, !a.lowPower && a.battery >= low, "\(a) with \(rules)")
                XCTAssertEqual(a.refusal, a.lowPower ? .lowPowerMode : a.battery < low ? .lowBattery : nil)
            }
            XCTAssertTrue(policy.asked.contains { !$0.eligible && !$0.lowPower }, "a decision below the threshold")
            // The event log names the thresholds crossed.
            let names = events.filter { $0.kind == .state }.map(\.detail).filter { $0.hasPrefix("battery_") }
            XCTAssertEqual(names, ["battery_\(Int(low))", "battery_\(Int(second))", "battery_\(Int(low))",
                                   "battery_\(Int(off))"])
        }
    }

    /// A refresh of 20 s of CPU finishes within the default 30 s budget and
    /// is expired with a 10 s one; a processing task of 4 min within the
    /// default 5 min, expired with 2 min.
    func testBudgetsFollowTheConfiguration() {
        func tasks(_ rules: OSRules, processing: Bool) -> UserMetrics {
            var config = DeviceConfiguration(apps: [:], rules: rules)
            let work = WorkModel(cpuSeconds: processing ? 240 : 20, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                 failureProbabilityWifi: 0, failureProbabilityCellular: 0, usesNetwork: false)
            if processing {
                config.defaultApp = AppModel(processing: work, refreshEarliestBeginDelay: .hours(100), checkpointsOnExpiration: false,
                                             processingInterval: .minutes(30), processingRequiresExternalPower: false,
                                             processingRequiresNetwork: false)
            } else {
                config.defaultApp = AppModel(refresh: work, usesLegacyFetch: true, minimumFetchInterval: .hours(2))
            }
            // A one-minute session every 6 hours: processing is submitted as the app goes to the background.
            let starts = (0..<4).map { SimTime(day: 0, plus: .hours(Int64($0) * 6)) }
            let trace = flatTrace(days: 1, sessions: sessions(at: starts, length: .minutes(1)))
            return simulateDevice(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        }
        let refreshDefault = tasks(.standard, processing: false)
        XCTAssertGreaterThan(refreshDefault.tasksSucceeded, 5)
        XCTAssertEqual(refreshDefault.tasksExpired, 0)
        let refreshShort = tasks(OSRules(refreshBudget: .seconds(10 as Int64)), processing: false)
        XCTAssertEqual(refreshShort.tasksSucceeded, 0)
        XCTAssertEqual(refreshShort.tasksExpired, refreshDefault.tasksRun)
        let processingDefault = tasks(.standard, processing: true)
        XCTAssertGreaterThan(processingDefault.tasksSucceeded, 1)
        XCTAssertEqual(processingDefault.tasksExpired, 0)
        let processingShort = tasks(OSRules(processingBudget: .minutes(2)), processing: true)
        XCTAssertEqual(processingShort.tasksSucceeded, 0)
        XCTAssertGreaterThan(processingShort.tasksExpired, 1)
    }

    /// The per-app pending limits of rule 2 follow the rules given to the scheduler.
    func testPendingLimitsFollowTheConfiguration() {
        for (refresh, processing) in [(1, 10), (2, 3)] {
            var ids: [(name: String, kind: TaskKind)] = (0..<4).map { ("r\($0)", .appRefresh) }
            ids += (0..<12).map { ("p\($0)", .processing) }
            var s = BackgroundTaskScheduler(apps: [.init(identifiers: ids)],
                                            rules: OSRules(maxPendingRefreshPerApp: refresh,
                                                           maxPendingProcessingPerApp: processing))
            func accepted(_ prefix: String, _ n: Int) -> Int {
                (0..<n).filter { i in
                    if case .success = s.submit(app: 0, identifier: "\(prefix)\(i)", earliestBegin: .zero, at: .zero) {
                        return true
                    }
                    return false
                }.count
            }
            XCTAssertEqual(accepted("r", 4), refresh)
            XCTAssertEqual(accepted("p", 12), processing)
        }
    }

    /// The parameters are read from the device configuration's JSON, and
    /// values that contradict each other are refused with the key named.
    func testRulesDecodeAndValidate() throws {
        let json = #"{"lowBatteryPercent": 35, "secondLowPowerOfferPercent": 15, "lowPowerModeOffPercent": 90, "#
            + #""maxPendingProcessingPerApp": 3, "processingBudget": "2m"}"#
        let c = try JSONDecoder().decode(DeviceConfiguration.self, from: Data(json.utf8))
        XCTAssertEqual(c.rules, OSRules(lowBatteryPercent: 35, secondLowPowerOfferPercent: 15, lowPowerModeOffPercent: 90,
                                        processingBudget: .minutes(2), maxPendingProcessingPerApp: 3))
        let bad: [(String, String)] = [
            (#"{"lowBatteryPercent": 5}"#, "secondLowPowerOfferPercent"),
            (#"{"lowPowerModeOffPercent": 15}"#, "lowBatteryPercent"),
            (#"{"lowPowerModeOffPercent": 120}"#, "lowPowerModeOffPercent"),
            (#"{"maxPendingRefreshPerApp": 0}"#, "maxPendingRefreshPerApp"),
            (#"{"refreshBudget": "0s"}"#, "refreshBudget"),
        ]
        for (text, key) in bad {
            XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self, from: Data(text.utf8)), text) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(context.codingPath.last?.stringValue, key, text)
                // A contradiction says what it must be; a single value out of its range, the range.
                XCTAssertTrue(context.debugDescription.contains("must be") || context.debugDescription.contains("allowed: "),
                              context.debugDescription)
            }
        }
    }
}
