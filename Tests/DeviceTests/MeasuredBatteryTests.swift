// The measured battery (`DeviceTrace.measuredBattery`, Docs/Semantics.md
// "Measured battery"): between the first and the last reading the level is
// the real phone's minus the background energy, re-anchored at the first
// reading and at an unplug; outside the readings it is modelled.
import Device
import SimCore
import XCTest

final class MeasuredBatteryTests: XCTestCase {
    struct Idle: SchedulingPolicy {
        func decide(context: PolicyContext) -> PolicyDecision { PolicyDecision() }
    }

    /// No drain modelled (the level would stay at 100 %); readings 80 % at
    /// 01:00, 15 % at 05:00 (on the charger from then), 60 % at 06:00.
    func trace(measured: Bool) -> DeviceTrace {
        var t = DeviceTrace(horizon: SimTime(day: 1), appNames: ["news"],
                            charging: [.init(start: SimTime(day: 0, plus: .hours(5)), end: SimTime(day: 0, plus: .hours(6)))],
                            lowPowerAccepted: [[true, true]], screenOnDrainWatts: 0, idleDrainWatts: 0,
                            initialBatteryPercent: 100)
        if measured {
            t.measuredBattery = [.init(time: SimTime(day: 0, plus: .hours(1)), percent: 80), .init(time: SimTime(day: 0, plus: .hours(5)), percent: 15),
                                 .init(time: SimTime(day: 0, plus: .hours(6)), percent: 60)]
        }
        return t
    }

    func testWithoutBackgroundWorkTheLevelIsTheMeasuredOne() {
        let m = simulateDevice(trace: trace(measured: true), policy: Idle(), randomKey: 1)
        XCTAssertEqual(m.minBatteryPercent, 15, accuracy: 1e-9, "the lowest reading")
        // 20 % is crossed at 01:00 + 60/65 × 4 h (linear between 80 % and
        // 15 %); the offer is accepted and nothing reaches 80 % while charging.
        let crossing = 1 + 60.0 / 65 * 4
        XCTAssertEqual(m.lowPowerModeHours, 24 - crossing, accuracy: 1e-6)
        let modelled = simulateDevice(trace: trace(measured: false), policy: Idle(), randomKey: 1)
        XCTAssertEqual(modelled.minBatteryPercent, 100, "off: the modelled level (no drain) stays full")
        XCTAssertEqual(modelled.lowPowerModeHours, 0)
    }

    func testBackgroundEnergyComesOffOnTop() {
        var config = DeviceConfiguration()
        config.batteryCapacityWh = 1
        // Legacy fetches every 100 s, 1 s of CPU each: background energy all day.
        config.defaultApp = AppModel(refresh: WorkModel(cpuSeconds: 1, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                                        failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                                                        usesNetwork: false),
                                     usesLegacyFetch: true, minimumFetchInterval: .seconds(100 as Int64))
        let busy = simulateDevice(trace: trace(measured: true), configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        let idle = simulateDevice(trace: trace(measured: true), configuration: config, policy: Idle(), randomKey: 1)
        XCTAssertGreaterThan(busy.tasksRun, 0)
        XCTAssertLessThan(busy.minBatteryPercent, 15, "background energy lowers the measured level")
        XCTAssertEqual(idle.minBatteryPercent, 15, accuracy: 1e-9)
        // The level is the reading minus what was spent since the last
        // anchor: never lower than the reading minus the whole run's
        // background energy (1 Wh = 3 600 J).
        XCTAssertGreaterThanOrEqual(busy.minBatteryPercent, 15 - busy.energy.total / 3600 * 100 - 1e-9)
    }
}
