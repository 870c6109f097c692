import Device
import Traces
import SimCore
import Foundation
import XCTest
@testable import Experiments

/// The documentation of the outputs names every column the code writes, and
/// every suite in Benchmarks/suites is a valid spec.
final class DocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testOutputsDocumentEveryColumn() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("Docs/Outputs.md"), encoding: .utf8)
        let names = UserMetrics.columns.map(\.name) + AndroidMetrics.columns.map(\.name) + DeviceEvent.columns.map(\.name)
            + ResultFiles.summaryColumns + ResultFiles.comparisonColumns + ResultFiles.runsKeyColumns
            + WakesByHour.columns + Aggregation.efficiencyColumns
        for name in names {
            XCTAssertTrue(doc.contains("`\(name)`") || doc.contains("`\(name)`, "), "Docs/Outputs.md does not document column \(name)")
        }
    }

    func testShippedSuitesAreValid() throws {
        let dir = Self.root.appendingPathComponent("Benchmarks/suites")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        XCTAssertTrue(Set(files).isSuperset(of: ["smoke.json", "default.json", "paper.json", "scale.json"]))
        for f in files {
            let spec = try ExperimentSpec.load(path: dir.appendingPathComponent(f).path, registry: .standard)
            XCTAssertEqual(spec.name + ".json", f)
        }
    }

    /// The paper suite is the default suite on more users: the same seed,
    /// policies, baseline and device, so its report answers the default's
    /// questions with narrower intervals.
    func testPaperSuiteIsTheDefaultOnMoreUsers() throws {
        let dir = Self.root.appendingPathComponent("Benchmarks/suites")
        func entries(_ name: String) throws -> [(key: String, value: JSONValue)] {
            guard case let .object(pairs) = try JSONParser.parse(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) else {
                XCTFail("\(name) is not an object"); return []
            }
            return pairs.map { (key: $0.key, value: $0.value) }
        }
        let paper = try entries("paper.json"), standard = try entries("default.json")
        let compared = Set(paper.map(\.key)).union(standard.map(\.key)).subtracting(["name", "description", "population"])
        XCTAssertTrue(compared.isSuperset(of: ["seed", "policies", "device", "baseline"]))
        for key in compared.sorted() {
            XCTAssertEqual(paper.first { $0.key == key }?.value, standard.first { $0.key == key }?.value, key)
        }
        let population = { (e: [(key: String, value: JSONValue)]) in e.first { $0.key == "population" }?.value }
        XCTAssertEqual(population(paper)?["users"], .number(2000))
        XCTAssertEqual(population(standard)?["users"], .number(200))
        XCTAssertEqual(population(paper)?["days"], population(standard)?["days"])
    }

    /// Every range the validation enforces is printed, with its key, in a row
    /// of Docs/ExperimentSpec.md: what a researcher reads is what is checked.
    func testSpecDocumentsEveryRange() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("Docs/ExperimentSpec.md"), encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("|") }
        func check<R>(_ rules: [RangeRule<R>], prefix: String = "") {
            for r in rules {
                let key = "`\(prefix)\(r.key)`"
                XCTAssertTrue(rows.contains { $0.contains(key) && $0.contains(r.range.description) },
                              "Docs/ExperimentSpec.md has no row for \(key) with range \(r.range)")
            }
        }
        check(MechanismRanges.strategy, prefix: "silentPush.")
        /// A declared type's every numeric parameter, with its range and default.
        func check(declared: [ParameterInfo], prefix: String) {
            // An object's own keys are documented in its own table (a work model's once, for every role).
            for leaf in declared.filter({ $0.kind != .object }).flatMap(\.numericLeaves) {
                let key = "`\(prefix)\(leaf.path)`", range = leaf.info.range!.description
                // A required parameter has no default; an optional one without a value says what stands in.
                let value = leaf.info.isRequired ? "required" : leaf.info.defaultNumber.map(ValueRange.show) ?? ""
                // A duration's default is printed in seconds, or as the duration string (`"30s"`).
                let spelt = leaf.info.kind == .duration && !value.isEmpty && value != "required"
                    ? "`\"\(SimDuration.seconds(leaf.info.defaultNumber!).description)\"`" : "| \(value)"
                XCTAssertTrue(rows.contains { $0.contains(key) && $0.contains(range) && ($0.contains("| \(value)") || $0.contains(spelt)) },
                              "Docs/ExperimentSpec.md has no row for \(key) with default \(value) and range \(range)")
            }
        }
        check(declared: BackendOutageModel.declarations, prefix: "backendOutages.")
        check(declared: DeadZoneModel.declarations, prefix: "deadZones.")
        check(declared: AndroidWorkRules.declarations, prefix: "android.")
        check(declared: StandbyRules.declarations, prefix: "android.standby.")
        check(declared: JobQuotaTable.declarations, prefix: "android.jobQuota.")
        check(declared: DozeRules.declarations, prefix: "android.dozeTimings.")
        check(declared: FCMRules.declarations, prefix: "android.fcm.")
        check(declared: WorkModel.declarations, prefix: "")
        check(declared: DeviceConfiguration.declarations, prefix: "")
        check(declared: AppModel.declarations, prefix: "")
        check(declared: SilentPushRules.declarations, prefix: "silentPush.")
        check(declared: BackgroundTaskRules.declarations, prefix: "beginBackgroundTask.")
        check(declared: FinishingWork.declarations, prefix: "beginBackgroundTask.")
        check(declared: BackgroundTransferRules.declarations, prefix: "backgroundURLSession.")
        check(declared: BackgroundTransferModel.declarations, prefix: "backgroundTransfer.")
        check(declared: ContinuedProcessingRules.declarations, prefix: "continuedProcessing.")
        check(declared: ContinuedProcessingJob.declarations, prefix: "continuedProcessing.")
        check(declared: EnergyParameters.declarations, prefix: "")
        check(declared: RadioParameters.declarations, prefix: "")
        check(declared: TraceApp.declarations, prefix: "apps[].")
        check(declared: UsageParameters.declarations, prefix: "usage.")
        check(declared: UsageStructureParameters.declarations, prefix: "structure.")
        check(declared: PowerParameters.declarations, prefix: "power.")
        check(declared: NetworkParameters.declarations, prefix: "network.")
        check(declared: ContentParameters.declarations, prefix: "content.")
        check(TraceSetRanges.profile)
        for r in PolicyParameterRanges.durations(in: .standard) {
            XCTAssertTrue(rows.contains { $0.contains("`\(r.policy)`") && $0.contains("`\(r.parameter)`") && $0.contains(r.range.description) },
                          "Docs/ExperimentSpec.md has no row for \(r.policy).\(r.parameter) with range \(r.range)")
        }
    }
}
