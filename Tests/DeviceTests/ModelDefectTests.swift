@testable import Device
import SimCore
import XCTest

/// Runs every pending request once, at `at` (in submission order), and
/// never decides anything else: a batch at a known time.
struct RunAllPendingAt: SchedulingPolicy {
    var at: SimTime
    func decide(context: PolicyContext) -> PolicyDecision {
        if context.now == at { return PolicyDecision(run: context.pending.map(\.id)) }
        return PolicyDecision(wakeAt: context.now < at ? at : nil)
    }
}

/// The model defects once found in review, each on a tiny hand-built
/// world: the rule as Docs/Semantics.md now states it.
final class ModelDefectTests: XCTestCase {
    let hour = SimTime(day: 0, plus: .hours(1))

    /// A refresh that is deterministic: no failure draw, no latency spread.
    func work(cpu: Double = 0.5, bytesDown: Double = 0, latency: SimDuration = .zero,
              network: Bool = false) -> WorkModel {
        WorkModel(cpuSeconds: cpu, bytesUp: 0, bytesDown: bytesDown, serverLatency: latency,
                  serverLatencySigma: 0, failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                  usesNetwork: network)
    }

    func taskRows(_ log: EventRecorder) -> [DeviceEvent] { log.events.filter { $0.kind == .task } }

    // MARK: Background App Refresh: the app model and the trace's switch

    /// An app model that says `backgroundAppRefreshEnabled: false` turns
    /// the app's refresh off even when the trace's switch says on; the
    /// trace's switch off wins over a model that says on (the user's
    /// switch): refresh runs only when both say on.
    func testBackgroundAppRefreshNeedsBothTheModelAndTheUsersSwitch() {
        let starts = (0..<10).map { SimTime(day: 0, plus: .hours(Int64($0) * 2)) }
        func tasks(trace traceSays: Bool?, model modelSays: Bool) -> Int {
            var trace = flatTrace(days: 1, sessions: sessions(at: starts))
            trace.backgroundAppRefreshEnabled = traceSays.map { [$0] }
            var config = DeviceConfiguration()
            config.defaultApp.backgroundAppRefreshEnabled = modelSays
            return simulateDevice(trace: trace, configuration: config, policy: RunEverythingAllowed(),
                                  randomKey: 1).tasksRun
        }
        XCTAssertGreaterThan(tasks(trace: true, model: true), 0)
        XCTAssertGreaterThan(tasks(trace: nil, model: true), 0)
        XCTAssertEqual(tasks(trace: true, model: false), 0, "the model's false must turn refresh off")
        XCTAssertEqual(tasks(trace: false, model: true), 0, "the user's switch off wins")
        XCTAssertEqual(tasks(trace: nil, model: false), 0)
    }

    // MARK: The refund of a cut transfer uses the transfer's network

    /// A transfer on Wi-Fi cut after the network changed is refunded at
    /// Wi-Fi's β, not the new network's (offline was read as cellular, and
    /// the refund went negative).
    func testCutTransferIsRefundedAtItsOwnNetworksBeta() {
        let energy = EnergyParameters()
        for next in [NetworkType.cellular, .offline] {
            var r = RadioModel(parameters: energy)
            r.networkChanged(to: .wifi, at: .zero)
            let t0 = SimTime(microseconds: 1_000_000)
            let bytes = 5_000_000.0
            let (end, charged) = r.backgroundTransfer(at: t0, bytesUp: 0, bytesDown: bytes, latency: .seconds(10 as Int64))
            let shape = RadioModel.shape(bytesUp: 0, bytesDown: bytes, on: energy.wifi)
            let span = 10 + shape.downSeconds
            let activeStart = end.microseconds - Int64((span * 1e6).rounded())
            let cut = SimTime(microseconds: activeStart + 4_000_000)
            r.networkChanged(to: next, at: SimTime(microseconds: activeStart + 2_000_000))
            let refund = r.cutLastTransfer(at: cut)
            let unspentSeconds = Double(end.microseconds - cut.microseconds) * 1e-6
            let expected = -(shape.alphaJoules * unspentSeconds / span + energy.wifi.betaWatts * unspentSeconds)
            XCTAssertEqual(refund.active, expected, accuracy: 1e-6, "cut after the change to \(next)")
            XCTAssertGreaterThan(charged.active + refund.active, 0, "net active energy after the change to \(next)")
        }
    }

    // MARK: A replaced request waiting in a batch does not run

