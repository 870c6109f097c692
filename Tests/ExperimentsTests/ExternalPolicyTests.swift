import Foundation
import Device
import Policies
import Synchronization
import TestSupport
import XCTest
@testable import Experiments

/// The `external` policy end to end: a Python greedy matches the built-in
/// one byte for byte, results do not depend on the thread count, and every
/// way a decision process can misbehave stops the run with an error that
/// names the policy, the message, the simulated user and time — with
/// nothing written and no process left behind.
final class ExternalPolicyTests: XCTestCase {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/python")

    var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    static var hasPython: Bool { pythonIsOnPath }

    func skipWithoutPython() throws {
        try XCTSkipUnless(Self.hasPython, "python3 is not on PATH: the Python decision processes cannot run")
    }

    func json(_ strings: [String]) -> String {
        String(decoding: try! JSONEncoder().encode(strings), as: UTF8.self)
    }

    func write(spec policies: String, users: Int = 3, days: Int = 2) throws -> String {
        let text = """
        {"name": "ext", "seed": 9, "population": {"users": \(users), "days": \(days)}, "policies": [\(policies)]}
        """
        try text.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
        return dir.path("spec.json")
    }

    func run(_ spec: String, out: String, threads: Int = 1,
             stop: @escaping @Sendable () -> Bool = { false }) throws -> ExperimentCommands.RunResult {
        try ExperimentCommands.run(.init(specPath: spec, out: dir.path(out), threads: threads, shouldStop: stop),
                                   tool: .standard)
    }

    /// Rows of `runs.csv` for one configuration, without the label column.
    func rows(_ out: String, _ label: String) throws -> [Substring] {
        try String(contentsOfFile: dir.path(out) + "/runs.csv", encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(label + ",") }.map { $0.dropFirst(label.count) }
    }

