import Device
import Policies
import SimCore
import WiFiOrChargingPolicy
import XCTest

final class WiFiOrChargingRefresherTests: XCTestCase {
    /// What every policy must do (never ask for a run the OS refuses, be
    /// deterministic, no busy loop), on BGBench's own check worlds.
    func testConformance() {
        XCTAssertEqual(PolicyConformance.check(WiFiOrChargingRefresher()), [])
        XCTAssertEqual(PolicyConformance.check(WiFiOrChargingRefresher(maxHold: .seconds(60 as Int64))), [])
    }

    /// The registered descriptor builds the policy with the spec's parameter.
    func testRegistrationReadsMaxHold() throws {
        let registry = PolicyRegistry.standard.adding(WiFiOrChargingRefresher.registration)
        let policy = try registry.make(PolicyConfiguration(name: "wifi-or-charging", params: ["maxHold": .string("45m")]))
        XCTAssertEqual((policy as? WiFiOrChargingRefresher)?.maxHold, .minutes(45))
        XCTAssertThrowsError(try registry.make(PolicyConfiguration(name: "wifi-or-charging", params: ["maxHold": .number(3)])))
    }

    /// On cellular a refresh waits for Wi-Fi, power or the end of its hold.
    func testHoldsRefreshesOnCellularUntilWiFiPowerOrMaxHold() {
        let submitted = SimTime(day: 0, plus: .hours(9))
        let request = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: .appRefresh,
                                  earliestBegin: submitted, submittedAt: submitted)
        let policy = WiFiOrChargingRefresher(maxHold: .hours(3))
        func decide(after: SimDuration, network: NetworkType, charging: Bool = false) -> PolicyDecision {
            let context = PolicyContext(now: submitted + after,
                                        device: DeviceState(isCharging: charging, network: network),
                                        pending: [request])
            return policy.decide(context: context)
        }
        let cellular = decide(after: .hours(1), network: .cellular)
        XCTAssertEqual(cellular.run, [])
        XCTAssertEqual(cellular.wakeAt, submitted + .hours(3))
        XCTAssertEqual(decide(after: .hours(1), network: .wifi).run, [request.id])
        XCTAssertEqual(decide(after: .hours(1), network: .cellular, charging: true).run, [request.id])
        XCTAssertEqual(decide(after: .hours(3), network: .cellular).run, [request.id])
        XCTAssertEqual(decide(after: .hours(1), network: .offline).run, [], "offline is neither Wi-Fi nor power: held")
    }
}
