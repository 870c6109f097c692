// The generators land on their documented targets (GeneratorParameters.swift,
// Datasets/README.md) within the tolerances stated in each test.
import Foundation
import SimCore
import Stats
@testable import Traces
import XCTest

final class GeneratorStatisticsTests: XCTestCase {
    static let days = 7
    /// 300 users × 7 days of the default usage model (about 100 000 sessions).
    static let usage: [UserUsage] = {
        let g = UsageGenerator(parameters: .default, structure: .default, apps: TraceApp.defaultApps)
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
        // Only a session cut at the horizon may be shorter than the minimum.
        let horizon = SimTime(day: Self.days)
        XCTAssert(Self.usage.allSatisfy { $0.sessions.allSatisfy { s in
            (s.duration.seconds >= 1 || s.end == horizon) && s.duration.seconds <= 7200 } })
    }

    func testNightShareMatchesTheHourlyRhythm() {
        // With habitRegularity 0 (no routines) and one-session episodes
        // without revisits, every session is placed by the rhythm, so the
        // share starting 00:00–06:00 is what the weights say.
        var p = GeneratorParameters.default.usage
        p.habitRegularity = 0
        var s = UsageStructureParameters.default
        s.sessionsPerEpisodeMean = 1
        s.revisitProbability = 0
        let g = UsageGenerator(parameters: p, structure: s, apps: TraceApp.defaultApps)
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
        // Every user adopts every routine at full strength when regularity is
        // 1; regularity 0 removes routines. The slots are drawn the same way
        // in both (same stream, same draws), so the on-time share of the
        // regular world's slots is measured in both worlds.
        func world(regularity: Double) -> UsageGenerator {
            var p = UsageParameters.default
            p.habitRegularity = regularity
            p.habitAdoptionProbability = 1
            // Heavy users, one episode per slot: routines never need scaling down.
            p.sessionsPerDayMedian = 150
            p.sessionsPerDaySigma = 0
            var s = UsageStructureParameters.default
            s.routineEpisodesPerSlot = 1
            s.routineStrengthMin = 1
            s.routineStrengthMax = 1
            s.routineShareMax = 1
            return UsageGenerator(parameters: p, structure: s, apps: TraceApp.defaultApps)
        }
        let regular = world(regularity: 1), random = world(regularity: 0)
        var hits = (regular: 0, random: 0), chances = 0
        for user in 0..<40 {
            let rng = { RandomStream(seed: 3, user: user, stream: "usage") }
            let a = regular.generate(days: 14, using: rng())
            let b = random.generate(days: 14, using: rng())
            XCTAssert(b.habitHours.allSatisfy { $0 == nil })
            XCTAssertEqual(a.installed, b.installed)
            for (app, habit) in a.habitHours.enumerated() where TraceApp.defaultApps[app].routineAffinity >= 1.1 {
                guard let habit else { continue }
                for day in 0..<14 where !SimTime(day: day).isWeekend {
                    chances += 1
                    func onTime(_ u: UserUsage) -> Bool {
                        u.sessions.contains { s in
                            s.app == app && s.start.day == day && abs(s.start.timeOfDay.seconds / 3600 - habit) < 0.5
                        }
                    }
                    if onTime(a) { hits.regular += 1 }
                    if onTime(b) { hits.random += 1 }
                }
            }
        }
        XCTAssertGreaterThan(chances, 100)
        // Regular: 90 % of weekdays, ±10 min jitter inside ±30 min (pushes
        // by overlapping sessions may move a few out). Random: chance only.
        XCTAssertGreaterThan(Double(hits.regular) / Double(chances), 0.8)
        XCTAssertLessThan(Double(hits.random) / Double(chances), 0.3)
    }

    func testOvernightChargingAndOtherPowerTargets() {
        let g = PowerGenerator(parameters: .default, appCount: 7)
        var nights = 0, charging = 0, refreshOn = 0
        for user in 0..<300 {
            let w = g.generate(days: 7, using: RandomStream(seed: 2, user: user, stream: "power"))
            XCTAssertEqual(w.lowPowerModeDecisions.count, 14)
            refreshOn += w.backgroundAppRefreshEnabled.filter { $0 }.count
            XCTAssertEqual(w.constants.batteryCapacityWh, 12.4)
            for day in 0..<7 {
                nights += 1
                let t = SimTime(day: day, plus: .hours(3))
                if w.charging.contains(where: { $0.start <= t && t < $0.end }) { charging += 1 }
            }
        }
        // overnightProbability 0.9; a plug-in after 03:00 or an unplug before
        // it is rare with the default jitter. Tolerance ±4 points.
        XCTAssertEqual(Double(charging) / Double(nights), 0.9, accuracy: 0.04)
        // Background App Refresh off w.p. 0.2 per app: 2 100 draws, ±4 points.
        XCTAssertEqual(Double(refreshOn) / Double(300 * 7), 0.8, accuracy: 0.04)
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
