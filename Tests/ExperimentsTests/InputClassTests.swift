import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import Experiments
@testable import Traces

/// The classes of hostile input closed at their root, each through the
/// built `bgbench` as a user meets it: a line longer than the one
/// line-length limit (every text reader), reals that are not decimal,
/// a trace set without users, values whose conversion to an integer would
/// trap, a shard file truncated or appended to, a runs.csv column bgbench
/// does not write, repeated options and empty paths. Each case asserts the
/// exit code, that the message names the file and line (or the path), and
/// that nothing is left beside the output.
final class InputClassTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    func bgbench(_ args: [String]) throws -> CLITests.Result { try CLI.run(args) }

    /// Hidden entries (staging directories, spill files) and `names` in the test directory.
    func leftovers(_ names: [String] = []) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []
        return entries.filter { $0.hasPrefix(".") || names.contains($0) }.sorted()
    }

    func assertFails(_ args: [String], code: Int32, naming parts: [String], leaving names: [String] = [],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try bgbench(args)
        XCTAssertEqual(r.status, code, "\(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        for p in parts { XCTAssertTrue(r.stderr.contains(p), "\(args) should name \(p): \(r.stderr)", file: file, line: line) }
        XCTAssertEqual(leftovers(names), [], "\(args) left something behind", file: file, line: line)
    }

    /// A small valid trace set (2 users × 1 day) at `name`.
    func traceSet(_ name: String = "set") throws -> String {
        let r = try bgbench(["traces", "generate", "--users", "2", "--days", "1", "--seed", "3", "--out", dir.path(name)])
        XCTAssertEqual(r.status, 0, r.stderr)
        return dir.path(name)
    }

    func replaceLine(_ path: String, _ n: Int, _ change: (String) -> String) throws {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[n - 1] = change(lines[n - 1])
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    // MARK: one line-length limit

    /// Ten good lines, then one of `length` bytes (then one more good line).
    func log(_ format: String, longLine length: Int) -> String {
        let good = format == "lsapp"
            ? (0..<10).map { "u1\t1\t2024-03-04 07:\(10 + $0):00\tnews\t\($0 % 2 == 0 ? "Opened" : "Closed")" }
            : (0..<10).map { "u1,2024-03-04T07:\(10 + $0):00,news,\($0 % 2 == 0 ? "open" : "close")" }
        let header = format == "lsapp" ? "user_id\tsession_id\ttimestamp\tapp_name\tevent_type" : "user,time,app,event"
        return ([header] + good + [String(repeating: "x", count: length)] + [good[0]]).joined(separator: "\n") + "\n"
    }

    func testImportRefusesALineAboveTheLimitInBothFormats() throws {
        for format in ["lsapp", "events"] {
            let path = dir.path("log-\(format).txt")
            // One byte over the limit: refused as too long, at line 12 (the header is line 1).
            try log(format, longLine: TextLimits.maxLineBytes + 1).write(toFile: path, atomically: true, encoding: .utf8)
            try assertFails(["traces", "import", "--format", format, "--seed", "1", "--out", dir.path("out"), path],
                            code: 65, naming: ["log-\(format).txt:12", "longer than \(TextLimits.maxLineBytes) bytes"], leaving: ["out"])
            // At the limit: not too long (refused as a malformed row instead).
            try log(format, longLine: TextLimits.maxLineBytes).write(toFile: path, atomically: true, encoding: .utf8)
            let r = try bgbench(["traces", "import", "--format", format, "--seed", "1", "--out", dir.path("out"), path])
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("log-\(format).txt:12"), r.stderr)
            XCTAssertFalse(r.stderr.contains("longer than"), r.stderr)
        }
    }

    /// A huge line is refused after reading about the limit, not the whole
    /// line: 64 MiB of one line costs well under the time and memory of
    /// reading it whole (the hang class: a 1 GB line ran for minutes).
    func testAHugeLineIsRefusedWithoutReadingItWhole() throws {
        let path = dir.path("huge.csv")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.write(Data(log("events", longLine: 0).split(separator: "\n").prefix(11).map { $0 + "\n" }.joined().utf8))
        let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<64 { handle.write(block) }
        try handle.close()
        let started = Date()
        try assertFails(["traces", "import", "--format", "events", "--sessions-only", "--out", dir.path("out"), path],
                        code: 65, naming: ["huge.csv:12", "longer than"], leaving: ["out"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    }

    func testEveryTraceFileSpecAndResultReaderHasTheLimit() throws {
        let set = try traceSet()
        let long = String(repeating: "9", count: TextLimits.maxLineBytes + 10)
        // A trace-set CSV, through `traces stats`, `validate` and `run`.
        try replaceLine(set + "/sessions.csv", 3) { _ in long }
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "traces": "\#(set)", "policies": [{"name": "never"}]}"#.write(toFile: spec, atomically: true, encoding: .utf8)
        for args in [["traces", "stats", set], ["validate", spec], ["run", spec, "--out", dir.path("out"), "--threads", "1"]] {
            try assertFails(args, code: 65, naming: ["sessions.csv:3", "longer than"], leaving: ["out"])
        }
        // A spec whose second line is too long.
        let bad = dir.path("long.json")
        try "{\"name\": \"t\",\n\"x\": \"\(long)\"}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try assertFails(["validate", bad], code: 65, naming: ["long.json", "line 2", "longer than"])
    }

    // MARK: strict decimals, at least one user, checked conversions

    func testNonDecimalRealsInATraceSetAreRefused() throws {
        let set = try traceSet()
        let original = try String(contentsOfFile: set + "/users.csv", encoding: .utf8)
        // users.csv column 4 is screen_on_drain_w, a real >= 0.
        for hostile in ["0x10", "inf", "nan", "+1", " 1", "1e", "1.2.3", "0x1p3", "", "-"] {
            try original.write(toFile: set + "/users.csv", atomically: true, encoding: .utf8)
            try replaceLine(set + "/users.csv", 2) { line in
                var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                f[3] = hostile
                return f.joined(separator: ",")
            }
            try assertFails(["traces", "stats", set], code: 65, naming: ["users.csv:2:4", "\"\(hostile)\""])
        }
        // Decimal spellings stay accepted.
        for fine in ["2", "2.0", "0.25", "2e0", "2.5E-1", ".5"] {
            try original.write(toFile: set + "/users.csv", atomically: true, encoding: .utf8)
            try replaceLine(set + "/users.csv", 2) { line in
                var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                f[3] = fine
                return f.joined(separator: ",")
            }
            let r = try bgbench(["traces", "stats", set])
            XCTAssertEqual(r.status, 0, "\(fine): \(r.stderr)")
        }
    }

    func testDecimalTextAgainstItsGrammar() {
        XCTAssertEqual(DecimalText.real("12.5"), 12.5)
        XCTAssertEqual(DecimalText.real("-1e-05"), -1e-05)
        XCTAssertEqual(DecimalText.real("3."), 3)
        for bad in ["0x10", "0X1", "inf", "-inf", "Infinity", "nan", "NaN", "+1", "1 ", "e5", ".", "-.", "1e+", "1_000", "١"] {
            XCTAssertNil(DecimalText.real(bad), bad)
        }
        XCTAssertEqual(DecimalText.wholeNumber("-42"), -42)
        for bad in ["+3", "3.0", "", "-", "0x3", String(repeating: "9", count: 19)] { XCTAssertNil(DecimalText.wholeNumber(bad), bad) }
    }

    func testATraceSetWithoutUsersIsRefused() throws {
        let set = try traceSet()
        let header = try String(contentsOfFile: set + "/users.csv", encoding: .utf8).split(separator: "\n")[0]
        try (header + "\n").write(toFile: set + "/users.csv", atomically: true, encoding: .utf8)
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "traces": "\#(set)", "policies": [{"name": "never"}]}"#.write(toFile: spec, atomically: true, encoding: .utf8)
        for args in [["traces", "stats", set], ["validate", spec], ["run", spec, "--out", dir.path("out")]] {
            try assertFails(args, code: 65, naming: ["users.csv:2", "at least one user"], leaving: ["out"])
        }
    }

    /// A battery of 1e308 Wh (or any value far out of range) made
    /// `traces stats` trap converting a crossing time to Int64; every
    /// power constant at its extremes now gives exit 0 or 65, never a signal.
    func testExtremePowerConstantsNeverTrap() throws {
        let set = try traceSet()
        let original = try String(contentsOfFile: set + "/users.csv", encoding: .utf8)
        // Columns 4-8: screen-on, idle and charging W, capacity Wh, initial %.
        for column in 4...8 {
            for value in ["1e308", "4.9e-324", "0"] {
                try original.write(toFile: set + "/users.csv", atomically: true, encoding: .utf8)
                try replaceLine(set + "/users.csv", 2) { line in
                    var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    f[column - 1] = value
                    return f.joined(separator: ",")
                }
                let r = try bgbench(["traces", "stats", set])
                XCTAssertTrue([0, 65].contains(r.status), "column \(column) = \(value): exit \(r.status) \(r.stderr)")
                if r.status == 65 { XCTAssertTrue(r.stderr.contains("users.csv"), r.stderr) }
            }
        }
        // The issue's case: refused with the allowed range.
        try original.write(toFile: set + "/users.csv", atomically: true, encoding: .utf8)
        try replaceLine(set + "/users.csv", 2) { line in
            var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[6] = "1e308"
            return f.joined(separator: ",")
        }
        try assertFails(["traces", "stats", set], code: 65, naming: ["users.csv", "batteryCapacityWh", "1000"])
    }

    func testTheExogenousBatteryConversionIsChecked() {
        XCTAssertEqual(ExogenousBattery.microseconds(5, below: 10), 5)
        XCTAssertNil(ExogenousBattery.microseconds(10, below: 10))
        XCTAssertNil(ExogenousBattery.microseconds(1e308, below: 10))
        XCTAssertNil(ExogenousBattery.microseconds(.infinity, below: 10))
        XCTAssertNil(ExogenousBattery.microseconds(.nan, below: 10))
    }

    // MARK: command line

    func testRepeatedOptionsAndEmptyPathsAreUsageErrors() throws {
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["run", spec, "--quiet", "--quiet"], "--quiet is repeated"),
            (["run", spec, "-q", "--quiet"], "is repeated"),
            (["run", spec, "--events", "--events"], "--events is repeated"),
            (["run", spec, "--threads", "1", "--threads=2"], "--threads is repeated"),
            (["run", spec, "--out", dir.path("a"), "--out", dir.path("b")], "--out is repeated"),
            (["run", spec, "--out="], "--out has an empty value"),
            (["run", spec, "--out", ""], "--out has an empty value"),
            (["run", ""], "empty path"),
            (["validate", ""], "empty path"),
            (["report", ""], "empty path"),
            (["traces", "stats", ""], "empty path"),
            (["merge", "--out", dir.path("m"), ""], "empty path"),
            (["merge", "--out=", dir.path("x")], "--out has an empty value"),
            (["traces", "generate", "--users", "1", "--days", "1", "--seed", "1", "--out="], "--out has an empty value"),
            (["traces", "import", "--format", "events", "--sessions-only", "--out", dir.path("o"), ""], "empty path"),
            (["run", spec, "--events-users", "5-2"], "--events-users"),
            (["run", spec, "--events-users", "x"], "--events-users"),
            (["run", spec, "--events-users="], "--events-users has an empty value"),
        ]
        for (args, message) in cases {
            let started = Date()
            try assertFails(args, code: 64, naming: [message, "--help"], leaving: ["a", "b", "m", "o", "out"])
            // At once: nothing is simulated before the usage error.
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "\(args)")
        }
    }

    /// `--events-users` naming a user the run does not have would log
    /// nothing for it: refused before the run (exit 64), naming the flag,
    /// the id and the allowed range, for a generated population and a
    /// trace set; the largest id itself is accepted.
    func testEventsUsersBeyondTheRunsUsersAreUsageErrors() throws {
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "never"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        for ids in ["0-2", "5", "0,1,40-49"] {
            let beyond = ids == "0-2" ? "2" : ids == "5" ? "5" : "49"
            try assertFails(["run", spec, "--out", dir.path("out"), "--events-users", ids], code: 64,
                            naming: ["--events-users", "names user \(beyond)", "user ids are 0-1 (population.users is 2)", "--help"],
                            leaving: ["out"])
        }
        let ok = try bgbench(["run", spec, "--out", dir.path("out"), "--events-users", "1", "--quiet"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let set = try traceSet()
        let traced = dir.path("traced.json")
        try #"{"name": "t", "seed": 1, "traces": "\#(set)", "policies": [{"name": "never"}]}"#
            .write(toFile: traced, atomically: true, encoding: .utf8)
        try assertFails(["run", traced, "--out", dir.path("out2"), "--events-users", "0-7"], code: 64,
                        naming: ["--events-users", "names user 7", "the trace set's user ids are at most 1"], leaving: ["out2"])
    }

    // MARK: every shard file verified

    func writeSpec(users: Int = 4) throws -> String {
        let spec = dir.path("spec.json")
        try #"{"name": "t", "seed": 1, "population": {"users": \#(users), "days": 1}, "policies": [{"name": "never"}, {"name": "greedy"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        return spec
    }

    func runShards(_ spec: String, extra: [String] = ["--events", "--apps"]) throws -> [String] {
        try (0..<2).map { i in
            let r = try bgbench(["run", spec, "--out", dir.path("s\(i)"), "--shard", "\(i)/2", "--threads", "1", "--quiet"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return dir.path("s\(i)")
        }
    }

    func testMergeRefusesATruncatedOrAppendedToShardFile() throws {
        let spec = try writeSpec()
        let parts = try runShards(spec)
        let marker = try String(contentsOfFile: parts[1] + "/shard.json", encoding: .utf8)
        for name in ["runs.csv", "wakes_by_hour.csv", "events.csv", "apps.csv"] {
            XCTAssertTrue(marker.contains("\"\(name)\""), "shard.json lists \(name)")
        }
        let r0 = try bgbench(["merge", "--out", dir.path("m"), parts[0], parts[1]])
        XCTAssertEqual(r0.status, 0, r0.stderr)
        let good = dir.path("m/events.csv")
        XCTAssertTrue(FileManager.default.fileExists(atPath: good))
        try FileManager.default.removeItem(atPath: dir.path("m"))

        for name in ["events.csv", "apps.csv", "runs.csv", "wakes_by_hour.csv"] {
            let path = parts[1] + "/" + name
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let mutations: [(String, Data)] = [
                ("truncated at a line end", Data(original.prefix(upTo: original.dropLast().lastIndex(of: 10)! + 1))),
                ("truncated mid-line", original.prefix(original.count - 3)),
                ("garbage appended", original + Data("garbage,1,2\n".utf8)),
                ("one byte changed", { var d = original; d[d.count / 2] ^= 1; return d }()),
            ]
            // The streamed files get every mutation, the small ones two.
            for (what, data) in name.hasPrefix("events") || name.hasPrefix("apps") ? mutations : [mutations[1], mutations[2]] {
                try data.write(to: URL(fileURLWithPath: path))
                let r = try bgbench(["merge", "--out", dir.path("m"), parts[0], parts[1]])
                XCTAssertEqual(r.status, 65, "\(name) \(what): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("s1/\(name)"), "\(name) \(what): \(r.stderr)")
                XCTAssertEqual(leftovers(["m"]), [], "\(name) \(what)")
            }
            try original.write(to: URL(fileURLWithPath: path))
        }
        // A shard directory given twice, and a copy of a shard: both named.
        try assertFails(["merge", "--out", dir.path("m"), parts[0], parts[0], parts[1]], code: 65,
                        naming: ["\(parts[0]) (shard 0/2) is given twice"], leaving: ["m"])
        try FileManager.default.copyItem(atPath: parts[0], toPath: dir.path("copy"))
        try assertFails(["merge", "--out", dir.path("m"), parts[0], dir.path("copy"), parts[1]], code: 65,
                        naming: ["shard 0/2 appears twice", parts[0], dir.path("copy")], leaving: ["m"])
    }

    func testAShardWithAMissingOrEditedFileIsNotComplete() throws {
        let spec = try writeSpec()
        let parts = try runShards(spec, extra: ["--events"])
        let again = try bgbench(["run", spec, "--out", parts[1], "--shard", "1/2", "--events"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("already complete"), again.stdout)
        for name in ["runs.csv", "events.csv"] {
            let path = parts[1] + "/" + name
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            for edit in ["delete", "truncate"] {
                if edit == "delete" { try FileManager.default.removeItem(atPath: path) } else { try original.prefix(original.count / 2).write(to: URL(fileURLWithPath: path)) }
                let r = try bgbench(["run", spec, "--out", parts[1], "--shard", "1/2", "--events"])
                XCTAssertEqual(r.status, 64, "\(name) \(edit): \(r.stderr)")
                XCTAssertFalse(r.stdout.contains("already complete"), r.stdout)
                XCTAssertTrue(r.stderr.contains("not complete") && r.stderr.contains(name) && r.stderr.contains("--force"), r.stderr)
                // --force runs it again, whole and verified.
                let forced = try bgbench(["run", spec, "--out", parts[1], "--shard", "1/2", "--events", "--force", "--quiet"])
                XCTAssertEqual(forced.status, 0, forced.stderr)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "\(name) \(edit): the re-run shard is the same")
            }
        }
        XCTAssertEqual(leftovers(), [])
    }

    func testReportRefusesAnUnknownMetricColumnEvenWithItsHashRecomputed() throws {
        let spec = try writeSpec(users: 2)
        let r = try bgbench(["run", spec, "--out", dir.path("out"), "--threads", "1", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let runs = dir.path("out/runs.csv")
        let text = try String(contentsOfFile: runs, encoding: .utf8)
        let misspelt = text.replacingOccurrences(of: ",fresh_launch_ratio,", with: ",fresh_launch_ratoi,")
        XCTAssertNotEqual(misspelt, text)
        try misspelt.write(toFile: runs, atomically: true, encoding: .utf8)
        let manifest = dir.path("out/manifest.json")
        let m = try String(contentsOfFile: manifest, encoding: .utf8)
        try m.replacingOccurrences(of: SHA256.hex(text), with: SHA256.hex(misspelt)).write(toFile: manifest, atomically: true, encoding: .utf8)
        let before = try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8)
        try assertFails(["report", dir.path("out")], code: 65, naming: ["runs.csv:1", "\"fresh_launch_ratoi\" is not a metric"])
        XCTAssertEqual(try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8), before)
    }
}

/// `--events` streamed per configuration: the same bytes for any thread
/// count and sharding, a user sample that is exactly those users' rows, and
/// early logs that wait on disk rather than in memory.
final class EventStreamingTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    func spec() throws -> String {
        let path = dir.path("spec.json")
        try #"{"name": "e", "seed": 4, "population": {"users": 6, "days": 1}, "policies": [{"name": "never"}, {"name": "greedy"}, {"name": "fixed-interval", "params": {"interval": ["30m", "2h"]}}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func events(_ out: String) throws -> String { try String(contentsOfFile: dir.path(out) + "/events.csv", encoding: .utf8) }

    func testEventsAreTheSameBytesForAnyThreadsShardsAndSample() throws {
        let file = try spec()
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("t1"), threads: 1, events: true), tool: .standard)
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("t4"), threads: 4, events: true), tool: .standard)
        let whole = try events("t1")
        XCTAssertEqual(try events("t4"), whole)
        XCTAssertGreaterThan(whole.split(separator: "\n").count, 100)
        for i in 0..<3 {
            _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("s\(i)"), threads: 3, shard: Shard(index: i, count: 3), events: true), tool: .standard)
        }
        _ = try ExperimentCommands.merge(shardDirectories: (0..<3).map { dir.path("s\($0)") }, out: dir.path("m"), tool: .standard)
        XCTAssertEqual(try events("m"), whole)

        var options = ExperimentCommands.RunOptions(specPath: file, out: dir.path("sample"), threads: 3, events: true)
        options.eventUsers = UserSelection(parsing: "4,1-2")
        _ = try ExperimentCommands.run(options, tool: .standard)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = ([lines[0]] + lines.dropFirst().filter { line in
            let user = line.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).first
            return user == "1" || user == "2" || user == "4"
        }).joined(separator: "\n") + "\n"
        XCTAssertEqual(try events("sample"), expected)
        XCTAssertEqual(try String(contentsOfFile: dir.path("sample/runs.csv"), encoding: .utf8),
                       try String(contentsOfFile: dir.path("t1/runs.csv"), encoding: .utf8))
        // A shard with a sample does not merge with one without.
        var sampled = ExperimentCommands.RunOptions(specPath: file, out: dir.path("x0"), threads: 1, shard: Shard(index: 0, count: 2), events: true)
        sampled.eventUsers = UserSelection(parsing: "0-1")
        _ = try ExperimentCommands.run(sampled, tool: .standard)
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("x1"), threads: 1, shard: Shard(index: 1, count: 2), events: true), tool: .standard)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [dir.path("x0"), dir.path("x1")], out: dir.path("xm"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("--events-users (all) vs 0-1"), "\(error)")
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(hidden, [])
    }

    func testUserSelectionSyntax() {
        XCTAssertEqual(UserSelection(parsing: "0-9")?.description, "0-9")
        XCTAssertEqual(UserSelection(parsing: "7,0-3,4,10-12,11")?.description, "0-4,7,10-12")
        XCTAssertEqual(UserSelection(parsing: "5")?.contains(5), true)
        XCTAssertEqual(UserSelection(parsing: "5")?.contains(6), false)
        for bad in ["", ",", "1,", "3-1", "-1", "1-", "a", "1-2-3", "+1", " 1", "0x1"] { XCTAssertNil(UserSelection(parsing: bad), bad) }
    }

    /// Chunks of 4 per item, handed over out of order by 4 threads: in
    /// order in the file, at most `window` items' chunks held, the early ones
    /// on disk (nothing in memory), and the spill files gone.
    func testEarlyChunksWaitInSpillFilesAndComeOutInOrder() throws {
        let path = dir.path("out.txt")
        let perItem = 4, window = 3
        let writer = try OrderedChunkWriter(path: path, first: 5 * perItem, window: window, chunksPerItem: perItem,
                                            header: "h\n", digesting: true, spillPath: dir.path("spill"))
        let chunk: @Sendable (Int) -> String = { i in String(repeating: "\(i),", count: 50) + "\n" }
        let next = Atomic<Int>(5)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while true {
                let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard item < 105 else { return }
                for c in 0..<perItem {
                    if (item + c) % 5 == 0 { usleep(300) }
                    writer.submit(item * perItem + c, chunk(item * perItem + c))
                }
            }
        }
        let digest = try XCTUnwrap(try writer.finish())
        let expected = "h\n" + (5 * perItem..<105 * perItem).map(chunk).joined()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), expected)
        XCTAssertEqual(digest, FileDigest(rows: 100 * perItem, sha256: SHA256.hex(expected)))
        XCTAssertGreaterThan(writer.maxSpillBytes, 0, "some chunks arrived early")
        XCTAssertLessThanOrEqual(writer.maxSpillBytes, window * perItem * chunk(1000).utf8.count)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["out.txt"])
    }
}
