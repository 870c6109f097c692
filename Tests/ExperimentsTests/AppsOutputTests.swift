import Device
import Foundation
import TestSupport
import XCTest
@testable import Experiments

/// `bgbench run --apps`: apps.csv sums to runs.csv per run, is the same for
/// any thread count and sharding, and leaves the other files unchanged.
final class AppsOutputTests: XCTestCase {
    /// Every mechanism on, so every attribution path shows in the sums.
    static let spec = """
    {
      "name": "apps", "seed": 5, "replications": 1,
      "population": { "users": 3, "days": 1 },
      "policies": [ { "name": "never" }, { "name": "fixed-interval", "params": { "interval": "30m" } }, { "name": "greedy" } ],
      "baseline": "never",
      "device": { "defaultApp": {
        "silentPush": { "strategy": "at-most-one-per", "interval": "15m" },
        "beginBackgroundTask": { "probability": 0.3 },
        "backgroundTransfer": { "probability": 0.3, "bytesDown": 500000, "followUps": 1 },
        "continuedProcessing": { "probability": 0.05, "cancelPerHour": 1 } } }
    }
    """

    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        try Self.spec.write(toFile: dir.path("apps.json"), atomically: true, encoding: .utf8)
    }

    override func tearDown() { dir.remove() }

    func run(_ out: String, threads: Int, shard: Shard? = nil, events: Bool = false, apps: Bool = true) throws {
        var o = ExperimentCommands.RunOptions(specPath: dir.path("apps.json"), out: dir.path(out), threads: threads,
                                              shard: shard, events: events)
        o.apps = apps
        guard case .completed = try ExperimentCommands.run(o, tool: .standard) else { return XCTFail("not completed") }
    }

    func read(_ out: String, _ file: String) throws -> String {
        try String(contentsOfFile: dir.path(out) + "/" + file, encoding: .utf8)
    }

    /// Rows of a CSV file as dictionaries (no quoted fields in this spec's labels).
    func table(_ out: String, _ file: String) throws -> [[String: String]] {
        let lines = try read(out, file).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        return lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    func testAppsSumToRunsPerUser() throws {
        try run("o", threads: 2)
        let runs = try table("o", "runs.csv"), apps = try table("o", "apps.csv")
        let appCount = 26
        XCTAssertEqual(apps.count, runs.count * (appCount + 1), "one row per app plus the shared row per run")
        var sums: [String: [String: Double]] = [:]
        for a in apps {
            let key = a["configuration"]! + "/" + a["replication"]! + "/" + a["user"]!
            for (k, v) in a where !["configuration", "replication", "user", "app", "app_name"].contains(k) {
                sums[key, default: [:]][k, default: 0] += Double(v) ?? .nan
            }
            let total = Double(a["energy_total_j"]!)!, task = Double(a["task_energy_j"]!)!, mech = Double(a["mechanism_energy_j"]!)!
            if a["app"] == "-1" {
                // The shared row: batch wakes and tails only.
                XCTAssertEqual(a["app_name"], "shared")
                XCTAssertEqual(task + mech, 0)
                XCTAssertEqual(Double(a["energy_wake_j"]!)! + Double(a["energy_tail_j"]!)!, total, accuracy: 1e-9 * max(1, total))
            } else {
                XCTAssertEqual(a["energy_tail_j"], "0", "no tail is attributed to an app")
                XCTAssertEqual(task + mech, total, accuracy: 1e-9 * max(1, total))
            }
        }
        var mechanismJoules = 0.0
        for r in runs {
            let s = try XCTUnwrap(sums[r["configuration"]! + "/" + r["replication"]! + "/" + r["user"]!])
            for c in ["launches", "fresh_launches", "tasks_run", "tasks_succeeded", "tasks_expired", "tasks_failed", "tasks_censored"] {
                XCTAssertEqual(s[c], Double(r[c]!), "\(c) of \(r["configuration"]!) user \(r["user"]!)")
            }
            for c in ["energy_wake_j", "energy_cpu_j", "energy_promotion_j", "energy_active_j", "energy_tail_j",
                      "energy_total_j", "energy_wasted_j", "bg_bytes_wifi", "bg_bytes_cellular"] {
                let x = Double(r[c]!)!
                XCTAssertEqual(s[c]!, x, accuracy: 1e-9 * max(1, abs(x)), "\(c) of \(r["configuration"]!) user \(r["user"]!)")
            }
            mechanismJoules += s["mechanism_energy_j"]!
        }
        XCTAssertGreaterThan(mechanismJoules, 0, "the mechanisms' energy is attributed to apps")
    }

    func testSameBytesForAnyThreadCountAndShardsAndNoOtherFileChanges() throws {
        try run("t1", threads: 1, events: true)
        try run("t3", threads: 3, events: true)
        for f in ["apps.csv", "events.csv", "runs.csv"] { XCTAssertEqual(try read("t1", f), try read("t3", f), f) }
        // Off by default, and on it changes no other file.
        try run("without", threads: 2, events: true, apps: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("without/apps.csv")))
        for f in ["runs.csv", "summary.csv", "comparison.csv", "efficiency.csv", "wakes_by_hour.csv", "report.md", "events.csv"] {
            XCTAssertEqual(try read("t1", f), try read("without", f), f)
        }
        for i in 0..<2 { try run("s\(i)", threads: 1, shard: Shard(index: i, count: 2)) }
        _ = try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("s1")], out: dir.path("m"), tool: .standard)
        XCTAssertEqual(try read("t1", "apps.csv"), try read("m", "apps.csv"))
        XCTAssertEqual(try read("t1", "runs.csv"), try read("m", "runs.csv"))
        // A shard without --apps does not merge with one with it.
        try run("plain1", threads: 1, shard: Shard(index: 1, count: 2), apps: false)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("s0"), dir.path("plain1")],
                                                          out: dir.path("m2"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("--apps on one and not the other"), "\(error)")
        }
    }

    /// Docs/Outputs.md's `apps.csv` section documents every column, in order.
    func testEveryColumnIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("Docs/Outputs.md"), encoding: .utf8)
        let start = try XCTUnwrap(doc.range(of: "## `apps.csv`"))
        let section = doc[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let text = section[..<end]
        var at = text.startIndex
        for name in AppsCSV.keyColumns + Device.AppMetrics.columns.map(\.name) {
            let r = try XCTUnwrap(text.range(of: "`\(name)`", range: at..<text.endIndex), "\(name) missing or out of order")
            at = r.upperBound
        }
        XCTAssertEqual(AppsCSV.header, (AppsCSV.keyColumns + Device.AppMetrics.columns.map(\.name)).joined(separator: ",") + "\n")
    }

    /// The command line: `--apps` writes apps.csv, `run --help` lists it.
    func testCommandLineFlag() throws {
        let tiny = Self.spec.replacingOccurrences(of: #""users": 3, "days": 1"#, with: #""users": 1, "days": 1"#)
        try tiny.write(toFile: dir.path("tiny.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir.path("tiny.json"), "--out", dir.path("cli"), "--threads", "1", "--apps", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try read("cli", "apps.csv").split(separator: "\n")
        XCTAssertEqual(rows.count, 1 + 3 * 27, "header, then 26 apps and the shared row for each of 3 configurations")
        XCTAssertEqual(String(rows[0]) + "\n", AppsCSV.header)
        let help = try CLI.run(["run", "--help"])
        XCTAssertTrue(help.stdout.contains("--apps"), help.stdout)
    }
}
