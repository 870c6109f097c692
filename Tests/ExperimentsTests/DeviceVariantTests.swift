import Device
import Foundation
import XCTest
@testable import Experiments
import Traces

/// The `devices` axis: variants merged over `device`, labels
/// `<variant>: <policy>`, errors at the variant's JSON path, and each
/// configuration simulated on its own variant's device.
final class DeviceVariantTests: XCTestCase {
    static let spec = """
    {"name": "t", "seed": 1, "population": {"users": 3, "days": 2},
     "device": {"refreshBudget": "20s", "apps": {"news": {"forgetProbability": 0.1}}},
     "devices": [{"label": "reference"},
                 {"label": "expiring", "device": {"apps": {"news": {"neverCompletesProbability": 1}}}}],
     "policies": [{"name": "never"}, {"name": "greedy"}],
     "baseline": "reference: never"}
    """

    func testVariantsMultiplyConfigurationsAndMergeOverDevice() throws {
        let spec = try ExperimentSpec.parse(Self.spec, registry: .standard)
        XCTAssertEqual(spec.configurations.map(\.label),
                       ["reference: never", "reference: greedy", "expiring: never", "expiring: greedy"])
        XCTAssertEqual(spec.baseline, 0)
        let reference = spec.device(for: spec.configurations[1])
        let expiring = spec.device(for: spec.configurations[3])
        XCTAssertEqual(reference, spec.device)
        XCTAssertEqual(expiring.refreshBudget, .seconds(20 as Int64), "the base device's keys stay")
        XCTAssertEqual(expiring.apps["news"]?.forgetProbability, 0.1, "merged into the base's app model, key by key")
        XCTAssertEqual(expiring.apps["news"]?.neverCompletesProbability, 1)
        XCTAssertEqual(reference.apps["news"]?.neverCompletesProbability, 0)
        XCTAssertNotNil(expiring.apps["podcast"], "the default app models stay")
    }

