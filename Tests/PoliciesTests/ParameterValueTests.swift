@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import XCTest

final class ParameterValueTests: XCTestCase {
    // MARK: 6. ParameterValue keeps the JSON shape

    func testParameterValueJSONShape() throws {
        let json = #"{"base":{"name":"never"},"name":"coalescing","params":{"a":1.5,"b":"15m","c":[true,null],"d":{"e":2}}}"#
        let c = try JSONDecoder().decode(PolicyConfiguration.self, from: Data(json.utf8))
        XCTAssertEqual(c.params["a"], ParameterValue.number(1.5))
        XCTAssertEqual(c.params["c"], .array([.bool(true), .null]))
        XCTAssertEqual(c.params["d"], .object(["e": .number(2)]))
        let enc = JSONEncoder()
        enc.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try enc.encode(c), as: UTF8.self), json)
    }
}
