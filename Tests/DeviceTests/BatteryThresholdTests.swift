import Device
import Foundation
import SimCore
import Traces
import XCTest

/// Battery thresholds (20 %, 10 %): alarms at the exact crossing, crossings
/// by chunks of background energy, time never going backwards.
final class BatteryThresholdTests: XCTestCase {
    func stateRows(_ log: EventRecorder, _ detail: String) -> [DeviceEvent] {
        log.events.filter { $0.kind == .state && $0.detail == detail }
    }

    /// A 1 Wh battery at 25 % draining 1 W (screen on or off, no charger)
    /// with one legacy fetch at 100 s (0.05 J wake + 1 s of 1 W CPU,
    /// no network): 5 % = 180 J is gone at 180 − 1.05 = 178.95 s. Below
    /// 20 % the fetch is refused (rule 4), so 10 % (360 J more) comes 360 s later.
    func testBatteryAlarmFiresAtTheExactCrossing() {
        var trace = DeviceTrace(horizon: SimTime(day: 1), appNames: ["news"], lowPowerAccepted: [[false, false]],
                                screenOnDrainWatts: 1, idleDrainWatts: 1, initialBatteryPercent: 25)
        trace.chargingWatts = 0
        var config = DeviceConfiguration()
        config.batteryCapacityWh = 1
        config.defaultApp = AppModel(refresh: WorkModel(cpuSeconds: 1, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                                        failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                                                        usesNetwork: false),
                                     usesLegacyFetch: true, minimumFetchInterval: .seconds(100 as Int64))
        let (m, log) = simulateDeviceWithLog(trace: trace, configuration: config, policy: RunEverythingAllowed(), randomKey: 1)
        XCTAssertEqual(m.tasksRun, 1)
        let joules = config.energy.wakeJoules + config.energy.cpuWatts * 1
        let t20 = 180 - joules
        let r20 = stateRows(log, "battery_20"), r10 = stateRows(log, "battery_10")
        XCTAssertEqual(r20.count, 1)
        XCTAssertEqual(r10.count, 1)
        if let r = r20.first { XCTAssertEqual(r.time.seconds, t20, accuracy: 2e-6) }
        if let r = r10.first { XCTAssertEqual(r.time.seconds, t20 + 360, accuracy: 2e-6) }
    }

    /// Simulated time never goes backwards: every policy call (decision or
    /// observation) and every logged event is at or after the previous one,
    /// on a generated population under a greedy policy.
    func testTimeIsMonotoneOnAGeneratedPopulation() {
        struct Clock: SchedulingPolicy {
            var last = SimTime.zero
            var backwards = 0
            mutating func tick(_ now: SimTime) {
                if now < last { backwards += 1 }
                last = max(last, now)
            }
            mutating func observe(_ o: PolicyObservation, context: PolicyContext) { tick(context.now) }
            mutating func decide(context: PolicyContext) -> PolicyDecision {
                tick(context.now)
                return RunEverythingAllowed().decide(context: context)
            }
        }
        let generator = PopulationGenerator(parameters: .default, seed: 11, days: 14)
        var backwards = 0, logBackwards = 0
        for i in 0..<40 {
            let trace = DeviceTrace(generator.user(i), apps: generator.parameters.apps)
            var sim = DeviceSimulator(trace: trace, configuration: DeviceConfiguration(), policy: Clock(),
                                      randomKey: UInt64(i) &* 31, sink: EventRecorder())
            _ = sim.run()
            backwards += sim.policy.backwards
            var last = SimTime.zero
            for e in sim.sink.events where e.kind != .update {
                if e.time < last { logBackwards += 1 }
                last = max(last, e.time)
            }
        }
        XCTAssertEqual(backwards, 0)
        XCTAssertEqual(logBackwards, 0)
    }

    /// A chunk of background energy that takes the level from 20.01 % to
    /// under 20 % crosses 20 %: batteryLow is observed and Low Power Mode is
    /// offered at that time. Flat trace (no drain), 1 Wh battery, one legacy
    /// fetch at 100 s: its 0.05 J wake leaves 20.0086 %, its 1 J of CPU
    /// (charged when it ends at 101 s) 19.981 %.
    func testEnergyChunkCrossingTwentyPercentIsHandled() {
        struct Recorder: SchedulingPolicy {
            var batteryLow: [SimTime] = []
            var lowPowerOn: [SimTime] = []
            mutating func observe(_ o: PolicyObservation, context: PolicyContext) {
                if case .stateChanged(.batteryLow) = o { batteryLow.append(context.now) }
                if case .stateChanged(.lowPowerModeOn) = o { lowPowerOn.append(context.now) }
            }
            func decide(context: PolicyContext) -> PolicyDecision { RunEverythingAllowed().decide(context: context) }
        }
        let trace = DeviceTrace(horizon: SimTime(day: 1), appNames: ["news"], lowPowerAccepted: [[true, true]],
                                screenOnDrainWatts: 0, idleDrainWatts: 0, initialBatteryPercent: 20.01)
        var config = DeviceConfiguration()
        config.batteryCapacityWh = 1
        config.defaultApp = AppModel(refresh: WorkModel(cpuSeconds: 1, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                                        failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                                                        usesNetwork: false),
                                     usesLegacyFetch: true, minimumFetchInterval: .seconds(100 as Int64))
        var sim = DeviceSimulator(trace: trace, configuration: config, policy: Recorder(), randomKey: 1, sink: NoEventLog())
        let m = sim.run()
        XCTAssertEqual(m.tasksRun, 1)
        let at = SimTime.zero + .seconds(101 as Int64)
        XCTAssertEqual(sim.policy.batteryLow, [at])
        XCTAssertEqual(sim.policy.lowPowerOn, [at])
        XCTAssertEqual(m.lowPowerModeHours, (86_400 - 101) / 3600, accuracy: 1e-9)
    }
}

