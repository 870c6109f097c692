import Foundation
import SimCore
import Traces
import XCTest

final class ReproducibilityTests: XCTestCase {
    func testSameSeedSameTraceDifferentSeedDifferentTrace() {
        let a = PopulationGenerator(parameters: .default, seed: 42, days: 7)
        let b = PopulationGenerator(parameters: .default, seed: 42, days: 7)
        let c = PopulationGenerator(parameters: .default, seed: 43, days: 7)
        XCTAssertEqual(a.user(3), b.user(3))
        XCTAssertNotEqual(a.user(3).sessions, c.user(3).sessions)
        XCTAssertNotEqual(a.user(3).sessions, a.user(4).sessions)
    }

    func testAUsersTraceDoesNotDependOnPopulationSizeOrOrderOrThreads() {
        let g = PopulationGenerator(parameters: .default, seed: 7, days: 7)
        let alone = g.user(7)
        XCTAssertEqual(g.traceSet(users: 10).users[7], alone)
        XCTAssertEqual(g.traceSet(users: 30).users[7], alone)
        // Generated concurrently, in any order.
        let results = Mutex(Array<UserTrace?>(repeating: nil, count: 16))
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let j = 15 - i
            let t = g.user(j)
            results.withLock { $0[j] = t }
        }
        let all = results.withLock { $0 }
        XCTAssertEqual(all[7], alone)
        for i in 0..<16 { XCTAssertEqual(all[i], g.user(i)) }
    }
}

/// A tiny lock for collecting results across threads in tests.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}
