import Foundation
import Device
@testable import Policies
import Synchronization
import TestSupport
import Traces
import XCTest
@testable import Experiments

/// Plan mode of the external-policy protocol (Docs/ExternalPolicyProtocol.md,
/// "Plan mode"): the Python greedy and fixed-interval declaring plans give
/// the built-ins' bytes, alone and under the wrappers, and so does the
/// same process asked at every decision point; a wrong `plans` reply or
/// `hello` declaration stops the run naming the message and the field;
/// and a reply line beyond the one line-length limit is an error, not a
/// hang or a heap.
extension ExternalPolicyTests {
    func external(_ label: String, _ script: String, _ extra: [String] = [], params: String = "") -> String {
        let argv = json(["python3", Self.python.appendingPathComponent(script).path] + extra)
        return #"{"name": "external", "label": "\#(label)", "params": {"command": \#(argv)\#(params)}}"#
    }

    func testPlanModeGivesTheBuiltInsBytesAloneAndWrapped() throws {
        try skipWithoutPython()
        let greedy = external("py-greedy", "greedy.py")
        let fixed = external("py-fixed", "fixed_interval.py", params: #", "interval": "30m", "flex": "10m""#)
        let spec = try write(spec: #"""
            {"name": "greedy"}, \#(greedy),
            \#(external("py-greedy-decide", "greedy.py", ["--decide"])),
            \#(external("py-greedy-plans", "greedy.py", ["--plans"])),
            {"name": "fixed-interval", "label": "fixed", "params": {"interval": "30m", "flex": "10m"}}, \#(fixed),
            \#(external("py-fixed-decide", "fixed_interval.py", ["--decide"], params: #", "interval": "30m", "flex": "10m""#)),
            \#(external("py-fixed-plans", "fixed_interval.py", ["--plans"], params: #", "interval": "30m", "flex": "10m""#)),
            {"name": "coalescing", "base": {"name": "greedy"}}, {"name": "coalescing", "label": "py-coalescing", "base": \#(greedy)},
            {"name": "exponential-backoff", "label": "backoff", "base": {"name": "fixed-interval", "params": {"interval": "30m", "flex": "10m"}}},
            {"name": "exponential-backoff", "label": "py-backoff", "base": \#(fixed)}
            """#, users: 3, days: 2)
        guard case .completed = try run(spec, out: "o", threads: 2) else { return XCTFail() }
        let pairs = [("greedy", "py-greedy"), ("greedy", "py-greedy-decide"), ("greedy", "py-greedy-plans"),
                     ("fixed", "py-fixed"), ("fixed", "py-fixed-decide"), ("fixed", "py-fixed-plans"),
                     ("coalescing(greedy)", "py-coalescing"),
                     ("backoff", "py-backoff")]
        for (builtIn, external) in pairs {
            let a = try rows("o", builtIn), b = try rows("o", external)
            XCTAssertEqual(a.count, 3, builtIn)
            XCTAssertEqual(a, b, "\(builtIn) vs \(external)")
        }
    }

    /// The plan-mode greedy (`--plans`) is asked once per decision point
    /// with a new request (about half of them on the default world), not
    /// at every one, and passes the conformance check.
    func testPlanModeAsksFarLessOftenThanDecisionPoints() throws {
        try skipWithoutPython()
        let config = PolicyConfiguration(name: "external", params: [
            "command": .array([.string("python3"), .string(Self.python.appendingPathComponent("greedy.py").path), .string("--plans")])])
        let made = try PolicyRegistry.standard.makeOwningResources(config)
        defer { for r in made.resources { r.shutDown() } }
        let host = try XCTUnwrap(made.resources.first as? ExternalDecisionHost)
        func check<P: SchedulingPolicy>(_ p: P) -> [PolicyConformance.Violation] { PolicyConformance.check(p) }
        XCTAssertEqual(check(made.policy), [])
        XCTAssertNil(made.resources.first?.failure)
        let decisions = host.decisions.load(ordering: .relaxed), trips = host.roundTrips.load(ordering: .relaxed)
        XCTAssertGreaterThan(decisions, 100)
        XCTAssertLessThan(trips, decisions * 6 / 10, "plan messages \(trips), decision points \(decisions)")
    }

    // MARK: Wrong plan-mode messages (a Python process told what to get wrong)

    /// A plan-mode decision process that answers its first `plan` message
    /// wrongly, as `fault` says (`rules:` and JSON: correct plans and
    /// these standing rules), or declares `hello` fields given as JSON.
    func planMisbehaving(_ fault: String, hello: String = #"{"type":"hello","protocol":1,"mode":"plans","observes":[]}"#) throws -> String {
        let script = """
        import json, os, sys
        pids, fault, hello = sys.argv[1:4]
        open(pids, "a").write("%d\\n" % os.getpid())
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(hello, flush=True)
            elif m["type"] == "plan":
                ids = [r["id"] for r in m["requests"]]
                plans = [{"id": i, "runFrom": 0, "wakeAt": None} for i in ids]
                if fault == "type": reply = {"type": "decision"}
                elif fault == "count": reply = {"type": "plans", "plans": plans + plans}
                elif fault == "id": plans[0]["id"] = ids[0] + 1000; reply = {"type": "plans", "plans": plans}
                elif fault == "runFrom": del plans[0]["runFrom"]; reply = {"type": "plans", "plans": plans}
                elif fault == "wakeAt": plans[0]["wakeAt"] = "soon"; reply = {"type": "plans", "plans": plans}
                elif fault.startswith("rules:"): reply = {"type": "plans", "plans": plans, "rules": json.loads(fault[6:])}
                else: reply = {"type": "plans", "plans": plans}
                print(json.dumps(reply), flush=True)
            elif m["type"] == "end":
                print('{"type":"ended"}', flush=True)
            elif m["type"] == "bye":
                break
        """
        try script.write(toFile: dir.path("bad.py"), atomically: true, encoding: .utf8)
        return try write(spec: #"{"name": "external", "label": "bad", "params": {"command": \#(json(["python3", dir.path("bad.py"), dir.path("pids"), fault, hello]))}}"#,
                         users: 1)
    }

    func testWrongPlansRepliesNameTheMessageAndTheField() throws {
        try skipWithoutPython()
        let expected = [
            "type": #"answered with "type" "decision" instead of "plans""#,
            "count": #"plan(s) in "plans" for the"#,
            "id": #"answered with "plans"[0].id "#,
            "runFrom": #"answered with no "plans"[0].runFrom, expected whole microseconds or null"#,
            "wakeAt": #"answered with "plans"[0].wakeAt "soon", expected whole microseconds or null"#,
            // Standing rules beside correct plans (ExternalRulesTests).
            "rules:5": #"answered with "rules" 5, expected an array of rules"#,
            "rules:[7]": #"answered with "rules"[0] 7, expected an object"#,
            #"rules:[{"runFrom":0},{"app":99,"runFrom":0}]"#: #"answered with "rules"[1].app 99, expected an app number in 0..."#,
            #"rules:[{"kind":"refreshes","runFrom":0}]"#: #"answered with "rules"[0].kind "refreshes", expected one of "refresh", "processing", "fetch""#,
            #"rules:[{"wakeAt":0}]"#: #"answered with no "rules"[0].runFrom, expected whole microseconds or null"#,
            #"rules:[{"runFrom":0,"wakeAt":"soon"}]"#: #"answered with "rules"[0].wakeAt "soon", expected whole microseconds or null"#,
        ]
        for (fault, words) in expected.sorted(by: { $0.key < $1.key }) {
            let m = try failure(try planMisbehaving(fault))
            for part in [words, "in reply to the \"plan\" message at simulated time d0+", "for user 0 (replication 0, configuration \"bad\")"] {
                XCTAssertTrue(m.contains(part), "\(fault): missing \(part) in: \(m)")
            }
            try? FileManager.default.removeItem(atPath: dir.path("pids"))
        }
    }

    func testWrongPlanModeDeclarationsAreRefusedAtTheHandshake() throws {
        try skipWithoutPython()
        let cases = [
            (#"{"type":"hello","protocol":1,"mode":"batch"}"#, #"asked for "mode" "batch" in its hello; this bgbench knows "decide" and "plans""#),
            (#"{"type":"hello","protocol":1,"mode":"plans","observes":["taskFinished","launches"]}"#,
             #"gave "observes"[1] "launches" in its hello; expected one of "launch""#),
            (#"{"type":"hello","protocol":1,"mode":"plans","planScope":"user"}"#, #"gave "planScope" "user" in its hello; this bgbench knows "all" and "app""#),
            (#"{"type":"hello","protocol":1,"observes":[]}"#, #"gave "observes" in its hello without "mode":"plans""#),
            // Standing rules (ExternalRulesTests): a rule in the hello names no app.
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
            let spec = try planMisbehaving("", hello: hello)
            XCTAssertThrowsError(try run(spec, out: "out")) { error in
                guard let e = error as? SpecError else { return XCTFail("\(type(of: error)): \(error)") }
                XCTAssertEqual(e.path, "$.policies[0].params.command")
                XCTAssertTrue(e.message.contains(words) && e.message.contains("\"hello\" message"), e.message)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
        }
    }

    // MARK: The line-length limit of replies

    /// A 3 MB reply line stops the run at the limit (not after the line, nor
    /// at the timeout), naming the command and the limit; `bgbench run`
    /// exits 65 with nothing written.
    func testAReplyLineBeyondTheLimitIsAnErrorNotAHang() throws {
        let spec = try misbehaving(#"head -c 3000000 /dev/zero | tr '\0' 'x'; sleep 60"#, timeout: "60s")
        let start = Date()
        let m = try failure(spec)
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("wrote a reply line longer than \(TextLimits.maxLineBytes) bytes, the most a line of any input may have"), m)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "the limit stops the read, not the 60 s timeout")

        let cli = try CLI.run(["run", spec, "--out", dir.path("cli"), "--threads", "1"])
        let text = cli.stderr
        XCTAssertEqual(cli.status, 65, text)
        XCTAssertTrue(text.contains("Error: external policy \"/bin/sh\"") && text.contains("longer than 1048576 bytes"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("cli")))
    }
}
