import Device
import Foundation
import Policies
import SimCore
import Traces
import XCTest

/// Prints simulation speed (events/s) on generated users. Not an assertion:
/// run it in release (`swift test -c release --filter SpeedTests`) for a figure.
final class SpeedTests: XCTestCase {
    func testSimulationSpeed() throws {
        let gen = PopulationGenerator(parameters: .default, seed: 1, days: 7)
        let users = 20
        let traces = (0..<users).map { DeviceTrace(gen.user($0), apps: gen.parameters.apps) }
        for config in [PolicyConfiguration(name: "greedy"), PolicyConfiguration(name: "fixed-interval"),
                       PolicyConfiguration(name: "exponential-backoff", base: .init(name: "coalescing", base: .init(name: "usage-predictor")))] {
            let policy = try PolicyRegistry.standard.make(config)
            var events = 0
            let start = Date()
            for (i, t) in traces.enumerated() {
                events += simulateDevice(trace: t, policy: policy, randomKey: UInt64(i)).events
            }
            let seconds = Date().timeIntervalSince(start)
            print(String(format: "speed %@: %d users × 7 d, %d events in %.3f s = %.2f M events/s",
                         config.name, users, events, seconds, Double(events) / seconds / 1e6))
        }
    }
}
