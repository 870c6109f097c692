@_spi(BuiltInPolicies) @testable import Device
@_spi(BuiltInPolicies) @testable import Policies
import Foundation
import SimCore
import TestSupport
import XCTest

/// The registry builds coalescing and exponential-backoff over the standard
/// bases under concrete conformances (SpecialisedWrappers.swift): they must
/// be the plain generic wrappers in all but type — same static properties,
/// same decisions and observations on random contexts.
final class WrapperSpecialisationTests: XCTestCase {
    func make(_ json: String) throws -> any SchedulingPolicy {
        try PolicyRegistry.standard.make(JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8)))
    }

    static let coalescing = #""name": "coalescing", "params": {"window": "10m"}"#
    static let backoff = #""name": "exponential-backoff", "params": {"initial": "20s", "factor": 3, "cap": "2h", "jitter": 0.3}"#
    func coalescing<B: SchedulingPolicy>(_ b: B) -> CoalescingPolicy<B> { CoalescingPolicy(base: b, window: .minutes(10)) }
    func backoff<B: SchedulingPolicy>(_ b: B) -> ExponentialBackoffPolicy<B> {
        ExponentialBackoffPolicy(base: b, initial: .seconds(20 as Int64), factor: 3, cap: .hours(2), jitter: 0.3)
    }

    func testRegistryWrappersDecideLikeTheGenericOnes() throws {
        let bases: [(String, any SchedulingPolicy)] = [
            ("fixed-interval", FixedIntervalPolicy()), ("usage-predictor", UsagePredictorPolicy()), ("greedy", GreedyPolicy()),
            ("oracle", OraclePolicy()), ("never", NeverPolicy()),
        ]
        for (name, base) in bases {
            let b = #"{"name": "\#(name)"}"#
            func check<B: SchedulingPolicy>(_ base: B) throws {
                try compare(make(#"{\#(Self.coalescing), "base": \#(b)}"#), coalescing(base))
                try compare(make(#"{\#(Self.backoff), "base": \#(b)}"#), backoff(base))
            }
            try check(base)
        }
        for inner in ["fixed-interval", "usage-predictor"] {
            let json = #"{\#(Self.backoff), "base": {\#(Self.coalescing), "base": {"name": "\#(inner)"}}}"#
            if inner == "fixed-interval" {
                try compare(make(json), backoff(coalescing(FixedIntervalPolicy())))
            } else {
                try compare(make(json), backoff(coalescing(UsagePredictorPolicy())))
            }
        }
    }

    /// `made` is a forwarder with `plain`'s static properties, and the two
    /// decide alike through a run of random contexts and observations.
    func compare<P: SchedulingPolicy>(_ made: any SchedulingPolicy, _ plain: P,
                                      file: StaticString = #filePath, line: UInt = #line) {
        let name = "\(P.self)"
        XCTAssertTrue(made is any ForwardingPolicy, "\(name): built as \(type(of: made))", file: file, line: line)
        XCTAssertEqual(type(of: made).observedKinds, P.observedKinds, name, file: file, line: line)
        XCTAssertEqual(type(of: made).needsFutureKnowledge, P.needsFutureKnowledge, name, file: file, line: line)
        XCTAssertEqual(type(of: made).decidesAtSessionStart, P.decidesAtSessionStart, name, file: file, line: line)
        var made = made, plain = plain
        var rng = TestRandom(seed: 11)
        let apps = 4
        func sorted(_ n: Int) -> [SimTime] { (0..<n).map { _ in SimTime(day: 0, plus: .seconds(rng.next() * 6 * 86_400)) }.sorted() }
        let future = FutureLaunches(launches: (0..<apps).map { _ in sorted(60) }, contentUpdates: (0..<apps).map { _ in sorted(80) })
        var joules = 0.0
        var lookaheads = 0
        for step in 0..<2_000 {
            let now = SimTime(day: step / 400, plus: .seconds(Double(step % 400) * 200 + rng.next() * 200))
            var ctx = FastPathTests.randomContext(&rng, apps: apps, now: now)
            ctx.future = future
            joules += rng.next()
            ctx.backgroundJoules = joules
            let u = rng.next()
            var o: PolicyObservation? = nil
            if u < 0.2 {
                o = .launch(app: Int32(rng.next() * Double(apps)))
            } else if u < 0.5, let r = ctx.pending.first {
                let outcome: TaskOutcome = [.success, .failed, .expired][Int(rng.next() * 3)]
                o = .taskFinished(TaskReport(request: r, start: now - .seconds(rng.next() * 900), end: now, outcome: outcome,
                                             fetchResult: nil, energyJoules: rng.next() * 5))
            }
            if let o {
                made.observe(o, context: ctx)
                plain.observe(o, context: ctx)
            }
            if let up = ctx.radioUpUntil, up > now { lookaheads += 1 }
            XCTAssertEqual(made.decide(context: ctx), plain.decide(context: ctx), "\(name) step \(step)", file: file, line: line)
        }
        XCTAssertGreaterThan(lookaheads, 100, file: file, line: line)
    }
}
