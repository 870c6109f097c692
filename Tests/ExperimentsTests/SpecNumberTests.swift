import Foundation
import Policies
import TestSupport
import XCTest
@testable import Experiments

/// The one rule for numbers in spec JSON (Docs/ExperimentSpec.md,
/// "Numbers"): integer fields whole and in range, the message naming the
/// JSON path and the range; NaN and ±Infinity refused as not JSON; −0 read
/// as 0; `perDay: 0` the documented off wherever a device is written.
final class SpecNumberTests: XCTestCase {
    static let head = #""name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}]"#

    func message(_ text: String) -> String? {
        do { _ = try ExperimentSpec.parse(text, registry: .standard); return nil } catch {
            return error.description
        }
    }

    func testIntegerFieldsNameTheirPathAndRange() {
        let cases: [(String, String, String)] = [
            (#"{\#(Self.head), "device": {"maxPendingRefreshPerApp": 1e308}}"#,
             "$.device.maxPendingRefreshPerApp", "allowed: [1, 1000]"),
            (#"{\#(Self.head), "device": {"maxPendingProcessingPerApp": 1.5}}"#,
             "$.device.maxPendingProcessingPerApp", "expected a whole number in [1, 1000], found 1.5"),
            (#"{\#(Self.head), "device": {"defaultApp": {"backgroundTransfer": {"probability": 0.5, "followUps": 2.5}}}}"#,
             "$.device.defaultApp.backgroundTransfer.followUps", "expected a whole number in [0, 100], found 2.5"),
            (#"{\#(Self.head), "device": {"continuedProcessing": {"maxRunning": 1e308}}}"#,
             "$.device.continuedProcessing.maxRunning", "allowed: [1, 16]"),
            (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1, "generator": {"structure": {"routineSlotsMax": 1.5}}}, "policies": [{"name": "greedy"}]}"#,
             "$.population.generator.structure.routineSlotsMax", "expected a whole number in [1, 4], found 1.5"),
            (#"{"name": "t", "seed": 18446744073709551616, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}]}"#,
             "$.seed", "allowed: [0, 9223372036854775807]"),
            (#"{"name": "t", "seed": 1e300, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}]}"#,
             "$.seed", "allowed: [0, 9223372036854775807]"),
            (#"{"name": "t", "seed": 1, "replications": 1e308, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}]}"#,
             "$.replications", "allowed: [1, 10000]"),
            (#"{"name": "t", "seed": 1, "population": {"users": 1e308, "days": 1}, "policies": [{"name": "greedy"}]}"#,
             "$.population.users", "allowed: [1, 100000000]"),
            (#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 2.5}, "policies": [{"name": "greedy"}]}"#,
             "$.population.days", "expected a whole number in [1, 3650], found 2.5"),
        ]
        for (text, path, words) in cases {
            let m = message(text) ?? "accepted"
            XCTAssertTrue(m.hasPrefix(path + ": "), "\(text)\n→ \(m)")
            XCTAssertTrue(m.contains(words), "\(text)\n→ \(m)")
        }
    }

    func testNonFiniteNumbersAreNotJSON() {
        for word in ["NaN", "Infinity", "-Infinity"] {
            let m = message(#"{\#(Self.head), "device": {"chargingWatts": \#(word)}}"#) ?? "accepted"
            XCTAssertTrue(m.contains("NaN and Infinity are not JSON numbers"), m)
        }
        let m = message(#"{\#(Self.head), "device": {"chargingWatts": 1e400}}"#) ?? "accepted"
        XCTAssertTrue(m.contains("beyond the range of a double"), m)
    }

    func testNegativeZeroReadsAsZero() throws {
        let spec = try ExperimentSpec.parse(#"{"name": "t", "seed": -0, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}], "device": {"chargingWatts": -0}}"#,
                                            registry: .standard)
        XCTAssertEqual(spec.seed, 0)
        XCTAssertEqual(spec.device.chargingWatts, 0)
        XCTAssertEqual(spec.device.chargingWatts.sign, .plus)
        XCTAssertEqual(message(#"{\#(Self.head), "device": {"maxPendingRefreshPerApp": -0}}"#),
                       "$.device.maxPendingRefreshPerApp: 0 is out of range; allowed: [1, 1000]")
    }

    /// The documented "off", written out, in `device` and in a variant; and
    /// a mechanism written with its defaults (the same root: a key whose
    /// value equals the default was taken for an unknown one).
    func testPerDayZeroIsOff() throws {
        for zero in ["0", "-0", "0.0"] {
            let text = #"{\#(Self.head), "device": {"deadZones": {"perDay": \#(zero)}, "backendOutages": {"perDay": \#(zero)}, "silentPush": {}}, "devices": [{"label": "a"}, {"label": "b", "device": {"deadZones": {"perDay": \#(zero)}, "backendOutages": {"perDay": \#(zero)}, "defaultApp": {"handlerStyle": "completionHandler", "silentPush": {"strategy": "none"}}}}]}"#
            let spec = try ExperimentSpec.parse(text, registry: .standard)
            XCTAssertFalse(spec.device.deadZones.isOn)
            XCTAssertFalse(spec.device.backendOutages.isOn)
            XCTAssertFalse(spec.deviceVariants[1].device.deadZones.isOn)
            XCTAssertEqual(spec.deviceVariants[1].device, spec.device)
        }
    }

    func testUnknownAppInAVariantIsReportedAtTheVariant() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let spec = dir.path("s.json")
        try #"{\#(Self.head), "devices": [{"label": "a"}, {"label": "b", "device": {"apps": {"nope": {}}}}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        for args in [["validate", spec], ["run", spec, "--out", dir.path("out"), "--quiet"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("$.devices[1].device.apps.nope: no app \"nope\""), r.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), before)
    }

    /// A corrupt generator.json names the file and what is wrong, in
    /// `validate` and `run` alike, and nothing is left behind.
    func testCorruptGeneratorJSONIsNamed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let traces = dir.path("traces")
        _ = try TraceCommands.generate(users: 2, days: 1, seed: 9, out: URL(fileURLWithPath: traces))
        let generator = traces + "/generator.json"
        let good = try String(contentsOfFile: generator, encoding: .utf8)
        let spec = dir.path("s.json")
        try #"{"name": "t", "seed": 1, "traces": "traces", "policies": [{"name": "greedy"}]}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let corruptions: [(String, String)] = [
            ("{\"seed\": 1,", "generator.json"),
            (good.replacingOccurrences(of: "\"seed\"", with: "\"sead\""), "required key \"seed\" is missing"),
            (good.replacingOccurrences(of: "\"users\" : 2", with: "\"users\" : \"two\""), "at $.users: expected a number, found a string"),
        ]
        for (text, words) in corruptions {
            try text.write(toFile: generator, atomically: true, encoding: .utf8)
            let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
            let validate = try CLI.run(["validate", spec])
            let run = try CLI.run(["run", spec, "--out", dir.path("out"), "--quiet"])
            for r in [validate, run] {
                XCTAssertEqual(r.status, 65, r.stderr)
                XCTAssertTrue(r.stderr.contains("generator.json"), r.stderr)
                XCTAssertTrue(r.stderr.contains(words), "\(words) not in \(r.stderr)")
                for opaque in ["DecodingError", "dataCorrupted", "CodingKeys"] { XCTAssertFalse(r.stderr.contains(opaque), r.stderr) }
            }
            XCTAssertEqual(validate.stderr, run.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), before)
        }
    }

    /// A researcher's policy declares its durations' ranges as its numbers'
    /// (``PolicyParameter/range``), and a spec outside them is refused by
    /// the same path-and-range message, through `validate` and `run` alike.
    func testAResearchersPolicyDeclaresItsDurationRange() throws {
        var registry = PolicyRegistry.standard
        registry.register(PolicyDescriptor(
            name: "held", summary: "greedy (a test of declared ranges)",
            parameters: [
                PolicyParameter("hold", .duration, default: .string("1h"), range: 60...86_400, "how long"),
                PolicyParameter("share", .number, default: .number(0.5), range: 0...1, "how much"),
            ]) { _, _ in GreedyPolicy() })
        func message(_ params: String) -> String? {
            do {
                _ = try ExperimentSpec.parse(#"{"name": "t", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "held", "params": {\#(params)}}]}"#,
                                             registry: registry)
                return nil
            } catch { return error.description }
        }
        XCTAssertNil(message(#""hold": "2h", "share": 1"#))
        XCTAssertEqual(message(#""hold": "25h""#), "$.policies[0].params.hold: 90000 s is out of range; allowed: [60, 86400] s")
        XCTAssertEqual(message(#""hold": "30s""#), "$.policies[0].params.hold: 30 s is out of range; allowed: [60, 86400] s")
        XCTAssertEqual(message(#""share": 1e308"#), "$.policies[0].params.share: 1e+308 is out of range; allowed: [0, 1]")
    }
}
