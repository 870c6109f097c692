@testable import Device
@testable import Policies
import Foundation
import SimCore
import Traces
import XCTest

/// The wrappers forward their base's traits whole (``PolicyTraits``), and
/// where a wrapper is neutral its results are its base's.
///
/// Why: the wrappers once restated the static requirements one by one and
/// forgot `needsModelKnowledge`, so `coalescing(model-bound)` and
/// `exponential-backoff(model-bound)` ran without their model — exactly
/// `never` — and nothing said so.
final class WrapperTraitsTests: XCTestCase {
    static let wrappers: [(name: String, json: String)] = [
        ("coalescing", #""name": "coalescing", "params": {"window": "10m"}"#),
        ("exponential-backoff", #""name": "exponential-backoff", "params": {"initial": "20s", "cap": "2h"}"#),
    ]

    /// Every registered policy that is not itself a wrapper, as a base, with
    /// the parameters it requires (the wrappers as bases: the nested cases below).
    static var bases: [(name: String, json: String)] {
        PolicyRegistry.standard.descriptors.filter { !$0.isWrapper }.map(\.name).map { name in
            name == "external" ? (name, #"{"name": "external", "params": {"command": ["true"]}}"#)
                               : (name, #"{"name": "\#(name)"}"#)
        }
    }

    func make(_ json: String) throws -> any SchedulingPolicy {
        let made = try PolicyRegistry.standard.makeOwningResources(
            JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8)))
        for r in made.resources { r.shutDown() }
        return made.policy
    }

    /// What each wrapper is declared to change in its base's traits, and nothing else.
    func expected(_ wrapper: String, over base: PolicyTraits) -> PolicyTraits {
        var t = base
        switch wrapper {
        case "coalescing": t.decidesAtSessionStart = true
        case "exponential-backoff": t.observedKinds.formUnion([.taskFinished, .launch])
        default: XCTFail("unknown wrapper \(wrapper)")
        }
        return t
    }

    func testEveryRegisteredPolicyKeepsItsTraitsInEveryWrapper() throws {
        XCTAssertEqual(Self.bases.count + Self.wrappers.count, PolicyRegistry.standard.names.count)
        var sawModel = false, sawFuture = false
        for base in Self.bases {
            let b = type(of: try make(base.json)).traits
            sawModel = sawModel || b.needsModelKnowledge
            sawFuture = sawFuture || b.needsFutureKnowledge
            for w in Self.wrappers {
                let made = try make(#"{\#(w.json), "base": \#(base.json)}"#)
                XCTAssertEqual(type(of: made).traits, expected(w.name, over: b), "\(w.name)(\(base.name))")
                // Nested: the knowledge goes through any depth.
                for outer in Self.wrappers {
                    let nested = try make(#"{\#(outer.json), "base": {\#(w.json), "base": \#(base.json)}}"#)
                    XCTAssertEqual(type(of: nested).traits, expected(outer.name, over: expected(w.name, over: b)),
                                   "\(outer.name)(\(w.name)(\(base.name)))")
                }
            }
        }
        // The registry has a policy needing each kind of knowledge, so both are exercised.
        XCTAssertTrue(sawModel, "no registered policy needs the model")
        XCTAssertTrue(sawFuture, "no registered policy needs the future")
        XCTAssertTrue(type(of: try make(#"{\#(Self.wrappers[0].json), "base": {"name": "model-bound"}}"#)).traits.needsModelKnowledge)
        XCTAssertTrue(type(of: try make(#"{\#(Self.wrappers[1].json), "base": {"name": "model-bound"}}"#)).traits.needsModelKnowledge)
    }

    /// The check worlds (PolicyConformance's), each with a model of the user
    /// for the bound that reads one, and without failures so that a backoff
    /// holds nothing back.
    func worlds() -> [(String, DeviceTrace, DeviceConfiguration)] {
        PolicyConformance.scenarios().filter { $0.0 != "failing and forgetful apps" }.map { name, trace, config in
            var trace = trace
            let apps = trace.appNames.count
            trace.model = UsageModelKnowledge(launchesPerHour: Array(repeating: Array(repeating: 0.7, count: 48), count: apps),
                                              updatesPerHour: Array(repeating: Array(repeating: 0.5, count: 24), count: apps))
            var config = config
            config.defaultApp.refresh.failureProbabilityWifi = 0
            config.defaultApp.refresh.failureProbabilityCellular = 0
            return (name, trace, config)
        }
    }

    /// A wrapper with neutral settings runs as its base: coalescing with a
    /// zero window (every time is on its grid, and there is no time ahead
    /// to pull from), and exponential-backoff where no task fails or
    /// expires (it holds an app back only after one). Compared over every
    /// metric, through the runner's existential path, for every registered
    /// policy but `external` (which needs a decision process; its traits
    /// are checked above).
    func testNeutralWrappersRunAsTheirBase() throws {
        var compared = 0, withTasks = 0
        for base in Self.bases where base.name != "external" {
            let policy = try make(base.json)
            func wrapped<B: SchedulingPolicy>(_ b: B) -> [(String, any SchedulingPolicy)] {
                [("coalescing", CoalescingPolicy(base: b, window: .zero)),
                 ("exponential-backoff", ExponentialBackoffPolicy(base: b))]
            }
            for (world, trace, config) in worlds() {
                let alone = simulateDevice(trace: trace, configuration: config, policy: policy, randomKey: 0x5EED)
                for (w, p) in wrapped(policy) {
                    if w == "exponential-backoff" && alone.tasksFailed + alone.tasksExpired > 0 { continue }
                    let inWrapper = simulateDevice(trace: trace, configuration: config, policy: p, randomKey: 0x5EED)
                    if let c = PolicyConformance.firstDifference(alone, inWrapper) {
                        XCTFail("\(w)(\(base.name)) in \(world): \(c.name) \(c.value(inWrapper)), the base alone \(c.value(alone))")
                    }
                    compared += 1
                    if alone.tasksRun > 0 { withTasks += 1 }
                }
            }
        }
        // Most comparisons are of runs that did something.
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThan(withTasks, 40)
    }
}
