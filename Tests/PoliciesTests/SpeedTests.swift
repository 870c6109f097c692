import Device
import Foundation
import Policies
import SimCore
import Traces
import XCTest

/// Prints simulation speed (events/s) on generated users of the default
/// world. Not an assertion: run it in release
/// (`swift test -c release --filter SpeedTests`) for a figure. Each policy is
/// timed three times and the best is kept (the machine may be shared).
final class SpeedTests: XCTestCase {
    func testSimulationSpeed() throws {
        let days = 14
        let gen = PopulationGenerator(parameters: .default, seed: 1, days: days)
        let users = 40
        let traces = (0..<users).map { DeviceTrace(gen.user($0), apps: gen.parameters.apps) }
        let configs: [(String, PolicyConfiguration)] = [
            ("never", PolicyConfiguration(name: "never")),
            ("greedy", PolicyConfiguration(name: "greedy")),
            ("fixed-interval 15m", PolicyConfiguration(name: "fixed-interval", params: ["interval": .string("15m")])),
            ("usage-predictor", PolicyConfiguration(name: "usage-predictor")),
            ("backoff(coalescing(usage-predictor))",
             PolicyConfiguration(name: "exponential-backoff", base: .init(name: "coalescing", base: .init(name: "usage-predictor")))),
        ]
        for (label, config) in configs {
            let policy = try PolicyRegistry.standard.make(config)
            var best = Double.infinity
            var events = 0
            for _ in 0..<3 {
                events = 0
                let start = Date()
                for (i, t) in traces.enumerated() {
                    events += simulateDevice(trace: t, policy: policy, randomKey: UInt64(i)).events
                }
                best = min(best, Date().timeIntervalSince(start))
            }
            print(String(format: "speed %@: %d users × %d d, %d events, best of 3 %.3f s = %.2f M events/s",
                         label, users, days, events, best, Double(events) / best / 1e6))
        }
    }
}
