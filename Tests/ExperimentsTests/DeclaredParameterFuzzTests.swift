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
/// refused with an error at the field's JSON path naming its range; a value
/// inside its range may be refused only by a documented rule between the
/// keys of its own object (a maximum below its minimum), naming the field.
final class DeclaredParameterFuzzTests: XCTestCase {
    /// Where a declared type is written in a spec: the device (and, below
    /// it, every declared object: apps, mechanisms, world models), and a
    /// named app (its models sit in a dictionary the declarations cannot walk).
    static let roots: [(path: [String], declarations: [ParameterInfo])] = [
        (["device"], DeviceConfiguration.declarations),
        (["device", "apps", "news"], AppModel.declarations),
        (["population", "generator"], GeneratorParameters.declarations),
    ]

    /// One numeric field: its keys from the root (an array of objects as
    /// `key[]`), the keys required in each object on the way (a transfer
    /// needs its probability, an app its name), and its declaration.
    struct Field { var keys: [String]; var required: [[ParameterInfo]]; var info: ParameterInfo }

    static func fields(_ declarations: [ParameterInfo], keys: [String] = [], required: [[ParameterInfo]] = []) -> [Field] {
        let here = declarations.filter(\.isRequired)
        return declarations.flatMap { d -> [Field] in
            if d.kind == .object { return fields(d.children, keys: keys + [d.key], required: required + [here]) }
            if d.kind == .list { return fields(d.children, keys: keys + [d.key + "[]"], required: required + [here]) }
            return d.range == nil ? [] : [Field(keys: keys + [d.key], required: required + [here], info: d)]
        }
    }

    /// The field's JSON path under its root: an array's element is its first (`apps[0]`).
    static func path(_ root: [String], _ field: Field) -> String {
        "$." + (root + field.keys).map { $0.hasSuffix("[]") ? String($0.dropLast(2)) + "[0]" : $0 }.joined(separator: ".")
    }

    /// A spec with `value` at `root + field.keys`, every object on the way
    /// holding its required keys (numbers at 0.5, inside every range they
    /// have; text as "x"). An array holds the element and a second one with
    /// only its required keys (another app, so the first may be uninstalled).
    static func spec(root: [String], field: Field, value: String) -> String {
        func filler(_ r: ParameterInfo, _ n: Int) -> String { "\"\(r.key)\": " + (r.kind == .text ? "\"x\(n)\"" : "0.5") }
        var inner = "\"\(field.keys.last!)\": \(value)"
        for level in field.keys.indices.reversed() {
            for r in field.required[level] where r.key != field.keys[level] { inner += ", " + filler(r, 0) }
            if level > 0 {
                let key = field.keys[level - 1]
                if key.hasSuffix("[]") {
                    let other = field.required[level].map { filler($0, 1) }.joined(separator: ", ")
                    inner = "\"\(key.dropLast(2))\": [{\(inner)}, {\(other)}]"
                } else {
                    inner = "\"\(key)\": {\(inner)}"
                }
            }
        }
        var population = #""users": 2, "days": 1"#
        if root.first == "population" {
            for key in root.dropFirst().reversed() { inner = "\"\(key)\": {\(inner)}" }
            population += ", " + inner
            return #"{"name": "f", "seed": 1, "population": {\#(population)}, "policies": [{"name": "greedy"}]}"#
        }
        for key in root.reversed() { inner = "\"\(key)\": {\(inner)}" }
        return #"{"name": "f", "seed": 1, "population": {\#(population)}, "policies": [{"name": "greedy"}], \#(inner)}"#
    }

    func testEveryDeclaredNumberIsRefusedWithItsPathAndRangeOrAccepted() throws {
        var fields = 0
        for root in Self.roots {
            for field in Self.fields(root.declarations) {
                let range = try XCTUnwrap(field.info.range)
                var values: [(text: String, number: Double?)] = []
                switch field.info.kind {
                case .duration: values = [("\"1e308s\"", nil), ("\"-0s\"", 0), ("\"100000000d\"", 8.64e12)]
                case .integer: values = [("1e308", 1e308), ("-1e308", -1e308), ("-0", 0), ("0.5", 0.5), ("2.5", 2.5)]
                default: values = [("1e308", 1e308), ("-1e308", -1e308), ("-0", 0)]
                }
                fields += 1
                for (text, number) in values {
                    let withParent = Self.spec(root: root.path, field: field, value: text)
                    let where_ = Self.path(root.path, field)
                    let isWhole = number.map { $0 == $0.rounded() } ?? true
                    let allowed = number.map { range.contains($0) && (field.info.kind != .integer || isWhole) } ?? false
                    do {
                        _ = try ExperimentSpec.parse(withParent, registry: .standard)
                        XCTAssertTrue(allowed, "\(where_) = \(text) was accepted outside \(range)")
                    } catch {
                        if allowed {
                            // Only a rule between the keys of the field's own object may refuse it, naming the field.
                            let parent = where_[..<where_.lastIndex(of: ".")!]
                            let byItsObject = error.path.hasPrefix(parent + ".") && !error.path.dropFirst(parent.count + 1).contains(".")
                                && (error.path == where_ || error.message.contains(field.keys.last!))
                            XCTAssertTrue(byItsObject, "\(where_) = \(text) is inside \(range) but was refused: \(error)")
                            continue
                        }
                        XCTAssertEqual(error.path, where_, "\(text): \(error)")
                        if field.info.kind != .duration || number != nil {
                            let names = error.message.contains(range.description)
                                || error.message.contains("[\(ValueRange.show(range.lower)), \(ValueRange.show(range.upper))]")
                            XCTAssertTrue(names, "\(where_) = \(text): the message does not name \(range): \(error.message)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(fields, 120, "the declarations hold fewer numeric fields than the spec documents")
    }

    /// The fields come from the declarations, so an object declared under
    /// `device.android` is fuzzed with no change here: Android's rule sets
    /// (`standby`, `jobQuota`, `dozeTimings`, `fcm`) are reached.
    func testTheFieldsReachAndroidsRuleSets() {
        let parents = Set(Self.fields(DeviceConfiguration.declarations).map { $0.keys.dropLast().joined(separator: ".") })
        for object in ["android", "android.standby", "android.jobQuota", "android.dozeTimings", "android.fcm"] {
            XCTAssertTrue(parents.contains(object), "the fuzz test does not reach device.\(object)")
        }
    }

    /// The same refusals through the command line: exit 65, the same
    /// message from `validate` and `run`, nothing left behind. One field of
    /// each declared type (the in-process test above covers every field).
    func testRefusalsExit65FromValidateAndRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // One field of each declared object: the first number under each distinct parent.
        var seen: Set<[String]> = []
        for root in Self.roots {
            for field in Self.fields(root.declarations)
            where field.info.kind != .duration && seen.insert(root.path + field.keys.dropLast()).inserted {
                let spec = dir.path("s.json")
                try Self.spec(root: root.path, field: field, value: "1e308").write(toFile: spec, atomically: true, encoding: .utf8)
                let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
                let validate = try CLI.run(["validate", spec])
                let run = try CLI.run(["run", spec, "--out", dir.path("out"), "--quiet"])
                let where_ = Self.path(root.path, field)
                XCTAssertEqual(validate.status, 65, validate.stderr)
                XCTAssertEqual(run.status, 65, run.stderr)
                XCTAssertTrue(validate.stderr.contains(where_ + ": "), "\(where_) not in \(validate.stderr)")
                XCTAssertEqual(validate.stderr, run.stderr)
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted(), before)
            }
        }
        XCTAssertGreaterThan(seen.count, 16)
    }
}
