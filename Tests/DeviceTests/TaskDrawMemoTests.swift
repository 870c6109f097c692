import Device
import SimCore
import Traces
import XCTest

/// The latency memo shared by the configurations of one user changes speed only, never results.
final class TaskDrawMemoTests: XCTestCase {
    static let generator = PopulationGenerator(parameters: .default, seed: 7, days: 3)

    func trace(_ i: Int) -> DeviceTrace { DeviceTrace(Self.generator.user(i), apps: Self.generator.parameters.apps) }

    /// Policies that run different numbers of tasks, in an order where a later
    /// one runs more tasks than the memo holds (it must draw the rest) and
    /// fewer (it must read them back).
    var policies: [any SchedulingPolicy] {
        [FixedGrid(period: .hours(2)), RunEverythingAllowed(), FixedGrid(period: .hours(6)), RunEverythingAllowed()]
    }

    func testSharedMemoGivesTheResultsOfFreshRuns() {
        for user in 0..<3 {
            let t = trace(user), key = UInt64(user) &* 31 &+ 5
            var memo = TaskDrawMemo()
            for policy in policies {
                let shared = simulateDevice(trace: t, policy: policy, randomKey: key, memo: &memo)
                let fresh = simulateDevice(trace: t, policy: policy, randomKey: key)
                XCTAssertTrue(sameMetrics(shared, fresh), "user \(user), \(type(of: policy))")
                XCTAssertGreaterThan(fresh.tasksRun, 0)
            }
        }
    }

    /// A memo filled for another device key or another work model is not
    /// used: the simulator starts it afresh.
    func testMemoOfAnotherKeyOrModelIsNotReused() {
        let t = trace(1)
        var memo = TaskDrawMemo()
        _ = simulateDevice(trace: t, policy: RunEverythingAllowed(), randomKey: 1, memo: &memo)
        let otherKey = simulateDevice(trace: t, policy: RunEverythingAllowed(), randomKey: 2, memo: &memo)
        XCTAssertTrue(sameMetrics(otherKey, simulateDevice(trace: t, policy: RunEverythingAllowed(), randomKey: 2)))

        var slow = DeviceConfiguration()
        slow.defaultApp.refresh.serverLatency = .seconds(20 as Int64)
        let otherModel = simulateDevice(trace: t, configuration: slow, policy: RunEverythingAllowed(), randomKey: 2,
                                        memo: &memo)
        let fresh = simulateDevice(trace: t, configuration: slow, policy: RunEverythingAllowed(), randomKey: 2)
        XCTAssertTrue(sameMetrics(otherModel, fresh))
        // The slower server makes tasks expire: a memo of the fast latencies would have hidden that.
        XCTAssertGreaterThan(fresh.tasksExpired, otherKey.tasksExpired)
    }
}