    func testBadVariantsNameTheirPath() {
        func error(_ text: String) -> String {
            do { _ = try ExperimentSpec.parse(text, registry: .standard); return "no error" } catch {
                return "\(error.path): \(error.message)"
            }
        }
        let probability = Self.spec.replacingOccurrences(of: "\"neverCompletesProbability\": 1", with: "\"neverCompletesProbability\": 2")
        XCTAssertTrue(error(probability).hasPrefix("$.devices[1].device.apps.news.neverCompletesProbability: 2 is out of range"), error(probability))
        let unknown = Self.spec.replacingOccurrences(of: "\"label\": \"reference\"", with: "\"label\": \"reference\", \"devise\": {}")
        XCTAssertTrue(error(unknown).hasPrefix("$.devices[0].devise: unknown key"), error(unknown))
        let twice = Self.spec.replacingOccurrences(of: "\"label\": \"expiring\"", with: "\"label\": \"reference\"")
        XCTAssertTrue(error(twice).contains("repeats"), error(twice))
        let empty = Self.spec.replacingOccurrences(of: #"[{"label": "reference"},"#, with: "[").replacingOccurrences(of: #"{"label": "expiring", "device": {"apps": {"news": {"neverCompletesProbability": 1}}}}]"#, with: "]")
        XCTAssertTrue(error(empty).hasPrefix("$.devices: an empty list"), error(empty))
        let typo = Self.spec.replacingOccurrences(of: "\"neverCompletesProbability\": 1", with: "\"neverCompletes\": 1")
        XCTAssertTrue(error(typo).hasPrefix("$.devices[1].device.apps.news.neverCompletes: unknown key"), error(typo))
    }

    /// Each configuration runs on its variant: the expiring variant's runs
    /// never complete, the reference's always do, and the reference rows are
    /// those of the same spec without the axis.
    func testEachConfigurationRunsOnItsVariant() throws {
        let spec = try ExperimentSpec.parse(Self.spec, registry: .standard)
        let out = try XCTUnwrap(try Runner(spec: spec).run(threads: 1))
        let never = try XCTUnwrap(out.results.metrics.firstIndex { $0.name == "runs_never_completed" })
        let run = try XCTUnwrap(out.results.metrics.firstIndex { $0.name == "tasks_run" })
        func total(_ c: Int, _ m: Int) -> Double {
            (0..<out.results.rowCount).filter { out.results.keys[$0].configuration == c }.map { out.results.row($0)[out.results.row($0).startIndex + m] }.reduce(0, +)
        }
        XCTAssertEqual(total(1, never), 0)
        let expired = try XCTUnwrap(out.results.metrics.firstIndex { $0.name == "tasks_expired" })
        XCTAssertGreaterThan(total(3, never), 10, "news's runs never complete in the expiring variant")
        XCTAssertGreaterThanOrEqual(total(3, expired), total(3, never))
        XCTAssertLessThan(total(3, never), total(3, run), "the other apps' runs complete")

        let plain = try ExperimentSpec.parse("""
        {"name": "t", "seed": 1, "population": {"users": 3, "days": 2},
         "device": {"refreshBudget": "20s", "apps": {"news": {"forgetProbability": 0.1}}},
         "policies": [{"name": "never"}, {"name": "greedy"}]}
        """, registry: .standard)
        XCTAssertEqual(plain.configurations.map(\.label), ["never", "greedy"])
        let base = try XCTUnwrap(try Runner(spec: plain).run(threads: 1))
        for r in 0..<base.results.rowCount where base.results.keys[r].configuration == 1 {
            let i = try XCTUnwrap((0..<out.results.rowCount).first { out.results.keys[$0] == base.results.keys[r] })
            // Bit patterns, so that a NaN column (a mean over nothing) equals itself.
            XCTAssertEqual(out.results.row(i).map(\.bitPattern), base.results.row(r).map(\.bitPattern))
        }
    }
}

/// Force-quit reaches the first 64 apps of a device (`AppSet`): a spec that
/// gives a later app a force-quit probability is rejected at its JSON path.
final class ForceQuitReachTests: XCTestCase {
    func spec(_ device: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse("""
        {"name": "t", "seed": 1, "traces": "unused", "device": \(device), "policies": [{"name": "never"}]}
        """, registry: .standard)
    }

    func world(apps: Int) -> TraceSet {
        let app = TraceApp(name: "a", contentUpdatesPerHour: 1, basePopularity: 1)
        return TraceSet(apps: (0..<apps).map { var a = app; a.name = "app\($0)"; return a }, days: 1, users: [])
    }

    func testAnAppPastTheSixtyFourthCannotBeForceQuit() throws {
        XCTAssertThrowsError(try WorldChecks.check(try spec(#"{"apps": {"app64": {"forceQuitProbability": 0.1}}}"#),
                                                   traceSet: world(apps: 65), threads: 1)) { error in
            XCTAssertEqual((error as? SpecError)?.path, "$.device.apps.app64.forceQuitProbability")
        }
        XCTAssertThrowsError(try WorldChecks.check(try spec(#"{"apps": {}, "defaultApp": {"forceQuitProbability": 0.1}}"#),
                                                   traceSet: world(apps: 65), threads: 1)) { error in
            XCTAssertEqual((error as? SpecError)?.path, "$.device.defaultApp.forceQuitProbability")
        }
        // The 64th app (index 63) can; so can every app of a 64-app world.
        XCTAssertNoThrow(try WorldChecks.check(try spec(#"{"apps": {"app63": {"forceQuitProbability": 0.1}}}"#),
                                               traceSet: world(apps: 65), threads: 1))
        XCTAssertNoThrow(try WorldChecks.check(try spec(#"{"apps": {}, "defaultApp": {"forceQuitProbability": 0.1}}"#),
                                               traceSet: world(apps: 64), threads: 1))
    }
}
