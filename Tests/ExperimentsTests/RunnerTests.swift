import Foundation
import Stats
import Synchronization
import TestSupport
import XCTest
@testable import Experiments
import Traces

/// End-to-end properties of `bgbench run` / `merge` on a tiny spec.
final class RunnerTests: XCTestCase {
    static let spec = """
    {
      "name": "tiny",
      "seed": 11,
      "replications": 2,
      "population": { "users": 5, "days": 2 },
      "policies": [
        { "name": "never" },
        { "name": "fixed-interval", "params": { "interval": ["30m", "2h"] } },
        { "name": "coalescing", "base": { "name": "greedy" } }
      ],
      "baseline": "never"
    }
    """

    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        try Self.spec.write(toFile: dir.path("tiny.json"), atomically: true, encoding: .utf8)
    }

    override func tearDown() { dir.remove() }

    func run(out: String, threads: Int, shard: Shard? = nil, events: Bool = false) throws -> ExperimentCommands.RunResult {
        try ExperimentCommands.run(.init(specPath: dir.path("tiny.json"), out: dir.path(out), threads: threads,
                                         shard: shard, events: events), tool: .standard)
    }

    func read(_ out: String, _ file: String) throws -> String {
        try String(contentsOfFile: dir.path(out) + "/" + file, encoding: .utf8)
    }

    static let deterministicFiles = ["runs.csv", "summary.csv", "comparison.csv", "report.md", "freshness_vs_energy.svg",
                                     "events.csv", "wakes_by_hour.csv", "wakes_by_hour.svg", "efficiency.csv"]

    func testOutputIsIdenticalForAnyThreadCount() throws {
        _ = try run(out: "t1", threads: 1, events: true)
        _ = try run(out: "t3", threads: 3, events: true)
        for f in Self.deterministicFiles {
            XCTAssertEqual(try read("t1", f), try read("t3", f), f)
        }
        let runs = try read("t1", "runs.csv").split(separator: "\n")
        XCTAssertEqual(runs.count, 1 + 4 * 2 * 5)  // header + configurations × replications × users
        XCTAssertTrue(runs[1].hasPrefix("never,0,0,"))
    }

    /// The manifest records the run's cost: simulated events are a property
    /// of the spec (equal at any thread count, and what the runner counted),
    /// CPU time and peak memory are measured (positive) and vary; a merge
    /// simulates nothing and records zeros.
    func testManifestRecordsTheRunsCost() throws {
        func manifest(_ out: String) throws -> JSONValue { try JSONParser.parse(try read(out, "manifest.json")) }
        func number(_ m: JSONValue, _ key: String) throws -> Double {
            guard case let .number(x)? = m[key] else { XCTFail("no \(key) in the manifest"); return .nan }
            return x
        }
        guard case let .completed(_, _, cost) = try run(out: "t1", threads: 1) else { return XCTFail("not completed") }
        _ = try run(out: "t2", threads: 2)
        let one = try manifest("t1"), two = try manifest("t2")
        let runner = try Runner(spec: try ExperimentSpec.load(path: dir.path("tiny.json"), registry: .standard))
        let events = try XCTUnwrap(try runner.run(threads: 1)).simulatedEvents
        XCTAssertGreaterThan(events, 0)
        XCTAssertEqual(try number(one, "simulated_events"), Double(events))
        XCTAssertEqual(try number(two, "simulated_events"), Double(events))
        XCTAssertEqual(cost.simulatedEvents, events)
        for m in [one, two] {
            XCTAssertGreaterThan(try number(m, "cpu_seconds"), 0)
            XCTAssertGreaterThan(try number(m, "peak_rss_bytes"), 1_000_000)  // a process holds more than 1 MB
            XCTAssertGreaterThan(try number(m, "wall_seconds"), 0)
        }
        for i in 0..<2 { _ = try run(out: "s\(i)", threads: 1, shard: Shard(index: i, count: 2)) }
        _ = try ExperimentCommands.merge(shardDirectories: ["s0", "s1"].map(dir.path), out: dir.path("merged"), tool: .standard)
        let merged = try manifest("merged")
        for key in ["wall_seconds", "cpu_seconds", "simulated_events", "peak_rss_bytes"] {
            XCTAssertEqual(try number(merged, key), 0, key)
        }
    }

    func testShardsMergeIntoExactlyTheUnshardedBytes() throws {
        _ = try run(out: "whole", threads: 2, events: true)
        for i in 0..<3 { _ = try run(out: "s\(i)", threads: 1, shard: Shard(index: i, count: 3), events: true) }
        _ = try ExperimentCommands.merge(shardDirectories: (0..<3).map { dir.path("s\($0)") }, out: dir.path("merged"), tool: .standard)
        for f in Self.deterministicFiles {
            XCTAssertEqual(try read("whole", f), try read("merged", f), f)
        }
    }

    func testCompleteShardIsSkippedAndIncompleteSetRefused() throws {
        XCTAssertEqual(try run(out: "s0", threads: 1, shard: Shard(index: 0, count: 2)).withoutTime,
                       .completed(directory: dir.path("s0"), runs: 20, cost: .none))
        let marker = dir.path("s0") + "/shard.json"
        let before = try FileManager.default.attributesOfItem(atPath: marker)[.modificationDate] as! Date
        XCTAssertEqual(try run(out: "s0", threads: 1, shard: Shard(index: 0, count: 2)), .skipped(directory: dir.path("s0")))
        let after = try FileManager.default.attributesOfItem(atPath: marker)[.modificationDate] as! Date
        XCTAssertEqual(before, after)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0")], out: dir.path("m"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("shards 1/2 missing"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("m")))
    }

    func testMergeRefusesShardsOfAnotherSeed() throws {
        _ = try run(out: "s0", threads: 1, shard: Shard(index: 0, count: 2))
        try Self.spec.replacingOccurrences(of: "\"seed\": 11", with: "\"seed\": 12")
            .write(toFile: dir.path("tiny.json"), atomically: true, encoding: .utf8)
        _ = try run(out: "s1", threads: 1, shard: Shard(index: 1, count: 2))
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")], out: dir.path("m"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("seed 12 vs 11"), "\(error)")
        }
    }

    /// summary.csv recomputed independently from runs.csv: mean and sd by
    /// direct formulas, not through the Stats module.
    func testSummaryAgreesWithRunsRecomputedByHand() throws {
        _ = try run(out: "w", threads: 2)
        let runs = try read("w", "runs.csv").split(separator: "\n").map { CSV.split($0)! }
        let header = runs[0]
        let col = header.firstIndex(of: "energy_total_j")!
        let values = runs.dropFirst().filter { $0[0] == "fixed-interval interval=30m" }.map { Double($0[col])! }
        XCTAssertEqual(values.count, 10)
        let mean = values.reduce(0, +) / Double(values.count)
        let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
        let summary = try read("w", "summary.csv").split(separator: "\n").map { CSV.split($0)! }
        let row = summary.first { $0[0] == "fixed-interval interval=30m" && $0[1] == "energy_total_j" }!
        let h = ResultFiles.summaryColumns
        XCTAssertEqual(Double(row[h.firstIndex(of: "mean")!])!, mean, accuracy: 1e-9 * max(1, mean))
        XCTAssertEqual(Double(row[h.firstIndex(of: "sd")!])!, sd, accuracy: 1e-9 * max(1, sd))
        XCTAssertEqual(row[h.firstIndex(of: "n")!], "10")
        XCTAssertGreaterThan(mean, 0)
    }

    /// efficiency.csv's point estimate recomputed by hand from runs.csv.
    func testEfficiencyIsRatioOfPairedSums() throws {
        _ = try run(out: "w", threads: 2)
        let runs = try read("w", "runs.csv").split(separator: "\n").map { CSV.split($0)! }
        let e = runs[0].firstIndex(of: "energy_total_j")!, f = runs[0].firstIndex(of: "fresh_launches")!
        func sums(_ label: String) -> (Double, Double) {
            runs.dropFirst().filter { $0[0] == label }.reduce((0, 0)) { ($0.0 + Double($1[e])!, $0.1 + Double($1[f])!) }
        }
        let (e1, f1) = sums("fixed-interval interval=30m"), (e0, f0) = sums("never")
        let row = try read("w", "efficiency.csv").split(separator: "\n").map { CSV.split($0)! }
            .first { $0[0] == "fixed-interval interval=30m" }!
        XCTAssertEqual(Double(row[5])!, (e1 - e0) / (f1 - f0), accuracy: 1e-9 * abs((e1 - e0) / (f1 - f0)))
        XCTAssertLessThanOrEqual(Double(row[6])!, Double(row[5])!)
        XCTAssertGreaterThanOrEqual(Double(row[7])!, Double(row[5])!)
    }

    /// A stop request (Ctrl-C) ends the run with nothing written.
    func testInterruptedRunWritesNothing() throws {
        let finished = Mutex(0)
        let result = try ExperimentCommands.run(.init(
            specPath: dir.path("tiny.json"), out: dir.path("stopped"), threads: 2,
            progress: { done, _ in finished.withLock { $0 = done } },
            shouldStop: { finished.withLock { $0 } >= 3 }), tool: .standard)
        XCTAssertEqual(result, .interrupted)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("stopped")))
    }

    /// wakes_by_hour.csv totals add up to the `wakes` column of runs.csv.
    func testWakesByHourAddUpToRunsWakes() throws {
        _ = try run(out: "w", threads: 2)
        let runs = try read("w", "runs.csv").split(separator: "\n").map { CSV.split($0)! }
        let col = runs[0].firstIndex(of: "wakes")!
        var fromRuns: [String: Int] = [:]
        for r in runs.dropFirst() { fromRuns[r[0], default: 0] += Int(Double(r[col])!) }
        var fromHours: [String: Int] = [:]
        for r in try read("w", "wakes_by_hour.csv").split(separator: "\n").dropFirst().map({ CSV.split($0)! }) {
            fromHours[r[0], default: 0] += Int(r[2])!
        }
        XCTAssertEqual(fromRuns, fromHours)
        XCTAssertGreaterThan(fromRuns["coalescing(greedy)"] ?? 0, 0)
        XCTAssertEqual(fromRuns["never"], 0)
    }

    /// The report's precision section: each half-width is the paired
    /// interval's, the users to halve it come from its n and SD (over the
    /// replications), and the pairwise count is every pair whose interval
    /// excludes 0, recomputed here from runs.csv.
    func testReportStatesHalfWidthsAndUsersToHalveThem() throws {
        _ = try run(out: "p", threads: 1)
        let report = try read("p", "report.md")
        let section = try XCTUnwrap(report.components(separatedBy: "## Precision\n").dropFirst().first)
        let labels = ["never", "fixed-interval interval=30m", "fixed-interval interval=2h", "coalescing(greedy)"]
        let results = try ResultFiles.readRuns(path: dir.path("p") + "/runs.csv", configurations: labels,
                                               knownMetrics: Runner.metrics)
        let fresh = try XCTUnwrap(results.metricIndex("fresh_launch_ratio"))
        let energy = try XCTUnwrap(results.metricIndex("energy_total_j"))
        for c in 1..<labels.count {
            let f = Aggregation.pairedComparison(results, metric: fresh, configuration: c, against: 0)
            let e = Aggregation.pairedComparison(results, metric: energy, configuration: c, against: 0)
            XCTAssertEqual(f.n, 10)  // 5 users × 2 replications
            let pairs = try XCTUnwrap(SampleSize.pairsToHalve(n: f.n, sd: f.sdDifference))
            XCTAssertGreaterThan(pairs, 2 * f.n)  // about 4n (fewer: t shrinks with n)
            let row = "| `\(labels[c])` | \(String(format: "%.4f", (f.ciHigh - f.ciLow) / 2)) | \(String(format: "%.1f", (e.ciHigh - e.ciLow) / 2 / 2)) | \((pairs + 1) / 2) |"
            XCTAssertTrue(section.contains(row), "no row \(row) in\n\(section)")
        }
        var resolved = 0
        for a in labels.indices {
            for b in labels.indices where b > a {
                let c = Aggregation.pairedComparison(results, metric: fresh, configuration: a, against: b)
                if c.ciLow > 0 || c.ciHigh < 0 { resolved += 1 }
            }
        }
        XCTAssertTrue(section.contains("- fresh-launch ratio: \(resolved) of the 6 pairwise differences"), section)
    }

    func testReportRerendersIdentically() throws {
        _ = try run(out: "w", threads: 2)
        let original = try read("w", "report.md")
        try FileManager.default.removeItem(atPath: dir.path("w") + "/report.md")
        try FileManager.default.removeItem(atPath: dir.path("w") + "/summary.csv")
        try ExperimentCommands.report(directory: dir.path("w"), tool: .standard)
        XCTAssertEqual(try read("w", "report.md"), original)
        XCTAssertTrue(original.contains("Which policy gives the freshest launches"))
    }
}

extension ExperimentCommands.RunResult {
    /// Wall time zeroed, for comparisons.
    var withoutTime: ExperimentCommands.RunResult {
        if case let .completed(d, r, _) = self { return .completed(directory: d, runs: r, cost: .none) }
        return self
    }
}
