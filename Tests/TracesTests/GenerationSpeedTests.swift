// Generation speed, measured only on request (it means something only in a
// release build):
//   BGBENCH_TRACES_SPEED=1 swift test -c release --filter GenerationSpeedTests
import Foundation
import Stats
import Traces
import XCTest

final class GenerationSpeedTests: XCTestCase {
    func testMicrosecondsPerUserWeek() throws {
        guard ProcessInfo.processInfo.environment["BGBENCH_TRACES_SPEED"] == "1" else {
            throw XCTSkip("set BGBENCH_TRACES_SPEED=1 (and build with -c release) to measure")
        }
        let g = PopulationGenerator(parameters: .default, seed: 1, days: 7)
        var sink = 0
        for i in 0..<200 { sink &+= g.user(i).sessions.count }  // warm-up
        let users = 20_000
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for i in 0..<users { sink &+= g.user(i).sessions.count }
        }
        let us = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        print("traces: \(String(format: "%.1f", us / Double(users))) µs per user-week (\(users) users, one thread, sink \(sink))")
    }
}

extension GenerationSpeedTests {
    func testBreakdownPerGenerator() throws {
        guard ProcessInfo.processInfo.environment["BGBENCH_TRACES_SPEED"] == "1" else {
            throw XCTSkip("set BGBENCH_TRACES_SPEED=1 (and build with -c release) to measure")
        }
        let p = GeneratorParameters.default
        let n = 5_000
        let clock = ContinuousClock()
        func time(_ name: String, _ body: (Int) -> Int) {
            var sink = 0
            let d = clock.measure { for i in 0..<n { sink &+= body(i) } }
            let us = Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
            print("traces: \(name) \(String(format: "%.1f", us / Double(n))) µs per user-week (sink \(sink))")
        }
        let usage = UsageGenerator(parameters: p.usage, apps: p.apps)
        let power = PowerGenerator(parameters: p.power, appCount: p.apps.count)
        let network = NetworkGenerator(parameters: p.network)
        let content = ContentGenerator(parameters: p.content, apps: p.apps)
        time("streams only") { i in Int(truncatingIfNeeded: RandomStream(seed: 1, user: i, stream: "usage").key & 1) }
        time("usage") { usage.generate(days: 7, using: RandomStream(seed: 1, user: $0, stream: "usage")).sessions.count }
        time("power") { power.generate(days: 7, using: RandomStream(seed: 1, user: $0, stream: "power")).charging.count }
        time("network") { network.generate(days: 7, using: RandomStream(seed: 1, user: $0, stream: "network")).count }
        time("content") { content.generate(days: 7, using: RandomStream(seed: 1, user: $0, stream: "content")).count }
    }
}
