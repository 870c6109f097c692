import Device
import SimCore
import Traces
import XCTest

/// The per-app output (`apps.csv`): the apps' rows plus the shared row sum
/// to the user's metrics, with every background mechanism on.
final class AppMetricsTests: XCTestCase {
    static let generator = PopulationGenerator(parameters: .default, seed: 7, days: 3)

    func trace(_ u: Int) -> DeviceTrace {
        DeviceTrace(Self.generator.user(u), apps: Self.generator.parameters.apps)
    }

    /// Every mechanism on, so that every attribution path is taken.
    static var everything: DeviceConfiguration {
        var c = DeviceConfiguration()
        c.defaultApp.forgetProbability = 0.2
        c.defaultApp.silentPush = .atMostOnePer(.seconds(1800 as Int64))
        c.defaultApp.beginBackgroundTask = FinishingWork(probability: 0.5)
        c.defaultApp.backgroundTransfer = BackgroundTransferModel(probability: 0.3)
        c.defaultApp.continuedProcessing = ContinuedProcessingJob(probability: 0.1)
        return c
    }

    func testAppsSumToTheUserMetrics() {
        for u in 0..<3 {
            let (m, r) = simulateDeviceWithAppMetrics(trace: trace(u), configuration: Self.everything,
                                                      policy: RunEverythingAllowed(), randomKey: UInt64(u) &+ 11)
            XCTAssertEqual(r.apps.count, trace(u).appNames.count)
            let all = r.apps + [r.shared]
            func sum(_ f: (AppMetrics) -> Double) -> Double { all.map(f).reduce(0, +) }
            XCTAssertEqual(r.apps.map { $0[.launches] }.reduce(0, +), m.launches)
            XCTAssertEqual(r.apps.map { $0[.freshLaunches] }.reduce(0, +), m.freshLaunches)
            XCTAssertEqual(r.apps.map(\.tasksRun).reduce(0, +), m.tasksRun)
            XCTAssertEqual(r.apps.map { $0[.tasksSucceeded] }.reduce(0, +), m.tasksSucceeded)
            XCTAssertEqual(r.apps.map { $0[.tasksFailed] }.reduce(0, +), m.tasksFailed)
            XCTAssertEqual(r.apps.map { $0[.tasksExpired] }.reduce(0, +), m.tasksExpired)
            XCTAssertEqual(r.apps.map { $0[.tasksCensored] }.reduce(0, +), m.tasksCensored)
            let pushRuns = m.silentPush[.deliveredBackground]
            let others = pushRuns + m.backgroundTask[.started] + m.urlSession[.relaunches]
                + m.continuedProcessing[.completed] + m.continuedProcessing[.failed]
                + m.continuedProcessing[.cancelledByUser] + m.continuedProcessing[.expiredPressure]
            let mechanismRuns = r.apps.map { $0[.mechanismRuns] }.reduce(0, +)
            XCTAssertEqual(mechanismRuns, others, "every ended mechanism run is counted for its app once")
            XCTAssertGreaterThan(m.urlSession[.runs], 0, "the test must exercise URLSession transfers")
            XCTAssertGreaterThan(m.silentPush[.deliveredBackground], 0)
            XCTAssertGreaterThan(m.backgroundTask[.started], 0)
            let tol = 1e-9 * max(1, m.energy.total)
            XCTAssertEqual(sum { $0.energy.wake }, m.energy.wake, accuracy: tol)
            XCTAssertEqual(sum { $0.energy.cpu }, m.energy.cpu, accuracy: tol)
            XCTAssertEqual(sum { $0.energy.promotion }, m.energy.promotion, accuracy: tol)
            XCTAssertEqual(sum { $0.energy.active }, m.energy.active, accuracy: tol)
            XCTAssertEqual(sum { $0.energy.tail }, m.energy.tail, accuracy: tol)
            XCTAssertEqual(sum { $0.energy.total }, m.energy.total, accuracy: tol)
            XCTAssertEqual(sum { $0[.wastedJoules] }, m.wastedEnergyJoules, accuracy: tol)
            XCTAssertEqual(sum { $0[.bytesWifi] }, m.backgroundBytesWifi, accuracy: 1e-9 * max(1, m.backgroundBytesWifi))
            XCTAssertEqual(sum { $0[.bytesCellular] }, m.backgroundBytesCellular,
                           accuracy: 1e-9 * max(1, m.backgroundBytesCellular))
            // The rule: an app's row holds no tail; the shared row only batch wakes and tails.
            XCTAssertTrue(r.apps.allSatisfy { $0.energy.tail == 0 })
            XCTAssertEqual(r.shared.energy.cpu + r.shared.energy.promotion + r.shared.energy.active, 0)
            XCTAssertEqual(r.shared.energy.wake, Double(m.backgroundWakes) * Self.everything.energy.wakeJoules,
                           accuracy: 1e-9)
            XCTAssertGreaterThan(r.apps.filter { $0.mechanismEnergy.total > 0 }.count, 1)
        }
    }

    /// Mean age per app is the mean of that app's launch rows in the event
    /// log; the recorder changes neither the metrics nor the log it keeps.
    func testPerAppValuesMatchTheEventLogAndChangeNothing() {
        let t = trace(1)
        let plain = simulateDevice(trace: t, configuration: Self.everything, policy: RunEverythingAllowed(), randomKey: 5)
        let (logged, log) = simulateDeviceWithLog(trace: t, configuration: Self.everything,
                                                  policy: RunEverythingAllowed(), randomKey: 5)
        let (m, r) = simulateDeviceWithAppMetrics(trace: t, configuration: Self.everything,
                                                  policy: RunEverythingAllowed(), randomKey: 5, keepingEvents: true)
        XCTAssertTrue(sameMetrics(plain, m))
        XCTAssertTrue(sameMetrics(logged, m))
        XCTAssertEqual(r.log?.csv, log.csv)
        var checked = 0
        for a in r.apps.indices {
            let launches = log.events.filter { $0.kind == .launch && $0.app == Int32(a) }
            XCTAssertEqual(r.apps[a][.launches], launches.count)
            XCTAssertEqual(r.apps[a][.freshLaunches], launches.filter { $0.fresh == true }.count)
            let tasks = log.events.filter { $0.kind == .task && $0.app == Int32(a) }
            XCTAssertEqual(r.apps[a].tasksRun, tasks.count)
            XCTAssertEqual(r.apps[a].taskEnergy.total, tasks.map(\.energy.total).reduce(0, +),
                           accuracy: 1e-9)
            guard !launches.isEmpty else { continue }
            let age = AppMetrics.columns.first { $0.name == "mean_age_s" }!.value(r.apps[a])
            XCTAssertEqual(age, launches.map { $0.ageSeconds! }.reduce(0, +) / Double(launches.count), accuracy: 1e-9)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 2)
        // Without the recorder keeping the log, none is kept.
        XCTAssertNil(simulateDeviceWithAppMetrics(trace: t, policy: RunEverythingAllowed(), randomKey: 5).1.log)
    }
}
