import Foundation
import TestSupport
import XCTest

/// The `bgbench` executable as a user runs it: help layout, exit codes and
/// error messages. `swift test` builds the executable next to the tests.
final class CLITests: XCTestCase {
    static var binary: URL {
        // The test bundle sits in the products directory (.build/<triple>/debug).
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("bgbench").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("bgbench")
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    func bgbench(_ args: String...) throws -> Result { try bgbenchArgs(args) }

    static let suites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/suites")

    func testBinaryExists() {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary.path), "bgbench not built at \(Self.binary.path)")
    }

    func testEverySubcommandHelpHasTheFixedLayout() throws {
        let top = try bgbench("--help")
        XCTAssertEqual(top.status, 0)
        for sub in [["run"], ["merge"], ["report"], ["validate"], ["policies"], ["traces", "generate"], ["traces", "stats"]] {
            XCTAssertTrue(top.stdout.contains(sub.joined(separator: " ")), "top help lists \(sub)")
            let r = try bgbenchArgs(sub + ["--help"])
            XCTAssertEqual(r.status, 0, "\(sub)")
            let o = r.stdout
            let overview = o.range(of: "OVERVIEW:"), usage = o.range(of: "\nUSAGE: bgbench \(sub.joined(separator: " "))"),
                options = o.range(of: "\nOPTIONS:")
            XCTAssertNotNil(overview, "\(sub)")
            XCTAssertNotNil(usage, "\(sub)")
            XCTAssertNotNil(options, "\(sub)")
            if let overview, let usage, let options {
                XCTAssertTrue(overview.lowerBound < usage.lowerBound && usage.lowerBound < options.lowerBound, "\(sub) order")
            }
            XCTAssertTrue(o.contains("--help"), "\(sub)")
        }
    }

    func bgbenchArgs(_ args: [String]) throws -> Result { try CLI.run(args) }

    func testUsageErrorsExit64WithPointerToHelp() throws {
        let cases: [([String], String, String)] = [
            (["run"], "missing <spec>", "bgbench run --help"),
            (["run", "x.json", "--threads", "0"], "--threads", "bgbench run --help"),
            (["run", "x.json", "--shard", "4/4"], "--shard", "bgbench run --help"),
            (["run", "x.json", "--frobnicate"], "unknown option --frobnicate", "bgbench run --help"),
            (["merge", "a"], "--out is required", "bgbench merge --help"),
            (["frobnicate"], "unknown subcommand", "bgbench --help"),
            (["traces"], "not a command", "bgbench --help"),
            (["traces", "generate", "--users", "-1", "--days", "1", "--seed", "1", "--out", "x"], "--users", "bgbench traces generate --help"),
        ]
        for (args, message, pointer) in cases {
            let r = try bgbenchArgs(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("See '\(pointer)'"), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try bgbench().status, 64)
    }

    func testBadSpecExits65NamingFileAndPath() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spec = dir.path("bad.json")
        try #"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "fixed-interval", "params": {"interval": "-5m"}}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        for args in [["run", spec, "--out", dir.path("out")], ["validate", spec]] {
            let r = try bgbenchArgs(args)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("\(spec): $.policies[0].params.interval"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")))
    }

    func testValidateAndPolicies() throws {
        let v = try bgbench("validate", Self.suites.appendingPathComponent("smoke.json").path)
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.stdout.contains("valid"))
        let p = try bgbench("policies")
        XCTAssertEqual(p.status, 0)
        for name in ["never", "greedy", "oracle", "fixed-interval", "usage-predictor", "coalescing", "exponential-backoff", "model-bound"] {
            XCTAssertTrue(p.stdout.contains(name + " "), name)
        }
    }

    func testTracesGroupHelpExitsZero() throws {
        for flag in ["--help", "-h"] {
            let r = try bgbench("traces", flag)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("traces generate") && r.stdout.contains("traces stats"), r.stdout)
        }
    }

    func testEveryHelpListsTheExitCodes() throws {
        for sub in [["--help"], ["run", "--help"], ["merge", "--help"], ["report", "--help"], ["validate", "--help"],
                    ["traces", "generate", "--help"], ["traces", "--help"]] {
            let r = try bgbenchArgs(sub)
            for code in ["64", "65", "74", "130", "143"] {
                XCTAssertTrue(r.stdout.contains("\n  \(code) "), "\(sub) lacks exit code \(code)")
            }
        }
    }

    func testOutputErrorsExit74OrRefuse64() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let smoke = Self.suites.appendingPathComponent("smoke.json").path
        try "x".write(toFile: dir.path("file"), atomically: true, encoding: .utf8)
        let through = try bgbench("run", smoke, "--out", dir.path("file/out"), "--quiet")
        XCTAssertEqual(through.status, 74, through.stderr)
        XCTAssertTrue(through.stderr.contains(dir.path("file/out")) && through.stderr.contains("Not a directory"), through.stderr)
        try FileManager.default.createDirectory(atPath: dir.path("full"), withIntermediateDirectories: true)
        try "x".write(toFile: dir.path("full/x"), atomically: true, encoding: .utf8)
        let existing = try bgbench("run", smoke, "--out", dir.path("full"), "--quiet")
        XCTAssertEqual(existing.status, 64, existing.stderr)
        XCTAssertTrue(existing.stderr.contains("--force"), existing.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), ["file", "full"])
    }

    /// SIGINT and SIGTERM stop a run and a trace generation promptly, with
    /// 130 / 143, and leave nothing in the output's parent directory.
    func testSignalsStopCommandsAndLeaveNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spec = dir.path("long.json")
        try #"{"name": "long", "seed": 1, "population": {"users": 5000, "days": 28}, "policies": [{"name": "never"}, {"name": "greedy"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            ["run", spec, "--out", dir.path("out/run"), "--threads", "2", "--events", "--quiet"],
            ["traces", "generate", "--users", "20000", "--days", "28", "--seed", "1", "--out", dir.path("out/traces")],
        ]
        for args in commands {
            for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
                let p = Process()
                p.executableURL = Self.binary
                p.arguments = args
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                Thread.sleep(forTimeInterval: 0.7)
                let sent = Date()
                kill(p.processIdentifier, signal)
                p.waitUntilExit()
                XCTAssertLessThan(Date().timeIntervalSince(sent), 5, "\(args) did not stop promptly")
                XCTAssertEqual(p.terminationStatus, status, "\(args) after signal \(signal)")
                // Not even the parent directory the command created for its output.
                let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
                XCTAssertEqual(left, ["long.json"], "\(args) left \(left)")
            }
        }
    }
}

/// The `bgbench` executable, run as a child process (`CLITests`, `TraceSynthesisRunTests`).
enum CLI {
    static func run(_ args: [String]) throws -> CLITests.Result {
        let p = Process()
        p.executableURL = CLITests.binary
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLITests.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                               stderr: String(decoding: e, as: UTF8.self))
    }
}
