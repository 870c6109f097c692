// The generators land on their documented targets (GeneratorParameters.swift,
// Datasets/README.md) within the tolerances stated in each test.
import Foundation
import SimCore
import Stats
import Traces
import XCTest

final class GeneratorStatisticsTests: XCTestCase {
    static let days = 7
    /// 300 users × 7 days of the default usage model (about 100 000 sessions).
    static let usage: [UserUsage] = {
        let g = UsageGenerator(parameters: .default, apps: TraceApp.defaultApps)
        return (0..<300).map { g.generate(days: days, using: RandomStream(seed: 11, user: $0, stream: "usage")) }
    }()

    func testSessionsPerDayFollowEachUsersMeanAndSpanThePopulationRange() {
        let p = UsageParameters.default
        let weekFactor = (5 + 2 * p.weekendActivityFactor) / 7
        var expected = 0.0, observed = 0.0
        for u in Self.usage {
            XCTAssert((p.sessionsPerDayMin...p.sessionsPerDayMax).contains(u.meanSessionsPerDay))
            expected += u.meanSessionsPerDay * weekFactor * Double(Self.days)
            observed += Double(u.sessions.count)
        }
        // Poisson counts over ~100 000 sessions: 3 % is many standard errors,
        // but sessions pushed past the horizon are cut, so allow a little.
        XCTAssertEqual(observed / expected, 1, accuracy: 0.03)
        let means = Self.usage.map(\.meanSessionsPerDay).sorted()
        // Lognormal(median 40, σ 0.7) clamped to [10, 200]: the median user
        // near 40, the heavy tenth above 80, the light tenth under 20.
        XCTAssertEqual(TraceStatistics.quantile(means, 0.5), 40, accuracy: 6)
        XCTAssertGreaterThan(TraceStatistics.quantile(means, 0.9), 80)
        XCTAssertLessThan(TraceStatistics.quantile(means, 0.1), 20)
        let classes = Set(Self.usage.map(\.intensity))
        XCTAssertEqual(classes, Set(IntensityClass.allCases))
    }

    func testSessionLengthQuantilesMatchYanEtAl() {
        let lengths = Self.usage.flatMap { $0.sessions.map { $0.duration.seconds } }
        let under30 = Double(lengths.filter { $0 < 30 }.count) / Double(lengths.count)
        let under240 = Double(lengths.filter { $0 < 240 }.count) / Double(lengths.count)
        // Targets 50 % and 90 %; tolerance ±3 points (sampling error is ~0.2).
        XCTAssertEqual(under30, 0.50, accuracy: 0.03)
        XCTAssertEqual(under240, 0.90, accuracy: 0.03)
        XCTAssert(lengths.allSatisfy { $0 >= 1 && $0 <= 7200 })
    }

    func testNightShareMatchesTheHourlyRhythm() {
        // With habitRegularity 0 every session is placed by the rhythm, so
        // the share starting 00:00–06:00 is what the weights say.
        var p = GeneratorParameters.default.usage
        p.habitRegularity = 0
        let g = UsageGenerator(parameters: p, apps: TraceApp.defaultApps)
        var night = 0, total = 0
        for user in 0..<200 {
            for s in g.generate(days: 7, using: RandomStream(seed: 5, user: user, stream: "usage")).sessions {
                total += 1
                if s.start.timeOfDay < .hours(6) { night += 1 }
            }
        }
        func share(_ w: [Double]) -> Double { w[0..<6].reduce(0, +) / w.reduce(0, +) }
        let weekdayWeight = 5.0, weekendWeight = 2 * p.weekendActivityFactor
        let expected = (weekdayWeight * share(p.weekdayHourlyWeights) + weekendWeight * share(p.weekendHourlyWeights))
            / (weekdayWeight + weekendWeight)
        XCTAssertEqual(Double(night) / Double(total), expected, accuracy: 0.006)
        XCTAssertLessThan(expected, 0.06, "quiet at night")
    }

    func testHabitRegularityControlsHowPredictableHabitsAre() {
        func onTimeShare(regularity: Double) -> Double {
            var p = UsageParameters.default
            p.habitRegularity = regularity
            p.habitAdoptionProbability = 1
            let g = UsageGenerator(parameters: p, apps: TraceApp.defaultApps)
            var hits = 0, chances = 0
            for user in 0..<40 {
                let u = g.generate(days: 14, using: RandomStream(seed: 3, user: user, stream: "usage"))
                for (app, habit) in u.habitHours.enumerated() {
                    guard let habit else { continue }
                    for day in 0..<14 where !SimTime(day: day).isWeekend {
                        chances += 1
                        let onTime = u.sessions.contains { s in
                            s.app == app && s.start.day == day && abs(s.start.timeOfDay.seconds / 3600 - habit) < 0.5
                        }
                        if onTime { hits += 1 }
                    }
                }
            }
            return Double(hits) / Double(chances)
        }
        let clockwork = onTimeShare(regularity: 1)
        let random = onTimeShare(regularity: 0)
        // Clockwork: 90 % of weekdays, ±10 min jitter inside the ±30 min window
        // (sessions pushed by overlaps may drift out). Random: only chance.
        XCTAssertGreaterThan(clockwork, 0.8)
        XCTAssertLessThan(random, 0.3)
    }

