// A spec that takes the sessions from a trace set and synthesises the other
// streams (Docs/ExperimentSpec.md, "Trace-set worlds"): the same results as
// the generated world it came from, the same errors from `validate` and
// `run`, and an imported LSApp set with sessions only run through `bgbench run`.
import Foundation
import Stats
import TestSupport
import Traces
import XCTest
@testable import Experiments

final class TraceSynthesisRunTests: XCTestCase {
    var dir: TemporaryDirectory!
    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir.remove() }

    static let policies = """
    "policies": [{ "name": "never" }, { "name": "fixed-interval", "params": { "interval": "1h" } },
                 { "name": "usage-predictor" }]
    """

    func write(_ name: String, _ text: String) throws -> String {
        let path = dir.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func runs(_ spec: String, threads: Int = 2) throws -> String {
        let out = dir.path(UUID().uuidString)
        _ = try ExperimentCommands.run(.init(specPath: spec, out: out, threads: threads), tool: .standard)
        return try String(contentsOfFile: out + "/runs.csv", encoding: .utf8)
    }

    func testSynthesisingTheStreamsOfAGeneratedSetReproducesTheGeneratedRun() throws {
        let seed: UInt64 = 41, users = 4, days = 2
        let generated = try write("generated.json", """
        { "name": "g", "seed": \(seed), "population": { "users": \(users), "days": \(days) }, \(Self.policies) }
        """)
        // The set the generated world draws for replication 0, without its streams.
        let worldSeed = StreamKey.derive(seed: seed, user: 0, stream: "replication")
        let set = dir.url.appendingPathComponent("set")
        try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: worldSeed, days: days).traceSet(users: users), to: set)
        for f in [TraceSetFile.charging, TraceSetFile.lowPowerMode, TraceSetFile.network, TraceSetFile.contentUpdates] {
            try FileManager.default.removeItem(at: set.appendingPathComponent(f))
        }
        let synthesised = try write("synthesised.json", """
        { "name": "s", "seed": \(seed),
          "traces": { "path": "set", "synthesise": ["content", "network", "power"], "generator": {} }, \(Self.policies) }
        """)
        let expected = try runs(generated)
        XCTAssertEqual(try runs(synthesised, threads: 1), expected)
        XCTAssertEqual(try runs(synthesised, threads: 3), expected)
        // Another seed synthesises other streams on the same sessions.
        let other = try write("other.json", """
        { "name": "o", "seed": \(seed + 1), "traces": { "path": "set", "synthesise": ["power", "network", "content"] }, \(Self.policies) }
        """)
        XCTAssertNotEqual(try runs(other), expected)
    }

    /// `validate` and `run` reject the same specs with the same JSON path.
    func assertRejected(_ traces: String, path: String, containing text: String, line: UInt = #line) throws {
        let spec = try write("bad.json", "{ \"name\": \"b\", \"seed\": 1, \"traces\": \(traces), \(Self.policies) }")
        var messages: [String] = []
        do { _ = try ExperimentCommands.validate(specPath: spec, threads: 1, registry: .standard) } catch {
            messages.append("\(error)")
        }
        do { _ = try runs(spec) } catch { messages.append("\(error)") }
        XCTAssertEqual(messages.count, 2, "both reject", line: line)
        XCTAssertEqual(Set(messages).count, 1, "same error: \(messages)", line: line)
        XCTAssertTrue(messages.first?.contains("\(spec): \(path): ") ?? false, "\(messages)", line: line)
        XCTAssertTrue(messages.first?.contains(text) ?? false, "\(messages)", line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out")), line: line)
    }

    func testBadSynthesisSpecsAreRejectedWithTheirJSONPath() throws {
        let log = ImportFixture.lsapp
        try TraceCommands.importLog(log, format: .lsapp, seed: 0, out: dir.url.appendingPathComponent("bare"), sessionsOnly: true)
        try assertRejected("\"bare\"", path: "$.traces", containing: "lacks power (charging.csv, low_power_mode.csv); network (network.csv); content (content_updates.csv)")
        try assertRejected("{\"path\": \"bare\", \"synthesise\": [\"network\", \"power\"]}", path: "$.traces.synthesise",
                           containing: "\"synthesise\": [\"power\", \"network\", \"content\"]")
        try assertRejected("{\"path\": \"bare\", \"synthesise\": [\"sessions\"]}", path: "$.traces.synthesise[0]", containing: "unknown stream")
        try assertRejected("{\"path\": \"bare\", \"synthesise\": [\"power\", \"power\"]}", path: "$.traces.synthesise[1]", containing: "twice")
        try assertRejected("{\"path\": \"bare\", \"generator\": {}}", path: "$.traces.generator", containing: "list them in \"synthesise\"")
        try assertRejected("{\"synthesise\": [\"power\"]}", path: "$.traces", containing: "\"path\"")
        try assertRejected("{\"path\": \"bare\", \"synthesise\": [\"power\", \"network\", \"content\"], \"generator\": {\"network\": {\"homeWifiProbability\": 7}}}",
                           path: "$.traces.generator.network.homeWifiProbability", containing: "allowed: [0, 1]")
    }

    func testAnImportedLSAppSetWithSessionsOnlyRunsThroughTheCLI() throws {
        let set = dir.path("lsapp")
        var r = try CLI.run(["traces", "import", "--format", "lsapp", "--sessions-only", "--out", set, ImportFixture.lsapp.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let spec = try write("lsapp.json", """
        { "name": "lsapp", "seed": 3,
          "traces": { "path": "lsapp", "synthesise": ["power", "network", "content"] }, \(Self.policies) }
        """)
        r = try CLI.run(["validate", spec])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("2 users × 6 days; power, network, content synthesised"), r.stdout)
        r = try CLI.run(["run", spec, "--out", dir.path("out"), "--threads", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try String(contentsOfFile: dir.path("out/runs.csv"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rows.count, 1 + 3 * 2)
        let manifest = try String(contentsOfFile: dir.path("out/manifest.json"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"synthesise\""), "the manifest echoes the spec")
        // Without the synthesis the same set is an input error (65), and nothing is written.
        let bare = try write("bare.json", "{ \"name\": \"bare\", \"seed\": 3, \"traces\": \"lsapp\", \(Self.policies) }")
        r = try CLI.run(["run", bare, "--out", dir.path("out2")])
        XCTAssertEqual(r.status, 65)
        XCTAssertTrue(r.stderr.contains("$.traces: the trace set lacks power"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out2")))
    }
}

enum ImportFixture {
    static let lsapp = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Datasets/import-examples/lsapp-sample.tsv").standardized
}

extension TraceSynthesisRunTests {
    func testStatsOfASessionsOnlySetSayWhichStreamsAreMissing() throws {
        try TraceCommands.importLog(ImportFixture.lsapp, format: .lsapp, seed: 0, out: dir.url.appendingPathComponent("bare"), sessionsOnly: true)
        let text = try TraceCommands.stats(directory: dir.url.appendingPathComponent("bare"))
        XCTAssertTrue(text.hasPrefix("The set omits the power, network, content stream(s)"), text)
        let full = try TraceCommands.stats(directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Datasets/sample-20x7").standardized)
        XCTAssertFalse(full.contains("The set omits"))
    }
}

/// `"measuredBattery": true` on the imported niimpy month: the level
/// follows the real phone, background energy on top; off by default; a
/// set without readings is refused with the JSON path.
extension TraceSynthesisRunTests {
    static let month = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Datasets/aware-niimpy/month").standardized.path

    func testTheMeasuredBatteryDrivesTheLevelOfTheRealMonth() throws {
        func spec(_ name: String, measured: Bool) throws -> String {
            try write("\(name).json", """
            { "name": "\(name)", "seed": 1,
              "traces": { "path": "\(Self.month)", "synthesise": ["network", "content"], "measuredBattery": \(measured) },
              "policies": [{ "name": "never" }, { "name": "greedy" }] }
            """)
        }
        func minimum(_ csv: String) throws -> [String: Double] {
            let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let c = try XCTUnwrap(lines[0].firstIndex(of: "configuration")), m = try XCTUnwrap(lines[0].firstIndex(of: "min_battery_pct"))
            return Dictionary(uniqueKeysWithValues: lines.dropFirst().map { ($0[c], Double($0[m])!) })
        }
        let measured = try minimum(runs(try spec("measured", measured: true)))
        let modelled = try minimum(runs(try spec("modelled", measured: false)))
        // With no background work the level is the real phone's: its lowest reading, 15 %.
        XCTAssertEqual(measured["never"]!, 15, accuracy: 1e-6)
        XCTAssertLessThan(measured["greedy"]!, measured["never"]!, "background energy comes on top of the measured level")
        XCTAssertNotEqual(modelled["never"]!, measured["never"]!, "off: the modelled drains")
        // A set without battery_level.csv cannot drive the level.
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Datasets/sample-20x7").standardized.path
        let bad = try write("bad.json", """
        { "name": "bad", "seed": 1, "traces": { "path": "\(sample)", "measuredBattery": true }, "policies": [{ "name": "never" }] }
        """)
        for command in [["validate", bad], ["run", bad, "--out", dir.path("never")]] {
            let r = try CLI.run(command)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("$.traces.measuredBattery: the trace set has no battery_level.csv"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("never")))
    }

    func testAMalformedAwareTableExitsWith65NamingTheFileAndLine() throws {
        let table = dir.path("battery.csv")
        try "time,battery_level,battery_status,battery_health,battery_adaptor\n1488315824.049,100,5,2,2\n1488321326.498,100,9,2,2\n"
            .write(toFile: table, atomically: true, encoding: .utf8)
        let r = try CLI.run(["traces", "import", "--format", "aware", "--seed", "1", "--time-zone", "UTC", "--out", dir.path("set"), table])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("battery.csv:3:3: expected a battery status"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("set")), "nothing is left behind")
        let usage = try CLI.run(["traces", "import", "--format", "aware", "--seed", "1", "--out", dir.path("set"), table])
        XCTAssertEqual(usage.status, 64, "--time-zone is required")
    }
}
