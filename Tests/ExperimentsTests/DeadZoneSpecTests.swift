import Foundation
import XCTest
@testable import Experiments

/// `device.deadZones` is range-checked with its JSON path.
final class DeadZoneSpecTests: XCTestCase {
    private static func spec(_ zones: String) -> String {
        #"{"name": "t", "seed": 5, "population": {"users": 2, "days": 1}, "device": {"deadZones": \#(zones)}, "policies": [{"name": "greedy"}]}"#
    }

    func testBadDeadZoneParametersNameTheirPath() {
        let bad: [(String, String, String)] = [
            (#"{"perDay": 200}"#, "$.device.deadZones.perDay", "out of range"),
            (#"{"perDay": -1}"#, "$.device.deadZones.perDay", "out of range"),
            (#"{"medianDuration": "2d"}"#, "$.device.deadZones.medianDuration", "out of range"),
            (#"{"durationSigma": 4}"#, "$.device.deadZones.durationSigma", "out of range"),
            (#"{"requestTimeout": "20m"}"#, "$.device.deadZones.requestTimeout", "out of range"),
            (#"{"requestTimeout": "0s"}"#, "$.device.deadZones.requestTimeout", "out of range"),
            (#"{"perday": 1}"#, "$.device.deadZones.perday", "unknown key"),
        ]
        for (zones, path, fragment) in bad {
            XCTAssertThrowsError(try ExperimentSpec.parse(Self.spec(zones), registry: .standard), zones) { error in
                guard let e = error as? SpecError else { return XCTFail("\(error)") }
                XCTAssertTrue(e.path.hasPrefix(path), "\(zones) → \(e)")
                XCTAssertTrue(e.message.contains(fragment), "\(zones) → \(e)")
            }
        }
        XCTAssertNoThrow(try ExperimentSpec.parse(Self.spec(#"{"perDay": 1, "medianDuration": "5m", "requestTimeout": "60s"}"#),
                                                  registry: .standard))
    }
}
