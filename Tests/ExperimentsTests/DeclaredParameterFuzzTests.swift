import Device
import Foundation
import TestSupport
import Traces
import XCTest
@testable import Experiments

/// Every numeric parameter a type declares (``DeclaredParameters``), at
/// every place a spec can write it, given the hostile numbers of the number
/// rule: 1e308, −1e308, −0 and (for integers) a fraction; durations
/// "1e308s" and "-0s". The list of fields comes from the declarations, not
/// from this file: a parameter declared tomorrow is fuzzed tomorrow. Each
/// value is either accepted, as the declared range says it must be, or
/// refused with an error at the field's JSON path naming its range.
final class DeclaredParameterFuzzTests: XCTestCase {
    /// Where each declared type is written in a spec, with the keys it
    /// needs beside the fuzzed one (a required probability).
    static let mounts: [(path: [String], declarations: [ParameterInfo])] = [
        (["device", "backendOutages"], BackendOutageModel.declarations),
        (["device", "deadZones"], DeadZoneModel.declarations),
        (["device", "silentPush"], SilentPushRules.declarations),
        (["device", "beginBackgroundTask"], BackgroundTaskRules.declarations),
        (["device", "backgroundURLSession"], BackgroundTransferRules.declarations),
        (["device", "continuedProcessing"], ContinuedProcessingRules.declarations),
        (["device", "defaultApp", "refresh"], WorkModel.declarations),
        (["device", "apps", "news", "processing"], WorkModel.declarations),
        (["device", "defaultApp", "backgroundTransfer"], BackgroundTransferModel.declarations),
        (["device", "defaultApp", "beginBackgroundTask"], FinishingWork.declarations),
        (["device", "apps", "news", "continuedProcessing"], ContinuedProcessingJob.declarations),
    ]

    func testEveryDeclaredNumberIsRefusedWithItsPathAndRangeOrAccepted() throws {
        var fields = 0
        for mount in Self.mounts {
            for leaf in mount.declarations.flatMap(\.numericLeaves) {
                let keys = leaf.path.split(separator: ".").map(String.init)
                let full = mount.path + keys
                // The mount's required keys beside the fuzzed one (a nested work model's parent needs its probability).
                let required = mount.declarations.filter(\.isRequired).map(\.key).filter { $0 != keys.first }
                let range = try XCTUnwrap(leaf.info.range)
                var values: [(text: String, number: Double?)] = []
                switch leaf.info.kind {
                case .duration: values = [("\"1e308s\"", nil), ("\"-0s\"", 0), ("\"100000000d\"", 8.64e12)]
                case .integer: values = [("1e308", 1e308), ("-1e308", -1e308), ("-0", 0), ("0.5", 0.5), ("2.5", 2.5)]
                default: values = [("1e308", 1e308), ("-1e308", -1e308), ("-0", 0)]
                }
                fields += 1
                for (text, number) in values {
                    let withParent = Self.specNested(mount.path, required: required, leafPath: keys, value: text)
                    let where_ = "$." + full.joined(separator: ".")
                    let isWhole = number.map { $0 == $0.rounded() } ?? true
                    let allowed = number.map { range.contains($0) && (leaf.info.kind != .integer || isWhole) } ?? false
                    do {
                        _ = try ExperimentSpec.parse(withParent, registry: .standard)
                        XCTAssertTrue(allowed, "\(where_) = \(text) was accepted outside \(range)")
                    } catch {
                        if allowed && number != nil {
                            XCTFail("\(where_) = \(text) is inside \(range) but was refused: \(error)")
                            continue
                        }
                        XCTAssertEqual(error.path, where_, "\(text): \(error)")
                        if leaf.info.kind != .duration || number != nil {
                            let names = error.message.contains(range.description)
                                || error.message.contains("[\(ValueRange.show(range.lower)), \(ValueRange.show(range.upper))]")
                            XCTAssertTrue(names, "\(where_) = \(text): the message does not name \(range): \(error.message)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(fields, 30, "the declarations hold fewer numeric fields than the spec documents")
    }

    /// `value` at `leafPath` under `mount`, with the mount's required keys.
    static func specNested(_ mount: [String], required: [String], leafPath: [String], value: String) -> String {
        var inner = "\"\(leafPath.last!)\": \(value)"
        for key in leafPath.dropLast().reversed() { inner = "\"\(key)\": {\(inner)}" }
        for key in required { inner += ", \"\(key)\": 0.5" }
        for key in mount.reversed() { inner = "\"\(key)\": {\(inner)}" }
        return #"{"name": "f", "seed": 1, "population": {"users": 2, "days": 1}, "policies": [{"name": "greedy"}], \#(inner)}"#
    }

    /// The same refusals through the command line: exit 65, the same
    /// message from `validate` and `run`, nothing left behind. One field of
    /// each declared type (the in-process test above covers every field).
    func testRefusalsExit65FromValidateAndRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for mount in Self.mounts {
            guard let leaf = mount.declarations.flatMap(\.numericLeaves).first(where: { $0.info.kind != .duration }) else { continue }
            let keys = leaf.path.split(separator: ".").map(String.init)
            let text = Self.specNested(mount.path, required: mount.declarations.filter(\.isRequired).map(\.key).filter { $0 != keys.first },
                                       leafPath: keys, value: "1e308")
            let spec = dir.path("s.json")
            try text.write(toFile: spec, atomically: true, encoding: .utf8)
            let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
            let validate = try CLI.run(["validate", spec])
            let run = try CLI.run(["run", spec, "--out", dir.path("out"), "--quiet"])
            let where_ = "$." + (mount.path + keys).joined(separator: ".")
            XCTAssertEqual(validate.status, 65, validate.stderr)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(validate.stderr.contains(where_ + ": "), "\(where_) not in \(validate.stderr)")
            XCTAssertEqual(validate.stderr, run.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), before)
        }
    }
}
