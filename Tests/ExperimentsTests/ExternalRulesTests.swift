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
/// rule stops the run naming the message and the field.
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

    /// A plan-mode process that answers every `plan` with correct plans and
    /// the `rules` given (JSON), or declares the `hello` given.
    func ruleMisbehaving(rules: String, hello: String = #"{"type":"hello","protocol":1,"mode":"plans","observes":[]}"#) throws -> String {
        let script = """
        import json, os, sys
        pids, rules, hello = sys.argv[1:4]
        open(pids, "a").write("%d\\n" % os.getpid())
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(hello, flush=True)
            elif m["type"] == "plan":
                plans = [{"id": r["id"], "runFrom": 0, "wakeAt": None} for r in m["requests"]]
                print(json.dumps({"type": "plans", "plans": plans, "rules": json.loads(rules)}), flush=True)
            elif m["type"] == "end":
                print('{"type":"ended"}', flush=True)
            elif m["type"] == "bye":
                break
        """
        try script.write(toFile: dir.path("rules.py"), atomically: true, encoding: .utf8)
        return try write(spec: #"{"name": "external", "label": "bad", "params": {"command": \#(json(["python3", dir.path("rules.py"), dir.path("pids"), rules, hello]))}}"#,
                         users: 1)
    }

    func testMalformedRulesInAPlansReplyNameTheMessageAndTheField() throws {
        try skipWithoutPython()
        let cases = [
            ("5", #"answered with "rules" 5, expected an array of rules"#),
            ("[7]", #"answered with "rules"[0] 7, expected an object"#),
            (#"[{"runFrom":0},{"app":99,"runFrom":0}]"#, #"answered with "rules"[1].app 99, expected an app number in 0..."#),
            (#"[{"kind":"refreshes","runFrom":0}]"#, #"answered with "rules"[0].kind "refreshes", expected one of "refresh", "processing", "fetch""#),
            (#"[{"wakeAt":0}]"#, #"answered with no "rules"[0].runFrom, expected whole microseconds or null"#),
            (#"[{"runFrom":0,"wakeAt":"soon"}]"#, #"answered with "rules"[0].wakeAt "soon", expected whole microseconds or null"#),
        ]
        for (rules, words) in cases {
            let m = try failure(try ruleMisbehaving(rules: rules))
            for part in [words, "in reply to the \"plan\" message at simulated time d0+", "for user 0 (replication 0, configuration \"bad\")"] {
                XCTAssertTrue(m.contains(part), "\(rules): missing \(part) in: \(m)")
            }
            try? FileManager.default.removeItem(atPath: dir.path("pids"))
        }
    }

    func testMalformedRulesInTheHelloAreRefusedAtTheHandshake() throws {
        try skipWithoutPython()
        let cases = [
            (#"{"type":"hello","protocol":1,"mode":"plans","rules":[{"app":0,"runFrom":0}]}"#,
             #"gave "rules"[0].app 0 in its hello; expected no "app""#),
            (#"{"type":"hello","protocol":1,"rules":[{"runFrom":0}]}"#, #"gave "rules" in its hello without "mode":"plans""#),
            (#"{"type":"hello","protocol":1,"mode":"plans","rules":{"runFrom":0}}"#, #"in its hello; expected an array of rules"#),
            (#"{"type":"hello","protocol":1,"mode":"plans","rules":[{"kind":"push","runFrom":0}]}"#,
             #"gave "rules"[0].kind "push" in its hello; expected one of "refresh", "processing", "fetch""#),
            (#"{"type":"hello","protocol":1,"mode":"plans","rules":[{"runFrom":1.5}]}"#,
             #"gave "rules"[0].runFrom 1.5 in its hello; expected whole microseconds or null"#),
        ]
        for (hello, words) in cases {
            let spec = try ruleMisbehaving(rules: "[]", hello: hello)
            XCTAssertThrowsError(try run(spec, out: "out")) { error in
                guard let e = error as? SpecError else { return XCTFail("\(type(of: error)): \(error)") }
                XCTAssertEqual(e.path, "$.policies[0].params.command")
                XCTAssertTrue(e.message.contains(words) && e.message.contains("\"hello\" message"), e.message)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
        }
    }
}
