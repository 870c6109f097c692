// The model-aware bound: its probabilities, its decisions with and without a
// model, and that the simulator hands it the trace's model.
import Device
import Foundation
import Policies
import SimCore
import Traces
import XCTest

final class ModelAwareBoundTests: XCTestCase {
    /// Constant rates: `launches` and `updates` per hour for every app.
    func model(apps: Int, launches: Double, updates: Double) -> UsageModelKnowledge {
        UsageModelKnowledge(launchesPerHour: Array(repeating: Array(repeating: launches, count: 48), count: apps),
                            updatesPerHour: Array(repeating: Array(repeating: updates, count: 24), count: apps))
    }

    func testLaunchBeforeUpdateIsTheCompetingPoissonProbability() {
        // λ = 2, μ = 1 per hour: P(launch first) = 2/3 (24 h is effectively forever).
        let p = ModelAwareBoundPolicy.launchBeforeUpdate(model(apps: 1, launches: 2, updates: 1), app: 0, now: at(day: 0, 10.5))
        // The sum stops once P(neither yet) < 1e-4.
        XCTAssertEqual(p, 2.0 / 3, accuracy: 1e-4)
        // No launches expected: nothing to gain.
        XCTAssertEqual(ModelAwareBoundPolicy.launchBeforeUpdate(model(apps: 1, launches: 0, updates: 1), app: 0, now: .zero), 0)
        // Expected updates over 90 minutes at 2 an hour.
        let m = ModelAwareBoundPolicy.expectedUpdates(model(apps: 1, launches: 0, updates: 2), app: 0,
                                                      from: at(day: 0, 9.75), to: at(day: 0, 11.25))
        XCTAssertEqual(m, 3, accuracy: 1e-9)
    }

    func testRefreshesWhereTheGainPerJouleIsHighEnoughAndWaitsElsewhere() {
        let request = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: .zero,
                                  submittedAt: .zero)
        var context = PolicyContext(now: at(day: 0, 12), device: DeviceState(network: .wifi), pending: [request], appCount: 1)
        var policy = ModelAwareBoundPolicy(minGainPerJoule: 0.1)
        // No model: nothing, like `never`.
        XCTAssertEqual(policy.decide(context: context).run, [])
        // Often launched, often updated, never fetched: gain ≈ 1 · 2/3 ≥ 0.1 J⁻¹ · 1 J on Wi-Fi.
        context.model = model(apps: 1, launches: 2, updates: 1)
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(1)])
        // On a cold cellular radio (14 J) the same gain is not worth it: look again later.
        context.device.network = .cellular
        let later = policy.decide(context: context)
        XCTAssertEqual(later.run, [])
        XCTAssertEqual(later.wakeAt, at(day: 0, 12) + .minutes(15))
        // Riding a radio that is already up costs 1 J again.
        context.radioUpUntil = at(day: 0, 12) + .seconds(5 as Int64)
        XCTAssertEqual(policy.decide(context: context).run, [RequestID(1)])
        // Just fetched and no update since: stale with probability ~0, nothing to gain.
        context.radioUpUntil = nil
        context.device.network = .wifi
        policy.observe(.launch(app: 0), context: context)
        XCTAssertEqual(policy.decide(context: context).run, [])
    }

    func testTheSimulatorPassesTheTracesModelToTheBound() {
        // One app, launched every 2 h, updated every 30 min: with the model the
        // bound refreshes and makes launches fresh; without it, it is `never`.
        var launches: [(SimTime, Int32)] = []
        for h in stride(from: 1.0, to: 48, by: 2) { launches.append((at(day: 0, h), 0)) }
        var updates: [SimTime] = []
        for k in 0..<(48 * 2) { updates.append(SimTime(microseconds: Int64(k) * 1_800_000_000 + 60_000_000)) }
        var t = trace(days: 2, apps: ["feed"], sessions: makeSessions(launches), updates: [updates])
        let without = simulateDevice(trace: t, policy: ModelAwareBoundPolicy(), randomKey: 1)
        XCTAssertEqual(without.freshLaunches, 0)
        t.model = model(apps: 1, launches: 0.5, updates: 2)
        let with = simulateDevice(trace: t, policy: ModelAwareBoundPolicy(), randomKey: 1)
        XCTAssertGreaterThan(with.freshLaunches, with.launches / 4)
    }
}
