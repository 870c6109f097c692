import Foundation
import Device
@testable import Policies
import SimCore
import TestSupport
import XCTest
@testable import Experiments

/// Standing rules of the external-policy protocol
/// (Docs/ExternalPolicyProtocol.md, "Standing rules"): a process that
/// declares them is asked less (greedy never, fixed-interval less than in
/// plan mode without them) for the same bytes (ExternalPlanModeTests and
/// Examples/python/test.sh check the bytes); a rule covers its app and
/// kind, a later one replaces it, an observation drops it; and a malformed
/// rule stops the run naming the message and the field
/// (ExternalPlanModeTests: testWrongPlansRepliesNameTheMessageAndTheField,
/// testWrongPlanModeDeclarationsAreRefusedAtTheHandshake).
extension ExternalPolicyTests {
    func testStandingRulesAskFewerPlansThanPlanMode() throws {
        try skipWithoutPython()
        let params = #", "interval": "30m", "flex": "10m""#
        let spec = try write(spec: """
            \(external("rules-greedy", "greedy.py")), \(external("plans-greedy", "greedy.py", ["--plans"])),
            \(external("rules-fixed", "fixed_interval.py", params: params)),
            \(external("plans-fixed", "fixed_interval.py", ["--plans"], params: params))
            """, users: 2, days: 2)
        let runner = try Runner(spec: ExperimentSpec.load(path: spec, registry: .standard))
        XCTAssertNotNil(try runner.run(threads: 1))
        let hosts = runner.resources.compactMap { $0 as? ExternalDecisionHost }
        XCTAssertEqual(hosts.count, 4)
        let trips = hosts.map { $0.roundTrips.load(ordering: .relaxed) }
        let decisions = hosts.map { $0.decisions.load(ordering: .relaxed) }
        XCTAssertGreaterThan(decisions[0], 100)
        XCTAssertEqual(trips[0], 0, "greedy's hello rule plans every request: no plan message")
        XCTAssertGreaterThan(trips[1], 100, "greedy --plans is asked per new request")
        XCTAssertGreaterThan(trips[2], 1, "fixed-interval gives its rules in its first plans reply")
        XCTAssertLessThan(trips[2], trips[3], "fixed-interval's rules spare the plan messages of new requests")
    }

    func testTheRuleTableCoversAppAndKindLaterRulesWinObservationsDrop() {
        func request(app: Int32, kind: TaskKind, earliest: Int64) -> TaskRequest {
            TaskRequest(id: RequestID(1), app: app, identifier: 0, kind: kind,
                        earliestBegin: SimTime(microseconds: earliest), submittedAt: SimTime(microseconds: 0))
        }
        let every = try! ExternalRule.parse([["runFrom": 0, "wakeAt": 0] as [String: Any]], from: .hello)
        var table = ExternalRuleTable(apps: 3, rules: every)
        let r = request(app: 2, kind: .processing, earliest: 500)
        XCTAssertEqual(table.rule(for: r)?.plan(for: r), ExternalPlans.Plan(runFrom: 0, wakeAt: 500), "the wake is raised to earliestBegin")
        table.set(try! ExternalRule.parse([["app": 1, "kind": "refresh", "runFrom": NSNull(), "wakeAt": 900] as [String: Any]],
                                          from: .plans(apps: 3)))
        let refresh1 = request(app: 1, kind: .appRefresh, earliest: 100), fetch1 = request(app: 1, kind: .legacyFetch, earliest: 100)
        XCTAssertEqual(table.rule(for: refresh1)?.plan(for: refresh1), ExternalPlans.Plan(runFrom: nil, wakeAt: 900))
        XCTAssertEqual(table.rule(for: fetch1)?.plan(for: fetch1), ExternalPlans.Plan(runFrom: 0, wakeAt: 100), "another kind keeps the earlier rule")
        table.drop(app: 1)
        XCTAssertNil(table.rule(for: refresh1))
        XCTAssertNil(table.rule(for: fetch1))
        XCTAssertNotNil(table.rule(for: r), "another app keeps its rules")
        table.drop(app: nil)
        XCTAssertNil(table.rule(for: r))
        XCTAssertNil(table.rule(for: request(app: 7, kind: .processing, earliest: 0)), "no rule for an app the device does not have")
    }
}
