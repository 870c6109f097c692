@_spi(BuiltInPolicies) @testable import Device
import SimCore
import Foundation
import XCTest

/// A failed refresh is retried after `retryDelayAfterFailure`, replacing
/// the request the handler submitted; a policy that waits longer is not
/// overridden, so a backoff policy now has something to act on.
final class RetryTests: XCTestCase {
    /// Waits `wait` after any unsuccessful task before running anything again.
    struct WaitsAfterFailure: SchedulingPolicy {
        static var traits: PolicyTraits { PolicyTraits(observedKinds: .taskFinished) }
        var wait: SimDuration
        var notBefore = SimTime.zero
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) {
            if case .taskFinished(let r) = o, r.outcome != .success { notBefore = r.end + wait }
        }
        func decide(context: PolicyContext) -> PolicyDecision {
            if context.now < notBefore { return PolicyDecision(wakeAt: notBefore) }
            return RunEverythingAllowed().decide(context: context)
        }
    }

    func run<P: SchedulingPolicy>(_ policy: P, retry: SimDuration?) -> [DeviceEvent] {
        var config = DeviceConfiguration()
        config.defaultApp.refresh = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                              failureProbabilityWifi: 1, failureProbabilityCellular: 1,
                                              usesNetwork: false)
        config.defaultApp.retryDelayAfterFailure = retry
        let trace = flatTrace(days: 1, sessions: sessions(at: [SimTime(day: 0, plus: .hours(1))]))
        let (_, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: policy, randomKey: 1)
        return log.events.filter { $0.kind == .task }
    }

    func gaps(_ tasks: [DeviceEvent]) -> Set<Double> {
        Set(zip(tasks, tasks.dropFirst()).map { ($1.start! - $0.end!).seconds })
    }

    func testFailedRefreshIsRetriedAfterTheDelay() {
        let retried = run(RunEverythingAllowed(), retry: .minutes(1))
        XCTAssertTrue(retried.allSatisfy { $0.outcome == .failed })
        XCTAssertGreaterThan(retried.count, 1000)
        XCTAssertEqual(gaps(retried), [60])
        // Without retries: the request submitted at handler start, 15 min on.
        let never = run(RunEverythingAllowed(), retry: nil)
        XCTAssertEqual(gaps(never), [900])
    }

    func testBackoffDelayIsNotOverridden() {
        let waited = run(WaitsAfterFailure(wait: .minutes(10)), retry: .minutes(1))
        XCTAssertGreaterThan(waited.count, 100)
        XCTAssertEqual(gaps(waited), [600], "the retry waits for the policy; it is not run at +1 min")
        // Without retries the wait could not matter: the next request is 15 min on anyway.
        XCTAssertEqual(gaps(run(WaitsAfterFailure(wait: .minutes(10)), retry: nil)), [900])
    }

    func testRetryDelayDecodes() throws {
        let dec = JSONDecoder()
        XCTAssertEqual(try dec.decode(AppModel.self, from: Data("{}".utf8)).retryDelayAfterFailure, .minutes(1))
        XCTAssertNil(try dec.decode(AppModel.self, from: Data(#"{"retryDelayAfterFailure": null}"#.utf8)).retryDelayAfterFailure)
        XCTAssertEqual(try dec.decode(AppModel.self, from: Data(#"{"retryDelayAfterFailure": "5m"}"#.utf8)).retryDelayAfterFailure,
                       .minutes(5))
        var m = AppModel()
        m.retryDelayAfterFailure = nil
        XCTAssertEqual(try dec.decode(AppModel.self, from: JSONEncoder().encode(m)), m)
    }
}

/// The default world: variable server latency (same per task under every
/// policy) and the podcast app's daily processing task.
final class DefaultWorldTests: XCTestCase {
    func testServerLatencyIsLognormalAndCommonAcrossPolicies() {
        // Many refreshes on Wi-Fi: latency = task duration − transfer − CPU.
        var config = DeviceConfiguration()
        config.defaultApp.refresh.cpuSeconds = 0
        config.defaultApp.refresh.failureProbabilityWifi = 0
        XCTAssertEqual(config.defaultApp.refresh.serverLatencySigma, 1.5)
        let starts = (0..<600).map { SimTime(day: 0, plus: .minutes(Int64($0) * 20)) }
        let trace = flatTrace(days: 9, sessions: sessions(at: starts, length: .seconds(1 as Int64)),
                              network: [.init(start: .zero, end: SimTime(day: 9), kind: .wifi)])
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 3)
        let durations = log.events.filter { $0.kind == .task && $0.outcome == .success }.map { ($0.end! - $0.start!).seconds }
        XCTAssertGreaterThan(durations.count, 500)
        let sorted = durations.sorted()
        let median = sorted[sorted.count / 2]
        // Median ≈ 0.3 s + promotion/transfer (~0.1 s); spread over orders of magnitude.
        XCTAssertEqual(median, 0.4, accuracy: 0.1)
        XCTAssertLessThan(sorted[sorted.count / 20], 0.2)
        XCTAssertGreaterThan(sorted[sorted.count * 19 / 20], 2.5)
        // Long ones expire at the 30 s budget: none ends successfully past it.
        XCTAssertTrue(durations.allSatisfy { $0 <= 30 })
        _ = m
        // Common random numbers: the k-th refresh has the same latency under another policy.
        struct Late: SchedulingPolicy {
            func decide(context: PolicyContext) -> PolicyDecision {
                var d = RunEverythingAllowed().decide(context: context)
                if context.now.microseconds % 2 == 0 { d.wakeAt = d.wakeAt.map { $0 + .seconds(7 as Int64) } }
                return d
            }
        }
        let (_, log2) = simulateDeviceWithLog(trace: trace, configuration: config, policy: Late(), randomKey: 3)
        let d2 = log2.events.filter { $0.kind == .task && $0.outcome == .success }.map { ($0.end! - $0.start!).seconds }
        XCTAssertEqual(Array(durations.prefix(50)), Array(d2.prefix(50)))
    }

    func testNormalQuantile() {
        XCTAssertEqual(standardNormalQuantile(0.5), 0, accuracy: 1e-12)
        XCTAssertEqual(standardNormalQuantile(0.975), 1.959963984540054, accuracy: 1e-8)
        XCTAssertEqual(standardNormalQuantile(0.001), -3.090232306167814, accuracy: 1e-8)
        XCTAssertEqual(standardNormalQuantile(0.999), 3.090232306167814, accuracy: 1e-8)
        XCTAssertEqual(standardNormalQuantile(0.2), -0.8416212335729143, accuracy: 1e-8)
        XCTAssertTrue(standardNormalQuantile(0).isFinite)
    }

    func testPodcastHasDailyProcessingByDefault() throws {
        let c = DeviceConfiguration()
        XCTAssertEqual(c.model(forApp: "podcast").processingInterval, .hours(24))
        XCTAssertTrue(c.model(forApp: "podcast").processingRequiresExternalPower)
        XCTAssertNil(c.model(forApp: "news").processingInterval)
        // A spec's `apps` is merged over the defaults.
        let decoded = try JSONDecoder().decode(DeviceConfiguration.self, from: Data(#"{"apps": {"news": {}}}"#.utf8))
        XCTAssertEqual(decoded.model(forApp: "podcast"), AppDefaults.podcast)
        XCTAssertEqual(decoded.model(forApp: "news"), AppModel())
        // Plugged in overnight: the podcast's processing runs once (daily), while charging.
        let trace = flatTrace(days: 2, apps: ["podcast"],
                              sessions: sessions(at: [SimTime(day: 0, plus: .hours(22)), SimTime(day: 1, plus: .hours(22)),
                                                      SimTime(day: 1, plus: .hours(22) + .seconds(30 as Int64))]),
                              network: [.init(start: .zero, end: SimTime(day: 2), kind: .wifi)],
                              charging: [.init(start: SimTime(day: 0, plus: .hours(23)), end: SimTime(day: 1, plus: .hours(7)))])
        let (_, log) = simulateDeviceWithLog(trace: trace, policy: RunEverythingAllowed(), randomKey: 1)
        let processing = log.events.filter { $0.kind == .task && $0.taskKind == .processing }
        XCTAssertEqual(processing.count, 1)
        XCTAssertEqual(processing.first?.outcome, .success)
        XCTAssertGreaterThanOrEqual(processing.first!.start!, SimTime(day: 0, plus: .hours(23)))
    }

    /// `refreshIdentifierFormat` is gone (identifiers are interned by role):
    /// a spec that still names it is rejected with the key's name.
    func testRefreshIdentifierFormatIsRejected() {
        let json = #"{"refreshIdentifierFormat": "{app}.refresh"}"#
        XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self, from: Data(json.utf8))) { error in
            XCTAssertTrue("\(error)".contains("refreshIdentifierFormat"))
        }
    }
}
