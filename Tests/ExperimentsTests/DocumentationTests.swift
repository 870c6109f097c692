import Device
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
        let names = UserMetrics.columns.map(\.name) + DeviceEvent.columns.map(\.name)
            + ResultFiles.summaryColumns + ResultFiles.comparisonColumns + ResultFiles.runsKeyColumns
            + WakesByHour.columns + Aggregation.efficiencyColumns
        for name in names {
            XCTAssertTrue(doc.contains("`\(name)`") || doc.contains("`\(name)`, "), "Docs/Outputs.md does not document column \(name)")
        }
    }

    func testShippedSuitesAreValid() throws {
        let dir = Self.root.appendingPathComponent("Benchmarks/suites")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        XCTAssertTrue(Set(files).isSuperset(of: ["smoke.json", "default.json", "scale.json"]))
        for f in files {
            let spec = try ExperimentSpec.load(path: dir.appendingPathComponent(f).path, registry: .standard)
            XCTAssertEqual(spec.name + ".json", f)
        }
    }
}
