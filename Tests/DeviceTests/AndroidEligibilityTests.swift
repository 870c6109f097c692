@testable import Device
import SimCore
import XCTest

/// A planning policy's derived `decide` and the coalescing wrapper ask
/// `EligibilityTest` what may start; on an Android device it must answer
/// with Android's rules (AndroidPlatform.swift), not with the table that
/// folds iOS's. Before it did, `fixed-interval` on Android asked to run
/// requests Android refused (56,876 refusals in the platforms suite) and
/// `greedy` left alone requests Android would start and iOS would not
/// (battery between Android's 15 % and iOS's 20 %).
final class AndroidEligibilityTests: XCTestCase {
    func testTheFastTestAnswersWithTheDevicesPlatform() {
        let now = SimTime.zero + .hours(2)
        var checked = 0, platformsDisagree = 0
        for kind in TaskKind.allCases {
            for power in [false, true] {
                for net in [false, true] {
                    for begin in [now - .seconds(1 as Int64), now + .seconds(1 as Int64)] {
                        let r = TaskRequest(id: RequestID(1), app: 0, identifier: 0, kind: kind, earliestBegin: begin,
                                            requiresExternalPower: power, requiresNetworkConnectivity: net,
                                            submittedAt: .zero)
                        for state in Self.states() {
                            let android = AndroidPlatform(rules: AndroidWorkRules(), apps: 2)
                            // Screen and charger held since the start: Doze and
                            // the idle clock see two hours of this state.
                            android.sync(now: .zero, state: state)
                            android.sync(now: now, state: state)
                            var onAndroid = PolicyContext(now: now, device: state, pending: [r])
                            onAndroid.android = android
                            XCTAssertEqual(EligibilityTest(onAndroid).allows(r, in: onAndroid), onAndroid.isEligible(r), "\(r) in \(state)")
                            let onIOS = PolicyContext(now: now, device: state, pending: [r])
                            XCTAssertEqual(EligibilityTest(onIOS).allows(r, in: onIOS), onIOS.isEligible(r))
                            if onIOS.isEligible(r) != onAndroid.isEligible(r) { platformsDisagree += 1 }
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000)
        // The platforms' rules differ on many of these states, so a test
        // answering with iOS's rules on Android fails above.
        XCTAssertGreaterThan(platformsDisagree, 100)
    }

    /// Battery around both platforms' thresholds (iOS 20 %, Android 15 %),
    /// charger, Low Power Mode, network, screen and foreground app.
    static func states() -> [DeviceState] {
        var out: [DeviceState] = []
        for battery in [100, 19.999, 15, 14.999] {
            for charging in [false, true] {
                for lowPower in [false, true] {
                    for network in NetworkType.allCases {
                        for screen in [false, true] {
                            for foreground: Int32? in [nil, 0, 1] {
                                out.append(DeviceState(batteryPercent: battery, isCharging: charging, isLowPowerMode: lowPower,
                                                       network: network, isScreenOn: screen, foregroundApp: foreground))
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
