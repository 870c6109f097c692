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

    func testKnownKeysListEveryEncodedKey() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(GeneratorParameters.default)) as! [String: Any]
        XCTAssertEqual(Set(object.keys), Set(GeneratorParameters.knownKeys))
        for (key, known) in [("usage", UsageParameters.knownKeys), ("power", PowerParameters.knownKeys),
                             ("network", NetworkParameters.knownKeys), ("content", ContentParameters.knownKeys)] {
            XCTAssertEqual(Set((object[key] as! [String: Any]).keys), Set(known), key)
        }
    }

    func testDefaultsAreValidAndProblemsAreReported() {
        XCTAssertEqual(GeneratorParameters.default.problems(), [])
        var p = GeneratorParameters.default
        p.usage.habitRegularity = 1.5
        p.apps[0].name = "Bad Name"
        let problems = p.problems()
        XCTAssert(problems.contains { $0.contains("habitRegularity") })
        XCTAssert(problems.contains { $0.contains("apps[0].name") })
    }

    func testAnAppNeedsOnlyANameAndARate() throws {
        let json = #"{"apps": [{"name": "feed", "contentUpdatesPerHour": 3}]}"#
        let p = try JSONDecoder().decode(GeneratorParameters.self, from: Data(json.utf8))
        XCTAssertEqual(p.apps, [TraceApp(name: "feed", contentUpdatesPerHour: 3, basePopularity: 0.1)])
        XCTAssertEqual(p.problems(), [])
        XCTAssertThrowsError(try JSONDecoder().decode(TraceApp.self, from: Data(#"{"name": "x"}"#.utf8)))
    }
}
