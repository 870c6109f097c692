@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) @testable import Policies
import SimCore
import TestSupport
import XCTest

final class RegistryTests: XCTestCase {
    func make(_ json: String) throws -> any SchedulingPolicy {
        let c = try JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8))
        return try PolicyRegistry.standard.make(c)
    }

    func error(_ json: String) -> PolicyConfigurationError? {
        do { _ = try make(json); return nil } catch let e as PolicyConfigurationError { return e } catch { return nil }
    }

    func testNestedConfigurationBuildsTheComposition() throws {
        let p = try make(#"{"name": "exponential-backoff", "params": {"initial": "10s", "cap": "1h"}, "base": {"name": "coalescing", "params": {"window": "10m"}, "base": {"name": "usage-predictor", "params": {"threshold": 0.5}}}}"#)
        // The generic wrappers themselves, around the concrete base.
        let b = try XCTUnwrap(p as? ExponentialBackoffPolicy<CoalescingPolicy<UsagePredictorPolicy>>)
        XCTAssertEqual(b.initial, .seconds(10 as Int64))
        XCTAssertEqual(b.cap, .hours(1))
        XCTAssertEqual(b.base.window, .minutes(10))
        XCTAssertEqual(b.base.base.threshold, 0.5)
        XCTAssertEqual(b.base.base.leadTime, .minutes(2), "default")
    }

    func testRejectionsCarryTheirJSONPath() {
        XCTAssertEqual(error(#"{"name": "greedy", "params": {"speed": 1}}"#)?.path, "policy.params.speed")
        XCTAssertEqual(error(#"{"name": "fixed-interval", "params": {"interval": 15}}"#)?.path, "policy.params.interval")
        XCTAssertEqual(error(#"{"name": "fixed-interval", "params": {"interval": "15 minutes"}}"#)?.path, "policy.params.interval")
        XCTAssertEqual(error(#"{"name": "coalescing", "base": {"name": "usage-predictor", "params": {"threshold": "high"}}}"#)?.path,
                       "policy.base.params.threshold")
        XCTAssertEqual(error(#"{"name": "coalescing", "base": {"name": "usage-predictor", "params": {"threshold": 2}}}"#)?.path,
                       "policy.base.params.threshold")
        XCTAssertEqual(error(#"{"name": "coalescing"}"#)?.path, "policy.base")
        XCTAssertEqual(error(#"{"name": "greedy", "base": {"name": "never"}}"#)?.path, "policy.base")
        XCTAssertEqual(error(#"{"name": "nope"}"#)?.path, "policy.name")
        XCTAssertThrowsError(try make(#"{"name": "greedy", "parameters": {}}"#))
    }

    func testListingNamesEveryPolicyAndParameter() {
        let text = PolicyRegistry.standard.listing()
        for d in PolicyRegistry.standard.descriptors {
            XCTAssertTrue(text.contains(d.name))
            for p in d.parameters {
                XCTAssertTrue(text.contains(p.name) && text.contains(p.isRequired ? "required" : "default \(p.defaultValue)"), p.name)
            }
        }
        print(text)
    }
}

final class ExamplePolicyTests: XCTestCase {
    func testQuietHoursConformsAndStaysQuiet() throws {
        let policy = try PolicyRegistry.withExample.make(PolicyConfiguration(name: "quiet-hours"))
        XCTAssertEqual(PolicyConformance.check(policy), [])
        var rng = TestRandom(seed: 4)
        let starts = rng.poisson(perHour: 1, horizon: SimTime(day: 3)).map { ($0, Int32(0)) }
        let t = trace(days: 3, apps: ["news"], sessions: makeSessions(starts), updates: [[]])
        let (_, log) = simulateDeviceWithLog(trace: t, policy: policy, randomKey: 1)
        let tasks = log.events.filter { $0.kind == .task }
        XCTAssertFalse(tasks.isEmpty)
        for e in tasks {
            let h = e.start!.timeOfDay.seconds / 3600
            XCTAssertTrue(h >= 7 && h < 23, "ran at \(e.start!)")
        }
    }
}

final class GuideTests: XCTestCase {
    /// Docs/WritingAPolicy.md quotes ExamplePolicy.swift between its
    /// `MARK: example begin` / `end` lines, verbatim.
    func testGuideQuotesTheCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let example = try String(contentsOf: here.appendingPathComponent("ExamplePolicy.swift"), encoding: .utf8)
        let guide = try String(contentsOf: here.appendingPathComponent("../../Docs/WritingAPolicy.md").standardized, encoding: .utf8)
        let begin = try XCTUnwrap(example.range(of: "// MARK: example begin\n"))
        let end = try XCTUnwrap(example.range(of: "// MARK: example end"))
        let quoted = String(example[begin.upperBound..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(guide.contains("```swift\n" + quoted + "\n```"), "the guide's example differs from ExamplePolicy.swift")
        // The seam is `observe` and `decide`, with the traits as one declaration
        // (no piecemeal static flags a wrapper could forget to forward).
        XCTAssertTrue(guide.contains("static var traits: PolicyTraits"))
        XCTAssertFalse(guide.contains("static var observedKinds"))
        XCTAssertFalse(guide.contains("static var needsModelKnowledge"))
    }
}
