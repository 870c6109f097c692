import Foundation
import Traces
import XCTest

final class ParametersTests: XCTestCase {
    func testMissingKeysTakeDefaultsAndRoundTrip() throws {
        let json = #"{"usage": {"habitRegularity": 1}, "content": {"rateScale": 2}}"#
        let p = try JSONDecoder().decode(GeneratorParameters.self, from: Data(json.utf8))
        var expected = GeneratorParameters.default
        expected.usage.habitRegularity = 1
        expected.content.rateScale = 2
        XCTAssertEqual(p, expected)
        let again = try JSONDecoder().decode(GeneratorParameters.self, from: JSONEncoder().encode(p))
        XCTAssertEqual(again, p)
        XCTAssertEqual(try JSONDecoder().decode(GeneratorParameters.self, from: Data("{}".utf8)), .default)
    }

    func testDeclaredKeysAreEveryEncodedKey() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(GeneratorParameters.default)) as! [String: Any]
        XCTAssertEqual(Set(object.keys), Set(GeneratorParameters.parameters.map(\.key)))
        for (key, known) in [("usage", UsageParameters.parameters.map(\.key)), ("power", PowerParameters.parameters.map(\.key)),
                             ("network", NetworkParameters.parameters.map(\.key)),
                             ("content", ContentParameters.parameters.map(\.key)),
                             ("structure", UsageStructureParameters.parameters.map(\.key))] {
            XCTAssertEqual(Set((object[key] as! [String: Any]).keys), Set(known), key)
        }
    }

    func testDefaultsAreValidAndProblemsAreReportedAtTheirPaths() {
        XCTAssertNil(GeneratorParameters.default.rangeProblem)
        var p = GeneratorParameters.default
        p.usage.habitRegularity = 1.5
        XCTAssertEqual(p.rangeProblem?.path, "usage.habitRegularity")
        XCTAssertEqual(p.rangeProblem?.message, "1.5 is out of range; allowed: [0, 1]")
        p = .default
        p.apps[3].name = "Bad Name"
        XCTAssertEqual(p.rangeProblem?.path, "apps[3].name")
        p = .default
        p.apps[4].name = p.apps[1].name
        XCTAssertEqual(p.rangeProblem?.path, "apps[4].name")
        p = .default
        p.power.topUpMinMinutes = 200
        XCTAssertEqual(p.rangeProblem?.path, "power.topUpMinMinutes")
        XCTAssertTrue(p.rangeProblem?.message.contains("topUpMaxMinutes") ?? false)
    }

    /// Decoding refuses what `rangeProblem` refuses, at the JSON path, and an unknown key.
    func testDecodingRefusesOutOfRangeAndUnknownKeysAtTheirPath() {
        for (json, path) in [(#"{"usage": {"tailShape": 0}}"#, ".usage.tailShape"),
                             (#"{"apps": [{"name": "a", "contentUpdatesPerHour": 1, "habitHour": 24}]}"#, ".apps[0].habitHour"),
                             (#"{"network": {"offlineMinMinutes": 200, "offlineMaxMinutes": 100}}"#, ".network.offlineMinMinutes"),
                             (#"{"usage": {"weekdayHourlyWeights": [1, 2]}}"#, ".usage.weekdayHourlyWeights"),
                             (#"{"power": {"batteryCapacity": 12}}"#, ".power.batteryCapacity")] {
            XCTAssertThrowsError(try JSONDecoder().decode(GeneratorParameters.self, from: Data(json.utf8)), json) { error in
                guard let e = error as? DecodingError else { return XCTFail("\(error)") }
                XCTAssertEqual(DecodingErrorText.describe(e).path, path, json)
            }
        }
    }

    func testAnAppNeedsOnlyANameAndARate() throws {
        let json = #"{"apps": [{"name": "feed", "contentUpdatesPerHour": 3}]}"#
        let p = try JSONDecoder().decode(GeneratorParameters.self, from: Data(json.utf8))
        XCTAssertEqual(p.apps, [TraceApp(name: "feed", contentUpdatesPerHour: 3, basePopularity: 0.1)])
        XCTAssertNil(p.rangeProblem)
        XCTAssertThrowsError(try JSONDecoder().decode(TraceApp.self, from: Data(#"{"name": "x"}"#.utf8)))
    }
}
