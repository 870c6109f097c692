@testable import Device
import Foundation
import SimCore
import Traces
import XCTest

/// A16 (Docs/AndroidPlatform.md): with `device.android.processingRequiresUnmetered`
/// processing work that needs the network waits for Wi-Fi; by default it
/// takes any network, as before.
final class AndroidUnmeteredTests: XCTestCase {
    func request(_ kind: TaskKind, network: Bool = true) -> TaskRequest {
        TaskRequest(id: RequestID(1), app: 0, identifier: 1, kind: kind, earliestBegin: .zero,
                    requiresNetworkConnectivity: network, submittedAt: .zero)
    }

    func testTheRuleAsksForWiFiOnlyForProcessingThatNeedsTheNetwork() {
        var rules = AndroidWorkRules()
        rules.doze = false
        let off = AndroidPlatform(rules: rules, apps: 1)
        rules.processingRequiresUnmetered = true
        let on = AndroidPlatform(rules: rules, apps: 1)
        let cellular = DeviceState(network: .cellular), wifi = DeviceState(network: .wifi)
        for p in [off, on] { p.sync(now: .zero, state: cellular) }
        let now = SimTime.zero + .hours(1)
        XCTAssertNil(off.refusal(for: request(.processing), at: now, state: cellular), "default: any network")
        XCTAssertEqual(on.refusal(for: request(.processing), at: now, state: cellular), .needsNetwork)
        XCTAssertNil(on.refusal(for: request(.processing), at: now, state: wifi))
        XCTAssertNil(on.refusal(for: request(.processing, network: false), at: now, state: cellular), "no network constraint")
        XCTAssertNil(on.refusal(for: request(.appRefresh), at: now, state: cellular), "refresh keeps network connected")
        XCTAssertEqual(on.refusal(for: request(.processing), at: now, state: DeviceState(network: .offline)), .needsNetwork)
    }

    /// On cellular for the first 3 h, Wi-Fi after: processing starts once
    /// the device is idle (31 min after the session) with the default, at
    /// the switch to Wi-Fi with the rule.
    func testProcessingWaitsForWiFiInARun() {
        func firstProcessing(unmetered: Bool) -> SimTime? {
            var config = DeviceConfiguration()
            config.platform = .android
            config.android.doze = false
            config.android.processingRequiresUnmetered = unmetered
            config.defaultApp.processingInterval = .hours(24)
            config.defaultApp.processingRequiresExternalPower = false
            let trace = flatTrace(days: 1, sessions: sessions(at: [.zero + .minutes(1)]),
                                  network: [.init(start: .zero, end: .zero + .hours(3), kind: .cellular),
                                            .init(start: .zero + .hours(3), end: SimTime(day: 30), kind: .wifi)])
            let (_, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 3)
            return log.events.first { $0.kind == .task && $0.taskKind == .processing }?.start
        }
        XCTAssertEqual(firstProcessing(unmetered: false), SimTime.zero + .minutes(1) + .seconds(10 as Int64) + .minutes(31))
        XCTAssertEqual(firstProcessing(unmetered: true), SimTime.zero + .hours(3))
    }

    func testTheSwitchIsADeclaredParameter() throws {
        let c = try JSONDecoder().decode(DeviceConfiguration.self,
                                         from: Data(#"{"android": {"processingRequiresUnmetered": true}}"#.utf8))
        XCTAssertTrue(c.android.processingRequiresUnmetered)
        XCTAssertFalse(DeviceConfiguration().android.processingRequiresUnmetered)
        XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self,
                                                      from: Data(#"{"android": {"processingRequiresUnmetered": 2}}"#.utf8)))
    }
}