    /// App b's refresh waits behind app a's in one batch; meanwhile b is
    /// used and, going to the background, resubmits (replacing the waiting
    /// request, rule 2): the replaced request must not run.
    func testReplacedRequestWaitingInABatchDoesNotRun() {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = work(cpu: 25)
        config.defaultApp.refreshEarliestBeginDelay = .minutes(1)
        let s: [DeviceTrace.Session] = [
            .init(start: .zero, end: SimTime(microseconds: 10_000_000), app: 0),
            .init(start: SimTime(microseconds: 20_000_000), end: SimTime(microseconds: 30_000_000), app: 1),
            // During a's task: b is used, then goes to the background and resubmits.
            .init(start: hour + .seconds(2 as Int64), end: hour + .seconds(7 as Int64), app: 1),
        ]
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: s)
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config,
                                             policy: RunAllPendingAt(at: hour), randomKey: 1)
        let submittedB = log.events.filter { $0.kind == .submitted && $0.app == 1 }.map { $0.requestID! }
        XCTAssertEqual(submittedB.count, 2)
        let ranB = taskRows(log).filter { $0.app == 1 }.map { $0.requestID! }
        XCTAssertFalse(ranB.contains(submittedB[0]), "the replaced request ran")
        XCTAssertEqual(taskRows(log).filter { $0.app == 0 }.count, 1, "a's refresh ran")
        XCTAssertEqual(m.tasksRun, 1)
    }

    // MARK: min_battery_pct starts from the initial level

    func testMinimumBatteryStartsAtTheInitialLevel() {
        let m = simulateDevice(trace: flatTrace(days: 1, battery: 50), policy: RunEverythingAllowed(), randomKey: 1)
        XCTAssertEqual(m.minBatteryPercent, 50, accuracy: 1e-9)
    }

    // MARK: The energy of a task is settled before the next one starts

    /// A batch of two refreshes just above the low-battery level: the first
    /// one's CPU energy (charged at its end) takes the level under 20 %, so
    /// the second may not start (rule 4).
    func testNoRefreshStartsAfterTheLevelFellUnderTheThresholdInABatch() {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = work(cpu: 10)
        config.defaultApp.refreshEarliestBeginDelay = .minutes(1)
        config.batteryCapacityWh = 1   // 10 J of CPU = 0.28 %
        let s: [DeviceTrace.Session] = [
            .init(start: .zero, end: SimTime(microseconds: 10_000_000), app: 0),
            .init(start: SimTime(microseconds: 20_000_000), end: SimTime(microseconds: 30_000_000), app: 1),
        ]
        let trace = flatTrace(days: 1, apps: ["a", "b"], sessions: s, battery: 20.2)
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config,
                                             policy: RunAllPendingAt(at: hour), randomKey: 1)
        XCTAssertEqual(taskRows(log).count, 1, "the second refresh started under 20 %")
        XCTAssertEqual(m.tasksRun, 1)
        XCTAssertLessThan(m.minBatteryPercent, 20)
        XCTAssertTrue(taskRows(log).allSatisfy { $0.app == 0 }, "b's refresh ran under 20 %")
    }

    // MARK: A transfer fails when the network goes offline

    /// The network goes offline 5 s into a 20 s transfer: the task fails
    /// then (a URLSession task fails with a connection-lost error), its
    /// energy so far counts as wasted, and it does not succeed.
    func testTransferFailsWhenTheNetworkGoesOffline() {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = work(cpu: 0.5, bytesDown: 50_000, latency: .seconds(20 as Int64), network: true)
        config.defaultApp.refreshEarliestBeginDelay = .minutes(1)
        config.defaultApp.retryDelayAfterFailure = nil
        let lost = hour + .seconds(5 as Int64)
        let net: [DeviceTrace.Network] = [.init(start: .zero, end: lost, kind: .cellular)]
        let s = sessions(at: [.zero])
        let trace = flatTrace(days: 1, sessions: s, network: net)
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config,
                                             policy: RunAllPendingAt(at: hour), randomKey: 1)
        let rows = taskRows(log)
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?.outcome, .failed)
        XCTAssertEqual(rows.first?.end, lost)
        XCTAssertEqual(m.tasksSucceeded, 0)
        XCTAssertEqual(m.tasksFailed, 1)
        XCTAssertGreaterThan(m.energy.active, 0)
        XCTAssertEqual(m.wastedEnergyJoules, rows.first?.energy.total ?? -1, accuracy: 1e-9)
        XCTAssertGreaterThan(m.wastedEnergyJoules, 0)
        XCTAssertEqual(rows.first?.energy.cpu, 0, "no CPU ran: the bytes never came")
    }
}

/// At exactly the low-battery level the battery event and rule 4 agree:
/// 20.0 % is not "below 20 %" (brief rule 4), so reaching it neither fires
/// `batteryLow` nor stops refresh; the first level under it does both.
final class LowBatteryBoundaryTests: XCTestCase {
    func testCrossingAndRuleFourAgreeAtTheThreshold() {
        let rules = OSRules()
        let refresh = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh,
                                  earliestBegin: .zero, submittedAt: .zero)
        for level in [20.0, 20.0.nextDown, 20.0.nextUp, 19.5, 10.0, 10.0.nextDown] {
            var sim = DeviceSimulator(trace: flatTrace(days: 1, battery: 25), configuration: DeviceConfiguration(),
                                      policy: RunEverythingAllowed(), randomKey: 1, sink: NoEventLog())
            sim.setBatteryLevel(level)
            let fired = sim.power.pendingCrossings & BatteryCrossing.downLow != 0
            let refused = rules.refusal(for: refresh, at: .zero, state: sim.state) == .lowBattery
            XCTAssertEqual(fired, refused, "at \(level) %: batteryLow \(fired), refresh refused \(refused)")
            XCTAssertEqual(sim.power.pendingCrossings & BatteryCrossing.downSecond != 0, level < 10, "second offer at \(level) %")
            // Going back up: reaching exactly 20 % is battery OK again.
            sim.power.pendingCrossings = 0
            sim.setBatteryLevel(20)
            XCTAssertEqual(sim.power.pendingCrossings & BatteryCrossing.upLow != 0, level < 20, "batteryOK from \(level) %")
        }
        // Draining from exactly 20 %, the next battery event is the crossing of 20 %, not 10 %.
        XCTAssertEqual(rules.alarmTarget(level: 20, watts: -1, lowPower: false), 20)
        XCTAssertEqual(rules.alarmTarget(level: 10, watts: -1, lowPower: false), 10)
    }
}