    /// Also under the wrappers: coalescing asks the base ahead through
    /// `decide` (look-ahead messages) where it reads the built-in greedy's plans.
    func testPythonGreedyMatchesBuiltInGreedyByteForByte() throws {
        try skipWithoutPython()
        let py = #"{"name": "external", "params": {"command": \#(json(["python3", Self.python.appendingPathComponent("greedy.py").path]))}}"#
        let spec = try write(spec: #"""
            {"name": "greedy"}, \#(py.dropLast()), "label": "py"},
            {"name": "coalescing", "base": {"name": "greedy"}}, {"name": "coalescing", "label": "py-coalescing", "base": \#(py)},
            {"name": "exponential-backoff", "base": {"name": "greedy"}}, {"name": "exponential-backoff", "label": "py-backoff", "base": \#(py)}
            """#, users: 2, days: 1)
        guard case .completed = try run(spec, out: "o", threads: 2) else { return XCTFail() }
        for (builtIn, external) in [("greedy", "py"), ("coalescing(greedy)", "py-coalescing"), ("exponential-backoff(greedy)", "py-backoff")] {
            let a = try rows("o", builtIn), b = try rows("o", external)
            XCTAssertEqual(a.count, 2, builtIn)
            XCTAssertEqual(a, b, "\(builtIn) vs \(external)")
        }
    }

    func testSameBytesForAnyThreadCountAndParametersPassThrough() throws {
        try skipWithoutPython()
        let recent = Self.python.appendingPathComponent("recently_used.py").path
        let spec = try write(spec: #"{"name": "external", "label": "recent", "params": {"command": \#(json(["python3", recent])), "windowHours": [2, 48]}}"#,
                             users: 2, days: 1)
        _ = try run(spec, out: "one", threads: 1)
        _ = try run(spec, out: "two", threads: 2)
        XCTAssertEqual(try String(contentsOfFile: dir.path("one/runs.csv"), encoding: .utf8),
                       try String(contentsOfFile: dir.path("two/runs.csv"), encoding: .utf8))
        // The grid over a passed-through parameter reaches the process: the windows differ in what runs.
        XCTAssertNotEqual(try rows("one", "recent windowHours=2"), try rows("one", "recent windowHours=48"))
    }

    /// `taskFinished` reports carry the bytes and network of TaskReport: a
    /// Python greedy that sums them per network gets runs.csv's byte
    /// columns (which also count a task censored at the horizon, which is
    /// never reported); `cellular_budget.py` reads them and moves fewer
    /// cellular bytes than greedy.
    func testTaskFinishedBytesReachTheProcess() throws {
        try skipWithoutPython()
        let script = """
        import sys
        sys.path.insert(0, '\(Self.python.path)')
        from bgbench_policy import Decision, Policy, serve
        class Summing(Policy):
            def __init__(self, start):
                super().__init__(start)
                self.bytes = {"wifi": 0.0, "cellular": 0.0, "offline": 0.0}
            def observe(self, o):
                if o["kind"] == "taskFinished":
                    r = o["report"]
                    assert r["bytesUp"] >= 0 and r["bytesDown"] >= 0, r
                    self.bytes[r["network"]] += r["bytesUp"] + r["bytesDown"]
            def decide(self, ctx):
                return Decision(run_all_eligible=True, wake_at=ctx.next_earliest_begin())
            def finish(self):
                assert self.bytes["offline"] == 0, self.bytes
                with open(self.params["out"], "a") as f:
                    f.write("%d %r %r\\n" % (self.device["user"], self.bytes["wifi"], self.bytes["cellular"]))
        serve(Summing)
        """
        try script.write(toFile: dir.path("summing.py"), atomically: true, encoding: .utf8)
        let budget = Self.python.appendingPathComponent("cellular_budget.py").path
        let spec = try write(spec: #"""
            {"name": "external", "label": "sum", "params": {"command": \#(json(["python3", dir.path("summing.py")])), "out": \#(json([dir.path("bytes.txt")]).dropFirst().dropLast())}},
            {"name": "external", "label": "budget", "params": {"command": \#(json(["python3", budget])), "cellularBytesPerDay": 0}},
            {"name": "greedy"}
            """#, users: 3, days: 1)
        guard case .completed = try run(spec, out: "o") else { return XCTFail() }
        let runs = try ResultFiles.readRuns(path: dir.path("o/runs.csv"), configurations: ["sum", "budget", "greedy"],
                                            knownMetrics: Runner.metrics)
        func column(_ name: String) -> Int { runs.metrics.firstIndex { $0.name == name }! }
        func value(_ configuration: Int, user: Int, _ name: String) -> Double {
            let r = (0..<runs.rowCount).first { runs.keys[$0].configuration == configuration && runs.keys[$0].user == user }!
            return Array(runs.row(r))[column(name)]
        }
        let lines = try String(contentsOfFile: dir.path("bytes.txt"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        var cellular = 0.0
        for line in lines {
            let f = line.split(separator: " ")
            let user = Int(f[0])!, wifi = Double(f[1])!, cell = Double(f[2])!
            cellular += cell
            let expectedWifi = value(0, user: user, "bg_bytes_wifi"), expectedCell = value(0, user: user, "bg_bytes_cellular")
            if value(0, user: user, "tasks_censored") == 0 {
                XCTAssertEqual(wifi, expectedWifi, accuracy: 1e-6 * max(1, expectedWifi))
                XCTAssertEqual(cell, expectedCell, accuracy: 1e-6 * max(1, expectedCell))
            } else {
                XCTAssertLessThanOrEqual(wifi + cell, expectedWifi + expectedCell + 1e-6)
            }
            // The summing policy is greedy: the same runs as the built-in one.
            XCTAssertEqual(value(0, user: user, "tasks_run"), value(2, user: user, "tasks_run"))
        }
        XCTAssertGreaterThan(cellular, 0, "the test world must have cellular background transfers")
        let budgetCellular = (0..<3).map { value(1, user: $0, "bg_bytes_cellular") }.reduce(0, +)
        XCTAssertLessThan(budgetCellular, cellular)
    }

    // MARK: Failures (shell scripts: no Python needed)

    /// A decision process that handshakes, records its pid, then does `after`
    /// on the first `decide`.
    func misbehaving(_ after: String, timeout: String = "5s") throws -> String {
        let script = """
        echo $$ >> \(dir.path("pids")); read line; echo '{"type":"hello","protocol":1}'

        read start; read decide
        \(after)
        """
        return try write(spec: #"{"name": "external", "label": "bad", "params": {"command": \#(json(["/bin/sh", "-c", script])), "timeout": "\#(timeout)"}}"#,
                         users: 1)
    }

    /// Runs the spec, expects an ExternalPolicyError, and checks that nothing
    /// was written and every process it started is gone.
    func failure(_ spec: String) throws -> String {
        var message = ""
        XCTAssertThrowsError(try run(spec, out: "out")) { error in
            XCTAssertTrue(error is ExternalPolicyError, "\(type(of: error)): \(error)")
            message = "\(error)"
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")), "nothing is written")
        let pids = try String(contentsOfFile: dir.path("pids"), encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertFalse(pids.isEmpty)
        for pid in pids { XCTAssertEqual(kill(pid, 0), -1, "process \(pid) is still running") }
        return message
    }

    func assertNamesPolicyMessageUserAndTime(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        for part in ["external policy \"/bin/sh\" \"-c\"", "in reply to the \"decide\" message", "at simulated time d0+",
                     "for user 0 (replication 0, configuration \"bad\")"] {
            XCTAssertTrue(message.contains(part), "missing \(part) in: \(message)", file: file, line: line)
        }
    }

    func testCrashStopsTheRunWithItsExitStatus() throws {
        let m = try failure(try misbehaving("exit 3"))
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("exited with status 3"), m)
    }

    func testHangIsStoppedAfterTheTimeoutAndKilled() throws {
        let start = Date()
        let m = try failure(try misbehaving("exec sleep 60", timeout: "1s"))
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("did not answer within the timeout of 1.0 seconds"), m)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testInvalidJSONIsAnError() throws {
        let m = try failure(try misbehaving("echo 'run everything please'; sleep 60"))
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("wrote a line that is not JSON: 'run everything please'"), m)
    }

    func testUnknownRequestIsAnError() throws {
        let m = try failure(try misbehaving(#"echo '{"type":"decision","run":[4000000]}'; sleep 60"#))
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("asked to run request 4000000, which is not pending"), m)
    }

    func testAnErrorReplyIsReportedWithItsMessage() throws {
        let m = try failure(try misbehaving(#"echo '{"type":"error","message":"KeyError: threshold"}'; sleep 60"#))
        assertNamesPolicyMessageUserAndTime(m)
        XCTAssertTrue(m.contains("reported an error: KeyError: threshold"), m)
    }

    func testWrongProtocolVersionFailsTheHandshake() throws {
        let script = #"echo $$ >> \#(dir.path("pids")); read line; echo '{"type":"hello","protocol":99}'; sleep 60"#
        let spec = try write(spec: #"{"name": "external", "params": {"command": \#(json(["/bin/sh", "-c", script]))}}"#, users: 1)
        // Refused before the run (validate and run start each decision
        // process once), at the command's JSON path; nothing left behind.
        XCTAssertThrowsError(try run(spec, out: "out")) { error in
            guard let e = error as? SpecError else { return XCTFail("\(type(of: error)): \(error)") }
            XCTAssertEqual(e.path, "$.policies[0].params.command")
            XCTAssertTrue(e.message.contains("speaks protocol version 99; this bgbench speaks 1") && e.message.contains("\"hello\" message"), e.message)
        }
        XCTAssertThrowsError(try ExperimentCommands.validate(specPath: spec, threads: 1, registry: .standard)) { error in
            XCTAssertEqual((error as? SpecError)?.path, "$.policies[0].params.command", "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")), "nothing is written")
        let pids = try String(contentsOfFile: dir.path("pids"), encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertEqual(pids.count, 2, "one process per check")
        for pid in pids { XCTAssertEqual(kill(pid, 0), -1, "process \(pid) is still running") }
    }

    func testUnstartableCommandIsAnError() throws {
        let spec = try write(spec: #"{"name": "external", "params": {"command": ["/nonexistent/decider"]}}"#, users: 1)
        XCTAssertThrowsError(try run(spec, out: "out")) { error in
            XCTAssertTrue("\(error)".contains("could not be run") && "\(error)".contains("/nonexistent/decider"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
    }

    func testInterruptionStopsAWaitAtOnceAndKillsTheProcess() throws {
        let spec = try misbehaving("exec sleep 60", timeout: "60s")
        let stopAt = Date().addingTimeInterval(1)
        let start = Date()
        let result = try run(spec, out: "out", stop: { Date() >= stopAt })
        XCTAssertEqual(result, .interrupted)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "an interrupted run does not wait for the 60 s timeout")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
        let pids = try String(contentsOfFile: dir.path("pids"), encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        for pid in pids { XCTAssertEqual(kill(pid, 0), -1, "process \(pid) is still running") }
    }

    func testSpecErrors() throws {
        for (params, fragment) in [
            (#"{}"#, #"external needs the parameter "command""#),
            (#"{"command": "python3 p.py"}"#, "expected a non-empty array of strings"),
            (#"{"command": []}"#, "an empty list gives no configurations"),
            (#"{"command": ["python3", 4]}"#, "$.policies[0].params.command[1]: expected a string"),
        ] {
            let spec = try write(spec: #"{"name": "external", "params": \#(params)}"#)
            XCTAssertThrowsError(try ExperimentCommands.validate(specPath: spec, threads: 1, registry: .standard)) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(params): \(error)")
            }
        }
        // A list of argvs is a grid axis; one argv is one value.
        let two = try write(spec: #"{"name": "external", "params": {"command": [["a"], ["b", "c"]]}}"#)
        XCTAssertEqual(try ExperimentSpec.load(path: two, registry: .standard).configurations.map(\.label),
                       [#"external command=["a"]"#, #"external command=["b","c"]"#])
        let one = try write(spec: #"{"name": "external", "params": {"command": ["b", "c"]}}"#)
        XCTAssertEqual(try ExperimentSpec.load(path: one, registry: .standard).configurations.map(\.label), ["external"])
    }

    // MARK: Through the bgbench executable

    func testCLIExits65OnAFailedPolicyAndListsExternal() throws {
        let spec = try misbehaving("exit 3")
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["run", spec, "--out", dir.path("cli"), "--threads", "1"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 65, text)
        XCTAssertTrue(text.hasPrefix("Error: external policy") && text.contains("exited with status 3"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("cli")))

        let list = Process()
        list.executableURL = CLITests.binary
        list.arguments = ["policies"]
        let out = Pipe()
        list.standardOutput = out
        try list.run()
        let listing = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        list.waitUntilExit()
        XCTAssertTrue(listing.contains("external — decisions from a process of your own"), listing)
        XCTAssertTrue(listing.contains("command") && listing.contains("required"), listing)
    }

    /// SIGINT to bgbench while the decision process hangs: exit 130 at once,
    /// nothing written, the process killed (it is in its own process group,
    /// so it did not get the signal itself).
    func testCLIInterruptedKillsTheDecisionProcess() throws {
        let spec = try misbehaving("exec sleep 60", timeout: "60s")
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = ["run", spec, "--out", dir.path("cli"), "--threads", "1"]
        p.standardError = Pipe()
        p.standardOutput = Pipe()
        try p.run()
        // Wait for the decision process to be up.
        let deadline = Date().addingTimeInterval(10)
        while (try? String(contentsOfFile: dir.path("pids"), encoding: .utf8)) == nil && Date() < deadline { usleep(20_000) }
        usleep(200_000)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("cli")))
        let pids = try String(contentsOfFile: dir.path("pids"), encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertFalse(pids.isEmpty)
        for pid in pids { XCTAssertEqual(kill(pid, 0), -1, "process \(pid) is still running") }
    }
}

extension ExternalPolicyTests {
    /// The conformance helper works on an external policy too (outside a
    /// run: no runner, so the processes end with the policy value).
    func testPythonGreedyPassesTheConformanceCheck() throws {
        try skipWithoutPython()
        let config = PolicyConfiguration(name: "external", params: [
            "command": .array([.string("python3"), .string(Self.python.appendingPathComponent("greedy.py").path)])])
        let made = try PolicyRegistry.standard.makeOwningResources(config)
        defer { for r in made.resources { r.shutDown() } }
        func check<P: SchedulingPolicy>(_ p: P) -> [PolicyConformance.Violation] { PolicyConformance.check(p) }
        XCTAssertEqual(check(made.policy), [])
        XCTAssertNil(made.resources.first?.failure)
    }
}
