import Device
import SimCore
import Foundation
import XCTest

/// A failed refresh is retried after `retryDelayAfterFailure`, replacing
/// the request the handler submitted; a policy that waits longer is not
/// overridden, so a backoff policy now has something to act on.
final class RetryTests: XCTestCase {
    /// Waits `wait` after any unsuccessful task before running anything again.
    struct WaitsAfterFailure: SchedulingPolicy {
        static var observedKinds: ObservationKinds { .taskFinished }
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
