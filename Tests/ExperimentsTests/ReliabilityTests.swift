import Foundation
import Synchronization
import TestSupport
import Traces
import XCTest
@testable import Experiments

/// One validation for `validate` and `run`, atomic result
/// directories, verified merge and report, and the defects of this area.
final class ReliabilityTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    func spec(_ device: String = "", generator: String = "", users: Int = 3, days: Int = 1,
              policies: String = #"[{"name": "never"}, {"name": "greedy"}]"#, name: String = "t") -> String {
        #"{"name": "\#(name)", "seed": 1, "population": {"users": \#(users), "days": \#(days)\#(generator.isEmpty ? "" : ", \"generator\": {\(generator)}")}, "device": {\#(device)}, "policies": \#(policies)}"#
    }

    func write(_ text: String, _ name: String = "spec.json") throws -> String {
        let path = dir.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: SHA-256

    func testSHA256KnownVectors() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var h = SHA256()
        for _ in 0..<1000 { h.update(String(repeating: "a", count: 1000)) }
        XCTAssertEqual(h.hexDigest, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // MARK: validation

    /// Each fragment is refused at its JSON path by `validate` and by `run`
    /// alike, before anything is simulated or written.
    func testOutOfRangeValuesAreRefusedAtTheirPathByValidateAndRun() throws {
        let cases: [(String, String)] = [
            (spec(#""batteryCapacityWh": -3"#), "$.device.batteryCapacityWh"),
            (spec(#""batteryCapacityWh": 1e308"#), "$.device.batteryCapacityWh"),
            (spec(#""refreshBudget": "0s""#), "$.device.refreshBudget"),
            (spec(#""chargingWatts": -1"#), "$.device.chargingWatts"),
            (spec(#""apps": {"news": {"forgetProbability": 1.5}}"#), "$.device.apps.news.forgetProbability"),
            (spec(#""apps": {"nws": {"forgetProbability": 0.5}}"#), "$.device.apps.nws"),
            (spec(#""energy": {"cpuWatts": -1}"#), "$.device.energy.cpuWatts"),
            (spec(#""energy": {"wifi": {"source": "x", "promotionSeconds": 0.1, "promotionWatts": 0.1, "tailSeconds": 0.2, "tailWatts": 0.1, "alphaUpWattsPerMbps": 0.3, "alphaDownWattsPerMbps": 0.1, "betaWatts": 0.1, "uplinkMbps": 10, "downlinkMbps": 0}}"#), "$.device.energy.wifi.downlinkMbps"),
            (spec(#""defaultApp": {"retryDelayAfterFailure": "0s"}"#), "$.device.defaultApp.retryDelayAfterFailure"),
            (spec(#""defaultApp": {"refresh": {"cpuSeconds": -2}}"#), "$.device.defaultApp.refresh.cpuSeconds"),
            (spec(generator: #""network": {"outingMeanHours": 0}"#), "$.population.generator.network.outingMeanHours"),
            (spec(generator: #""usage": {"sessionsPerDayMedian": -1}"#), "$.population.generator.usage.sessionsPerDayMedian"),
            (spec(generator: #""usage": {"weekdayHourlyWeights": [1, 2]}"#), "$.population.generator.usage.weekdayHourlyWeights"),
            (spec(generator: #""power": {"initialBatteryMinPercent": 90, "initialBatteryMaxPercent": 10}"#), "$.population.generator.power.initialBatteryMinPercent"),
            (spec(name: ".."), "$.name"),
            (spec(name: "a/b"), "$.name"),
            (spec(policies: #"[{"name": "never", "label": ""}]"#), "$.policies[0]"),
            (spec(policies: #"[{"name": "never", "label": "a\nb"}]"#), "$.policies[0]"),
            (spec(policies: #"[{"name": "fixed-interval", "params": {"interval": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","10m"]}, "base": {"name": "coalescing", "params": {"window": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","10m"]}, "base": {"name": "exponential-backoff", "params": {"factor": [2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102]}, "base": {"name": "greedy"}}}}]"#),
             "$.policies[0]"),
            (spec(users: 100_000_000, days: 3650), "$"),
            (spec(policies: #"[{"name": "usage-predictor", "params": {"slot": "1us"}}]"#), "$.policies[0].params.slot"),
            (spec(policies: #"[{"name": "coalescing", "base": {"name": "fixed-interval", "params": {"interval": "0s"}}}]"#), "$.policies[0].base.params.interval"),
            // The timing ingredient of cost-aware-predictor.
            (spec(policies: #"[{"name": "cost-aware-predictor", "params": {"holdForLaunch": 1, "maxHold": "10s"}}]"#), "$.policies[0].params.maxHold"),
            (spec(policies: #"[{"name": "cost-aware-predictor", "params": {"followWindow": "2h"}}]"#), "$.policies[0].params.followWindow"),
            (spec(policies: #"[{"name": "model-bound", "params": {"recheck": "1us"}}]"#), "$.policies[0].params.recheck"),
            (spec(policies: #"[{"name": "ios-system", "params": {"baseInterval": "1s"}}]"#), "$.policies[0].params.baseInterval"),
            // Continued processing and SwiftUI handlers.
            (spec(#""cancellationGrace": "0s""#), "$.device.cancellationGrace"),
            (spec(#""continuedProcessing": {"maxRunning": 0}"#), "$.device.continuedProcessing.maxRunning"),
            (spec(#""continuedProcessing": {"maxRunning": 2, "maxRunningUnderPressure": 3}"#), "$.device.continuedProcessing.maxRunningUnderPressure"),
            (spec(#""apps": {"news": {"continuedProcessing": {"probability": 2}}}"#), "$.device.apps.news.continuedProcessing.probability"),
            (spec(#""apps": {"news": {"continuedProcessing": {"probability": 0.1, "cancelPerHour": -1}}}"#), "$.device.apps.news.continuedProcessing.cancelPerHour"),
        ]
        for (i, (text, path)) in cases.enumerated() {
            let file = try write(text, "case\(i).json")
            var messages: [String] = []
            XCTAssertThrowsError(try ExperimentCommands.validate(specPath: file, threads: 1, registry: .standard)) { messages.append("\($0)") }
            XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: dir.path("out\(i)"), threads: 1), tool: .standard)) {
                messages.append("\($0)")
            }
            XCTAssertEqual(messages.count, 2, text)
            XCTAssertEqual(Set(messages).count, 1, "validate and run disagree: \(messages)")
            XCTAssertTrue(messages.first?.hasPrefix("\(file): \(path)") ?? false, "\(text)\n→ \(messages)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out\(i)")))
        }
    }

    func testMemoryEstimateIsReportedWithTheLimit() throws {
        let file = try write(spec(users: 100_000_000, days: 30))
        XCTAssertThrowsError(try ExperimentCommands.validate(specPath: file, threads: 1, registry: .standard)) { error in
            XCTAssertTrue("\(error)".contains("GiB of memory"), "\(error)")
            XCTAssertTrue("\(error)".contains("above the limit of 16.0 GiB"), "\(error)")
        }
    }

    func testDefaultRangesAcceptTheDefaults() throws {
        XCTAssertNil(GeneratorParameters.default.rangeProblem)
        XCTAssertNoThrow(try DeviceRanges.check(.init(), at: "$"))
    }

    // MARK: defects

    /// `runs.csv` carries the trace set's user ids, not row positions.
    func testRunsCSVUserIsTheTraceSetsUserID() throws {
        var set = PopulationGenerator(parameters: .default, seed: 3, days: 1).traceSet(users: 2)
        set.users[0].profile.index = 10
        set.users[1].profile.index = 42
        set.provenance = nil
        try TraceSetWriter.write(set, to: URL(fileURLWithPath: dir.path("traces")))
        let file = try write(#"{"name": "t", "seed": 1, "traces": "traces", "policies": [{"name": "never"}]}"#)
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("out"), threads: 1, events: true), tool: .standard)
        let rows = try String(contentsOfFile: dir.path("out/runs.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(rows.map { $0.split(separator: ",")[2] }, ["10", "42"])
        let events = try String(contentsOfFile: dir.path("out/events.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertEqual(Set(events.map { $0.split(separator: ",")[2] }), ["10", "42"])
    }

    /// A spec given by a bare relative path, with `traces: "../x"`, resolves
    /// against the spec's real directory (it used to become `/x`).
    func testRelativeSpecPathWithParentTraceDirectory() throws {
        try FileManager.default.createDirectory(atPath: dir.path("specs"), withIntermediateDirectories: true)
        _ = try write(#"{"name": "t", "seed": 1, "traces": "../traces", "policies": [{"name": "never"}]}"#, "specs/spec.json")
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path("specs")))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let spec = try ExperimentSpec.load(path: "spec.json", registry: .standard)
        guard case let .traces(resolved) = spec.world else { return XCTFail("not a trace world") }
        XCTAssertEqual(resolved, (dir.path("traces") as NSString).resolvingSymlinksInPath.replacingOccurrences(of: "/private", with: ""))
    }

    // MARK: atomic output directories

    func testExistingOutputIsRefusedAndForceReplacesItWhole() throws {
        let file = try write(spec())
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("out"), threads: 1), tool: .standard)
        try "mine".write(toFile: dir.path("out/note.txt"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: dir.path("out"), threads: 1), tool: .standard)) { error in
            XCTAssertTrue((error as? OutputError)?.refused ?? false, "\(error)")
            XCTAssertTrue("\(error)".contains("--force"), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/note.txt")), "a refused run touches nothing")
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("out"), threads: 1, force: true), tool: .standard)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out/note.txt")), "replaced whole, never mixed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("out/runs.csv")))
        XCTAssertEqual(try leftovers(), [])
    }

    func testOutputInsideTheTraceSetIsRefused() throws {
        _ = try TraceCommands.generate(users: 2, days: 1, seed: 4, out: URL(fileURLWithPath: dir.path("traces")))
        let file = try write(#"{"name": "t", "seed": 1, "traces": "traces", "policies": [{"name": "never"}]}"#)
        for out in ["traces", "traces/out"] {
            XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: dir.path(out), threads: 1, force: true), tool: .standard)) { error in
                XCTAssertTrue("\(error)".contains("overlaps the input"), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("traces/out")))
    }

    /// A path through a file and a read-only place are I/O errors naming the
    /// path and the system's reason, and leave nothing behind.
    func testPathThroughAFileAndReadOnlyDirectory() throws {
        let file = try write(spec())
        try "x".write(toFile: dir.path("plain"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: dir.path("plain/out"), threads: 1), tool: .standard)) { error in
            guard let e = error as? OutputError else { return XCTFail("\(error)") }
            XCTAssertFalse(e.refused)
            XCTAssertTrue(e.description.contains("Not a directory"), e.description)
        }
        // Root ignores permission bits, so it gets a place the kernel refuses instead.
        let readOnly: String
        if getuid() == 0 {
            readOnly = "/sys/fs"
        } else {
            try FileManager.default.createDirectory(atPath: dir.path("ro"), withIntermediateDirectories: true)
            chmod(dir.path("ro"), 0o555)
            readOnly = dir.path("ro")
        }
        defer { chmod(dir.path("ro"), 0o755) }
        XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: readOnly + "/bgbench-out", threads: 1), tool: .standard)) { error in
            guard let e = error as? OutputError else { return XCTFail("\(error)") }
            XCTAssertFalse(e.refused)
            XCTAssertTrue(e.description.contains(readOnly), e.description)
            XCTAssertTrue(e.description.contains("not permitted") || e.description.contains("Permission denied")
                          || e.description.contains("cannot write here"), e.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: readOnly + "/bgbench-out"))
        XCTAssertEqual(try leftovers(), [])
    }

    /// Hidden files (staging directories, temporaries) left in the test directory.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }
    }

    // MARK: verified merge and report

    func shards(_ file: String, count: Int, prefix: String = "s") throws -> [String] {
        try (0..<count).map { i in
            _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("\(prefix)\(i)"), threads: 1,
                                                 shard: Shard(index: i, count: count)), tool: .standard)
            return dir.path("\(prefix)\(i)")
        }
    }

    func testMergeRefusesEditedShardsOtherDataAndAnInputAsOut() throws {
        let file = try write(spec(users: 4))
        let parts = try shards(file, count: 2)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: parts, out: parts[0], force: true, tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("overlaps the input"), "\(error)")
        }
        // Other generator parameters: same spec name and seed, other data.
        let other = try write(spec(generator: #""usage": {"habitRegularity": 0.2}"#, users: 4), "other.json")
        let otherParts = try shards(other, count: 2, prefix: "o")
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: [parts[0], otherParts[1]], out: dir.path("m1"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("inconsistent shards"), "\(error)")
        }
        // A user twice and another missing, with the marker's hash updated to match.
        let runs = parts[1] + "/runs.csv"
        var lines = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[2] = lines[1]
        let edited = lines.joined(separator: "\n")
        try edited.write(toFile: runs, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: parts, out: dir.path("m2"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("edited or truncated"), "\(error)")
        }
        let marker = parts[1] + "/shard.json"
        let text = try String(contentsOfFile: marker, encoding: .utf8)
        let recorded = try XCTUnwrap(text.range(of: #""runs_sha256" ?: "[0-9a-f]{64}""#, options: .regularExpression))
        let oldHash = String(text[recorded].suffix(65).dropLast())
        // Both records of the hash (runs_sha256 and files."runs.csv"): the row count is unchanged.
        let fixed = text.replacingOccurrences(of: oldHash, with: SHA256.hex(edited))
        try fixed.write(toFile: marker, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.merge(shardDirectories: parts, out: dir.path("m3"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("more than once"), "\(error)")
        }
        for m in ["m1", "m2", "m3"] { XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path(m))) }
        XCTAssertEqual(try leftovers(), [])
    }

    func testReportRefusesAnEditedOrIncompleteRunsCSV() throws {
        let file = try write(spec())
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("out"), threads: 1), tool: .standard)
        let before = try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8)
        XCTAssertNoThrow(try ExperimentCommands.report(directory: dir.path("out"), tool: .standard))
        XCTAssertEqual(try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8), before)
        let runs = dir.path("out/runs.csv")
        let original = try String(contentsOfFile: runs, encoding: .utf8)
        try original.replacingOccurrences(of: ",0,1,", with: ",0,0,").write(toFile: runs, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.report(directory: dir.path("out"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("SHA-256"), "\(error)")
        }
        // The same duplicate with the manifest's hash updated: caught by the completeness check.
        let edited = try String(contentsOfFile: runs, encoding: .utf8)
        let manifestPath = dir.path("out/manifest.json")
        let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
            .replacingOccurrences(of: SHA256.hex(original), with: SHA256.hex(edited))
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ExperimentCommands.report(directory: dir.path("out"), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("more than once"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: dir.path("out/report.md"), encoding: .utf8), before)
        XCTAssertEqual(try leftovers(), [])
    }
}

extension ReliabilityTests {
    /// `--force` onto the directory holding the spec would delete the spec: refused.
    func testForceOntoTheSpecsDirectoryIsRefused() throws {
        try FileManager.default.createDirectory(atPath: dir.path("work"), withIntermediateDirectories: true)
        let file = try write(spec(), "work/spec.json")
        XCTAssertThrowsError(try ExperimentCommands.run(.init(specPath: file, out: dir.path("work"), threads: 1, force: true), tool: .standard)) { error in
            XCTAssertTrue("\(error)".contains("overlaps the input"), "\(error)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
        // Inside the spec's directory is fine.
        _ = try ExperimentCommands.run(.init(specPath: file, out: dir.path("work/out"), threads: 1), tool: .standard)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("work/out/runs.csv")))
    }

    /// Chunks handed over out of order by many threads come out in item
    /// order, and no more than the window is ever held.
    func testOrderedChunkWriterKeepsItemOrderWithinItsWindow() throws {
        let path = dir.path("chunks.txt")
        let writer = try OrderedChunkWriter(path: path, first: 10, window: 3, header: "h\n")
        // Items handed out from a shared counter, as the work queue does
        // (static strides could wait on an item no running thread holds).
        let next = Atomic<Int>(10)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while true {
                let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard item < 210 else { return }
                if item % 7 == 0 { usleep(200) }
                writer.submit(item, "\(item)\n")
            }
        }
        try writer.finish()
        XCTAssertLessThanOrEqual(writer.maxHeld, 3)
        let expected = "h\n" + (10..<210).map { "\($0)\n" }.joined()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), expected)
    }

    /// A full disk: `/dev/full` fails every write with ENOSPC, through the
    /// same code path as every output file (the error names the path and
    /// the reason, exit 74 in the CLI).
    func testDiskFullIsAnIOErrorNamingThePathAndReason() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        XCTAssertThrowsError(try OutputFile.write(String(repeating: "x", count: 3 << 20), to: "/dev/full")) { error in
            guard let e = error as? OutputError else { return XCTFail("\(error)") }
            XCTAssertFalse(e.refused)
            XCTAssertEqual(e.path, "/dev/full")
            XCTAssertTrue(e.message.contains("No space left on device"), e.message)
        }
    }
}
