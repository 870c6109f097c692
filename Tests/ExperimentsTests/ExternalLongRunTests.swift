import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import Experiments

/// External runs of any length: nothing the `external` policy keeps may grow
/// with the number of decisions in a way whose use or release recurses per
/// decision. The run goes on a thread with a deliberately small stack
/// (256 KiB), where a chain one frame deeper per decision overflows after
/// about two thousand decisions; this run makes more than four thousand. (The stop
/// condition of the decision host once grew two reabstraction thunks per
/// read: a 30-user week crashed with ~313,000 frames on the main thread's
/// 8 MiB; here such a chain crashes within the first simulated user.)
final class ExternalLongRunTests: XCTestCase {
    func testFourThousandDecisionsOnASmallStack() throws {
        try XCTSkipUnless(ExternalPolicyTests.hasPython, "python3 is not on PATH")
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // A cheap greedy that counts its `decide` messages and writes the
        // count when bgbench says `bye`.
        let script = """
        import json, sys
        decisions = 0
        for line in sys.stdin:
            m = json.loads(line)
            t = m["type"]
            if t == "hello": sys.stdout.write('{"type":"hello","protocol":1}\\n')
            elif t == "decide":
                decisions += 1
                later = [r["earliestBegin"] for r in m["pending"] if r["earliestBegin"] > m["now"]]
                sys.stdout.write('{"type":"decision","runAllEligible":true,"wakeAt":%s}\\n' % (min(later) if later else "null"))
            elif t == "end": sys.stdout.write('{"type":"ended"}\\n')
            elif t == "bye": break
            sys.stdout.flush()
        with open(sys.argv[1], "w") as f: f.write(str(decisions))
        """
        try script.write(toFile: dir.path("count.py"), atomically: true, encoding: .utf8)
        let command = String(decoding: try JSONEncoder().encode(["python3", dir.path("count.py"), dir.path("count.txt")]), as: UTF8.self)
        try """
        {"name": "long", "seed": 9, "population": {"users": 1, "days": 3},
         "policies": [{"name": "external", "label": "count", "params": {"command": \(command)}}, {"name": "greedy"}]}
        """.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)

        let outcome = Mutex<Result<ExperimentCommands.RunResult, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let spec = dir.path("spec.json"), out = dir.path("out")
        let thread = Thread {
            let r = Result { try ExperimentCommands.run(.init(specPath: spec, out: out, threads: 1), tool: .standard) }
            outcome.withLock { $0 = r }
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        guard case .completed = try XCTUnwrap(outcome.withLock { $0 }).get() else { return XCTFail("the run did not complete") }
        let decisions = try XCTUnwrap(Int(String(contentsOfFile: dir.path("count.txt"), encoding: .utf8)))
        XCTAssertGreaterThanOrEqual(decisions, 4_000, "the run must be long enough to overflow 256 KiB if a chain grew per decision")
        // And it decided as greedy does: the same rows.
        let lines = try String(contentsOfFile: dir.path("out/runs.csv"), encoding: .utf8).split(separator: "\n")
        let count = lines.filter { $0.hasPrefix("count,") }.map { $0.dropFirst("count".count) }
        let greedy = lines.filter { $0.hasPrefix("greedy,") }.map { $0.dropFirst("greedy".count) }
        XCTAssertEqual(count.count, 1)
        XCTAssertEqual(count, greedy)
    }
}