    func testOvernightChargingAndOtherPowerTargets() {
        let g = PowerGenerator(parameters: .default, appCount: 7)
        var nights = 0, charging = 0
        for user in 0..<300 {
            let w = g.generate(days: 7, using: RandomStream(seed: 2, user: user, stream: "power"))
            XCTAssertEqual(w.lowPowerModeDecisions.count, 14)
            XCTAssert(w.backgroundAppRefreshEnabled.allSatisfy { $0 })
            XCTAssertEqual(w.batteryCapacityWh, 12.4)
            for day in 0..<7 {
                nights += 1
                let t = SimTime(day: day, plus: .hours(3))
                if w.charging.contains(where: { $0.start <= t && t < $0.end }) { charging += 1 }
            }
        }
        // overnightProbability 0.9; a plug-in after 03:00 or an unplug before
        // it is rare with the default jitter. Tolerance ±4 points.
        XCTAssertEqual(Double(charging) / Double(nights), 0.9, accuracy: 0.04)
    }

    func testContentUpdateRatesMatchTheApps() {
        let apps = TraceApp.defaultApps
        let g = ContentGenerator(parameters: .default, apps: apps)
        var counts = [Int](repeating: 0, count: apps.count)
        var peakHour = [Int](repeating: 0, count: apps.count), offPeak = [Int](repeating: 0, count: apps.count)
        let users = 40, days = 7
        for user in 0..<users {
            for (a, times) in g.generate(days: days, using: RandomStream(seed: 9, user: user, stream: "content")).enumerated() {
                counts[a] += times.count
                XCTAssertEqual(times, times.sorted())
                for t in times {
                    let h = t.timeOfDay.seconds / 3600
                    let d = abs(h - apps[a].contentPeakHour).truncatingRemainder(dividingBy: 24)
                    if min(d, 24 - d) < 3 { peakHour[a] += 1 } else if min(d, 24 - d) > 9 { offPeak[a] += 1 }
                }
            }
        }
        for (a, app) in apps.enumerated() where app.contentUpdatesPerHour >= 1 {
            let expected = app.contentUpdatesPerHour * 24 * Double(days * users)
            XCTAssertEqual(Double(counts[a]) / expected, 1, accuracy: 0.05, app.name)
            if app.contentRhythmAmplitude >= 0.5 { XCTAssertGreaterThan(peakHour[a], 2 * offPeak[a], app.name) }
        }
    }

    func testWholeTraceInvariants() {
        let g = PopulationGenerator(parameters: .default, seed: 4, days: 7)
        for i in 0..<60 {
            let t = g.user(i)
            XCTAssertEqual(t.horizon, SimTime(day: 7))
            for (a, b) in zip(t.sessions, t.sessions.dropFirst()) { XCTAssertLessThan(a.end, b.start) }
            XCTAssert(t.sessions.allSatisfy { $0.start < $0.end && $0.start >= .zero && $0.end <= t.horizon })
            for (a, b) in zip(t.charging, t.charging.dropFirst()) { XCTAssertLessThan(a.end, b.start) }
            XCTAssert(t.charging.allSatisfy { $0.start < $0.end && $0.start >= .zero && $0.end <= t.horizon })
            XCTAssertEqual(t.network.first?.start, .zero)
            XCTAssertEqual(t.network.last?.end, t.horizon)
            for (a, b) in zip(t.network, t.network.dropFirst()) {
                XCTAssertEqual(a.end, b.start)
                XCTAssertNotEqual(a.kind, b.kind)
            }
            XCTAssert(t.network.allSatisfy { $0.start < $0.end })
            XCTAssertEqual(t.contentUpdates.count, TraceApp.defaultApps.count)
            XCTAssert(t.contentUpdates.allSatisfy { $0 == $0.sorted() && ($0.last ?? .zero) < t.horizon })
            XCTAssertEqual(t.lowPowerModeDecisions.map(\.day), (0..<7).flatMap { [$0, $0] })
            XCTAssertEqual(t.lowPowerModeDecisions.map(\.thresholdPercent), Array(repeating: [20, 10], count: 7).flatMap { $0 })
        }
    }

    func testNetworkSharesArePlausible() {
        let g = NetworkGenerator(parameters: .default)
        var time: [NetworkKind: Int64] = [:]
        for user in 0..<200 {
            for n in g.generate(days: 7, using: RandomStream(seed: 8, user: user, stream: "network")) {
                time[n.kind, default: 0] += (n.end - n.start).microseconds
            }
        }
        let total = Double(200 * 7) * Double(SimDuration.microsecondsPerDay)
        let wifi = Double(time[.wifi] ?? 0) / total, offline = Double(time[.offline] ?? 0) / total
        XCTAssert((0.6...0.95).contains(wifi), "Wi-Fi share \(wifi)")
        XCTAssert((0.0005...0.02).contains(offline), "offline share \(offline)")
    }
}
