import Traces
import Device
import Foundation
import Policies
import SimCore
import TestSupport
import XCTest
@testable import Experiments

/// A researcher's policy, registered the way Examples/CustomPolicy does it:
/// run every eligible request, but only every `period` (a parameter).
struct EveryPeriodPolicy: SchedulingPolicy {
    var period: SimDuration

    static let registration = PolicyDescriptor(
        name: "every-period", summary: "test policy: runs what is eligible at multiples of period",
        parameters: [PolicyParameter("period", .duration, default: .string("1h"), "time between runs")]) { p, _ in
        EveryPeriodPolicy(period: p.duration("period"))
    }

    func decide(context: PolicyContext) -> PolicyDecision {
        let step = period.microseconds
        let now = context.now.microseconds
        let next = SimTime(microseconds: (now / step + 1) * step)
        return PolicyDecision(runAllEligible: now % step == 0, wakeAt: next)
    }
}

/// Every command with a registry that extends the standard one: the spec
/// names the new policy, grids over its parameter and wraps it.
final class ExtendedRegistryTests: XCTestCase {
    static let tool = ExperimentTool(executable: "./my-bgbench",
                                     registry: PolicyRegistry.standard.adding(EveryPeriodPolicy.registration))
    static let spec = """
    {
      "name": "extended", "seed": 3, "population": { "users": 3, "days": 2 },
      "policies": [
        { "name": "never" },
        { "name": "every-period", "params": { "period": ["30m", "2h"] } },
        { "name": "exponential-backoff", "base": { "name": "coalescing", "base": { "name": "every-period" } } }
      ],
      "baseline": "never"
    }
    """

    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        try Self.spec.write(toFile: dir.path("spec.json"), atomically: true, encoding: .utf8)
    }

    override func tearDown() { dir.remove() }

    func testAddingKeepsTheStandardPoliciesAndChangesTheFingerprint() {
        let r = Self.tool.registry
        XCTAssertEqual(r.names, PolicyRegistry.standard.names + ["every-period"])
        XCTAssertEqual(r.names(notIn: .standard), ["every-period"])
        XCTAssertNotEqual(r.fingerprint, PolicyRegistry.standard.fingerprint)
        XCTAssertEqual(r.fingerprint, PolicyRegistry.standard.adding(EveryPeriodPolicy.registration).fingerprint)
        XCTAssertEqual(r.fingerprint.count, 16)
    }

    func testValidateAcceptsTheNewPolicyOnlyWithTheExtendedRegistry() throws {
        let text = try ExperimentCommands.validate(specPath: dir.path("spec.json"), threads: 1, registry: Self.tool.registry)
        XCTAssertTrue(text.contains("4 configurations"), text)
        XCTAssertTrue(text.contains("every-period period=30m; every-period period=2h"), text)
        XCTAssertThrowsError(try ExperimentCommands.validate(specPath: dir.path("spec.json"), threads: 1, registry: .standard)) { e in
            XCTAssertTrue("\(e)".contains("$.policies[1].name") && "\(e)".contains("unknown policy \"every-period\""), "\(e)")
        }
    }

    func testPoliciesListsTheNewPolicyWithItsParameter() {
        let text = ExperimentCommands.policyListing(registry: Self.tool.registry)
        XCTAssertTrue(text.contains("every-period — test policy"), text)
        XCTAssertTrue(text.contains("period") && text.contains("default \"1h\""), text)
        XCTAssertFalse(ExperimentCommands.policyListing(registry: .standard).contains("every-period"))
    }

    func testRunGridsAndWrapsItAndTheResultsNameTheTool() throws {
        let result = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("out"), threads: 2),
                                                tool: Self.tool)
        guard case .completed(_, let runs, _) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(runs, 4 * 3)
        let runsCSV = try String(contentsOfFile: dir.path("out/runs.csv"), encoding: .utf8)
        for label in ["every-period period=30m", "every-period period=2h",
                      "exponential-backoff(coalescing(every-period))"] {
            XCTAssertTrue(runsCSV.contains(label), label)
        }
        // The grid value reaches the policy: the two periods do not run the same tasks.
        let results = try ResultFiles.readRuns(path: dir.path("out/runs.csv"), knownMetrics: Runner.metrics)
        let tasks = results.metricIndex("tasks_run")!
        let byConfig = (0..<results.rowCount).reduce(into: [Int: Double]()) { $0[results.keys[$1].configuration, default: 0] += results.row($1)[results.row($1).startIndex + tasks] }
        XCTAssertNotEqual(byConfig[1], byConfig[2])

        let manifest = try JSONParser.parse(String(contentsOfFile: dir.path("out/manifest.json"), encoding: .utf8))
        XCTAssertEqual(manifest["executable"], .string("./my-bgbench"))
        XCTAssertEqual(manifest["registry"]?["fingerprint"], .string(Self.tool.registry.fingerprint))
        XCTAssertEqual(manifest["registry"]?["policies"]?.serialized().contains("\"every-period\""), true)
        let report = try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8)
        XCTAssertTrue(report.contains("Reproduce: `./my-bgbench run \(dir.path("spec.json"))`"), report)
        XCTAssertTrue(report.contains(Self.tool.registry.fingerprint))
    }

    func testShardsMergeAndReportWithTheExtendedRegistry() throws {
        for i in 0..<2 {
            _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("s\(i)"), threads: 1,
                                                 shard: Shard(index: i, count: 2)), tool: Self.tool)
        }
        _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("whole"), threads: 1),
                                       tool: Self.tool)
        // Merged by another executable with the same registry: the result still names the one that ran the shards.
        let merger = ExperimentTool(executable: "other-name", registry: Self.tool.registry)
        _ = try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")], out: dir.path("m"), tool: merger)
        for f in ["runs.csv", "summary.csv", "report.md"] {
            XCTAssertEqual(try String(contentsOfFile: dir.path("m/\(f)"), encoding: .utf8),
                           try String(contentsOfFile: dir.path("whole/\(f)"), encoding: .utf8), f)
        }
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")],
                                                          out: dir.path("m2"), tool: .standard)) { e in
            XCTAssertTrue("\(e)".contains("unknown policy \"every-period\""), "\(e)")
        }

        // Report re-rendering: same bytes; the standard tool says which executable made the run.
        let before = try String(contentsOfFile: dir.path("whole/report.md"), encoding: .utf8)
        try ExperimentCommands.report(directory: dir.path("whole"), tool: Self.tool)
        XCTAssertEqual(try String(contentsOfFile: dir.path("whole/report.md"), encoding: .utf8), before)
        XCTAssertThrowsError(try ExperimentCommands.report(directory: dir.path("whole"), tool: .standard)) { e in
            XCTAssertTrue("\(e)".contains("re-render it with that executable") && "\(e)".contains("./my-bgbench"), "\(e)")
        }
    }

    func testShardsOfDifferentRegistriesDoNotMerge() throws {
        let other = ExperimentTool(executable: "./other", registry: Self.tool.registry.adding(
            PolicyDescriptor(name: "never-again", summary: "another") { _, _ in NeverPolicy() }))
        _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("s0"), threads: 1,
                                             shard: Shard(index: 0, count: 2)), tool: Self.tool)
        _ = try ExperimentCommands.run(.init(specPath: dir.path("spec.json"), out: dir.path("s1"), threads: 1,
                                             shard: Shard(index: 1, count: 2)), tool: other)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")],
                                                          out: dir.path("m"), tool: other)) { e in
            XCTAssertTrue("\(e)".contains("same executable"), "\(e)")
        }
    }
}
