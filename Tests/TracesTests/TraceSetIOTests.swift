import Foundation
import SimCore
import TestSupport
import Traces
import XCTest

final class TraceSetIOTests: XCTestCase {
    func testRoundTripIsExactAndBytesAreDeterministic() throws {
        let dir = try TemporaryDirectory(), again = try TemporaryDirectory()
        defer { dir.remove(); again.remove() }
        var parameters = GeneratorParameters.default
        parameters.power.backgroundAppRefreshOffProbability = 0.3  // exercise the BAR column
        let set = PopulationGenerator(parameters: parameters, seed: 1, days: 3).traceSet(users: 6)
        try TraceSetWriter.write(set, to: dir.url)
        let read = try TraceSetReader.read(directory: dir.url)
        XCTAssertEqual(read.days, 3)
        XCTAssertEqual(read.apps, set.apps)
        XCTAssertEqual(read.users, set.users)
        XCTAssertEqual(read.provenance, set.provenance)
        XCTAssert(set.users.contains { $0.profile.backgroundAppRefreshEnabled.contains(false) })
        // Regenerating from the provenance gives the same bytes.
        let p = try XCTUnwrap(read.provenance)
        try TraceSetWriter.write(PopulationGenerator(parameters: p.parameters, seed: p.seed, days: p.days)
            .traceSet(users: p.users), to: again.url)
        for file in TraceSetFile.allCSV + [TraceSetFile.generator] {
            XCTAssertEqual(try Data(contentsOf: dir.url.appendingPathComponent(file)),
                           try Data(contentsOf: again.url.appendingPathComponent(file)), file)
        }
        // Rewriting over an existing set replaces files and leaves no temporaries.
        try TraceSetWriter.write(set, to: dir.url)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).contains { $0.hasSuffix(".tmp") })
    }

    func testStatisticsTableHasTheDocumentedRows() throws {
        let set = PopulationGenerator(parameters: .default, seed: 1, days: 7).traceSet(users: 20)
        let stats = TraceStatistics(set)
        let md = stats.markdown
        for row in ["sessions per user-day", "session length p25", "sessions under 30 s", "sessions under 4 min",
                    "time charging", "time on Wi-Fi", "time on cellular", "time offline", "Low Power Mode"] {
            XCTAssert(md.contains(row), row)
        }
        XCTAssertEqual(stats.users, 20)
        XCTAssertEqual(stats.networkShare(.wifi) + stats.networkShare(.cellular) + stats.networkShare(.offline), 1, accuracy: 1e-9)
    }

    func testExogenousBatteryFollowsTheLowPowerModeRules() {
        // 10 Wh, 30 %, idle 1 W: 20 % at 1 h (offer, accepted), 10 % at 2 h
        // (no offer: already on), empty at 3 h; charging at net +1 W from 4 h
        // reaches 80 % at 12 h, where the system switches Low Power Mode off.
        let profile = UserProfile(index: 0, intensity: .light, meanSessionsPerDay: 10, screenOnDrainWatts: 2,
                                  idleDrainWatts: 1, chargingWatts: 2, batteryCapacityWh: 10, initialBatteryPercent: 30,
                                  lowPowerModeAccept20Probability: 1, lowPowerModeAccept10Probability: 1,
                                  backgroundAppRefreshEnabled: [true])
        let h = SimDuration.hours(1)
        let day = SimTime(day: 1)
        func trace(accepts: Bool) -> UserTrace {
            UserTrace(profile: profile, horizon: day, sessions: [],
                      charging: [ChargingInterval(start: .zero + SimDuration.hours(4), end: day)],
                      network: [NetworkInterval(start: .zero, end: day, kind: .wifi)], contentUpdates: [[]],
                      lowPowerModeDecisions: [LowPowerModeDecision(day: 0, thresholdPercent: 20, accepts: accepts),
                                              LowPowerModeDecision(day: 0, thresholdPercent: 10, accepts: accepts)])
        }
        let on = ExogenousBattery(trace(accepts: true))
        XCTAssertEqual(on.offers, 1)
        XCTAssertEqual(on.acceptedOffers, 1)
        XCTAssertEqual(Double(on.lowPowerModeMicroseconds), Double(SimDuration.hours(11).microseconds), accuracy: 10)
        XCTAssertEqual(Double(on.emptyMicroseconds), Double(h.microseconds), accuracy: 10)
        XCTAssertEqual(on.finalPercent, 100, accuracy: 1e-9)
        let off = ExogenousBattery(trace(accepts: false))
        XCTAssertEqual(off.offers, 2)
        XCTAssertEqual(off.acceptedOffers, 0)
        XCTAssertEqual(off.lowPowerModeMicroseconds, 0)
    }
}
