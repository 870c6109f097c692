import XCTest
@testable import Experiments
import Traces

final class JSONTests: XCTestCase {
    func testParsesNestedDocumentKeepingKeyOrder() throws {
        let v = try JSONParser.parse(#"{"b": [1, 2.5, -3e2, true, null], "a": {"s": "x\"\u00e9\n"}}"#)
        guard case let .object(pairs) = v else { return XCTFail("not an object") }
        XCTAssertEqual(pairs.map(\.key), ["b", "a"])
        XCTAssertEqual(v["b"], .array([.number(1), .number(2.5), .number(-300), .bool(true), .null]))
        XCTAssertEqual(v["a"]?["s"], .string("x\"é\n"))
    }

    func testSyntaxErrorsNameLineAndColumn() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"a\": 1,\n  \"b\": }", 3, 8, "expected a value"),
            ("{\"a\": 1,}", 1, 9, "expected a quoted key"),
            ("[1 2]", 1, 4, "expected ',' or ']'"),
            ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key"),
            ("{\"a\": tru}", 1, 10, "expected true"),
            ("\"abc", 1, 5, "unterminated string"),
            ("{} x", 1, 4, "unexpected text"),
            ("01", 1, 2, "unexpected text"),
        ]
        for (text, line, column, fragment) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                guard let e = error as? JSONSyntaxError else { return XCTFail("wrong error type") }
                XCTAssertEqual(e.line, line, text)
                XCTAssertEqual(e.column, column, text)
                XCTAssertTrue(e.message.contains(fragment), "\(text): \(e.message)")
            }
        }
    }

    func testSerializationRoundTrips() throws {
        let text = #"{"name":"x","n":[1,0.25,-7],"ok":false,"z":null,"e":{}}"#
        let v = try JSONParser.parse(text)
        XCTAssertEqual(v.serialized(), text)
        XCTAssertEqual(try JSONParser.parse(v.serialized(pretty: true)), v)
    }

    func testNodeAccessorsReportPaths() throws {
        let root = JSONNode(try JSONParser.parse(#"{"a": {"n": 2.5, "d": "5x", "list": [1, "two"]}}"#))
        let a = try XCTUnwrap(root["a"])
        XCTAssertThrowsError(try a["n"]!.int(in: 0...10)) { XCTAssertEqual(($0 as! SpecError).path, "$.a.n") }
        XCTAssertThrowsError(try a["d"]!.duration()) { error in
            let e = error as! SpecError
            XCTAssertEqual(e.path, "$.a.d")
            XCTAssertTrue(e.message.contains("15m"))
        }
        let list = try a["list"]!.array()
        XCTAssertThrowsError(try list[1].double()) { XCTAssertEqual(($0 as! SpecError).path, "$.a.list[1]") }
        XCTAssertThrowsError(try a.object(knownKeys: ["n", "d"])) { error in
            let e = error as! SpecError
            XCTAssertEqual(e.path, "$.a.list")
            XCTAssertTrue(e.message.contains("known keys here: n, d"))
        }
        XCTAssertThrowsError(try JSONNode(.number(-1)).int(in: 0...10))
        XCTAssertThrowsError(try JSONNode(.string("-5s")).duration()) { error in
            XCTAssertTrue((error as! SpecError).message.contains("negative"))
        }
    }

    struct Inner: Codable, Equatable { var rate: Double = 1; var name: String = "n" }
    struct Outer: Codable, Equatable { var inner: Inner; var items: [Inner] }

    func testCodableDecodingRejectsUnknownKeysAndTypeErrorsWithPaths() throws {
        let ok = try CodableFromJSON.decode(Outer.self, from: JSONNode(try JSONParser.parse(
            #"{"inner": {"rate": 2, "name": "a"}, "items": [{"rate": 3, "name": "b"}]}"#)))
        XCTAssertEqual(ok, Outer(inner: Inner(rate: 2, name: "a"), items: [Inner(rate: 3, name: "b")]))

        XCTAssertThrowsError(try CodableFromJSON.decode(Outer.self, from: JSONNode(try JSONParser.parse(
            #"{"inner": {"rate": 2, "name": "a"}, "items": [{"rate": 3, "name": "b", "rat": 1}]}"#), path: "$.device"))) { error in
            let e = error as! SpecError
            XCTAssertEqual(e.path, "$.device.items[0].rat")
            XCTAssertTrue(e.message.contains("unknown key"))
        }
        XCTAssertThrowsError(try CodableFromJSON.decode(Outer.self, from: JSONNode(try JSONParser.parse(
            #"{"inner": {"rate": "fast", "name": "a"}, "items": []}"#)))) { error in
            XCTAssertEqual((error as! SpecError).path, "$.inner.rate")
        }
        XCTAssertThrowsError(try CodableFromJSON.decode(Outer.self, from: JSONNode(try JSONParser.parse(#"{"items": []}"#)))) { error in
            let e = error as! SpecError
            XCTAssertEqual(e.path, "$.inner")
            XCTAssertTrue(e.message.contains("missing"))
        }
    }
}
