// usage structure: validation of its parameters, the content
// patterns, installed apps, and the predictability checks of `traces stats`
// passing on the default world and failing on a world without structure.
import Foundation
import SimCore
import Stats
import Traces
import XCTest

final class UsageStructureTests: XCTestCase {
    func testStructureProblemsNameTheJSONPathAndWhatIsAllowed() {
        XCTAssertNil(GeneratorParameters.default.rangeProblem)
        func problem(_ change: (inout GeneratorParameters) -> Void) -> (path: String, message: String)? {
            var g = GeneratorParameters.default
            change(&g)
            return g.rangeProblem
        }
        XCTAssertEqual(problem { $0.structure.repeatProbability = 1.5 }?.path, "structure.repeatProbability")
        XCTAssertEqual(problem { $0.structure.repeatProbability = 1.5 }?.message, "1.5 is out of range; allowed: [0, 1]")
        XCTAssertEqual(problem { $0.structure.routineSlotsMax = 0 }?.message, "0 is out of range; allowed: [1, 4]")
        XCTAssertEqual(problem { $0.apps[2].installProbability = -0.1 }?.path, "apps[2].installProbability")
        XCTAssertEqual(problem { $0.apps[3].contentBurstMeanSize = 0.5 }?.path, "apps[3].contentBurstMeanSize")
        XCTAssertEqual(problem { $0.structure.routineStrengthMin = 0.9; $0.structure.routineStrengthMax = 0.8 }?.path,
                       "structure.routineStrengthMin")
        XCTAssertEqual(problem { for i in $0.apps.indices { $0.apps[i].installProbability = 0 } }?.path, "apps")
    }

    func testStructureKeysDecodeWithDefaultsAndRoundTrip() throws {
        let json = #"{"structure": {"repeatProbability": 0.1}, "apps": [{"name": "w", "contentUpdatesPerHour": 1, "contentPattern": "scheduled"}]}"#
        let g = try JSONDecoder().decode(GeneratorParameters.self, from: Data(json.utf8))
        XCTAssertEqual(g.structure.repeatProbability, 0.1)
        XCTAssertEqual(g.structure.sessionsPerEpisodeMean, UsageStructureParameters.default.sessionsPerEpisodeMean)
        XCTAssertEqual(g.apps[0].contentPattern, .scheduled)
        XCTAssertEqual(g.apps[0].installProbability, 1)
        let back = try JSONDecoder().decode(GeneratorParameters.self, from: JSONEncoder().encode(g))
        XCTAssertEqual(back, g)
        XCTAssertThrowsError(try JSONDecoder().decode(GeneratorParameters.self,
            from: Data(#"{"apps": [{"name": "w", "contentUpdatesPerHour": 1, "contentPattern": "hourly"}]}"#.utf8)))
    }

    func testContentPatternsKeepTheRateAndHaveTheirShape() {
        let weather = TraceApp(name: "weather", contentUpdatesPerHour: 1, basePopularity: 1, contentPattern: .scheduled)
        let chat = TraceApp(name: "chat", contentUpdatesPerHour: 3, basePopularity: 1, contentPattern: .bursty,
                            contentBurstMeanSize: 4, contentBurstGapMinutes: 3)
        let plain = TraceApp(name: "plain", contentUpdatesPerHour: 3, basePopularity: 1)
        let g = ContentGenerator(parameters: .default, apps: [weather, chat, plain])
        var counts = [0, 0, 0], cv = [0.0, 0.0, 0.0]
        let users = 20, days = 7
        for user in 0..<users {
            let updates = g.generate(days: days, using: RandomStream(seed: 8, user: user, stream: "content"))
            for (a, times) in updates.enumerated() {
                XCTAssertEqual(times, times.sorted())
                XCTAssert(times.allSatisfy { $0 >= .zero && $0 < SimTime(day: days) })
                counts[a] += times.count
                let gaps = zip(times, times.dropFirst()).map { Double(($1 - $0).microseconds) }
                let mean = gaps.reduce(0, +) / Double(gaps.count)
                let sd = (gaps.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(gaps.count - 1)).squareRoot()
                cv[a] += sd / mean / Double(users)
            }
        }
        // Rates within 6 % of the app's (bursty: ~2 000 bursts in all).
        XCTAssertEqual(Double(counts[0]) / Double(users * days * 24), 1, accuracy: 0.02)
        XCTAssertEqual(Double(counts[1]) / Double(users * days * 24 * 3), 1, accuracy: 0.06)
        XCTAssertEqual(Double(counts[2]) / Double(users * days * 24 * 3), 1, accuracy: 0.03)
        // A schedule is regular (CV ≈ 0.05), Poisson has CV ≈ 1, bursts more.
        XCTAssertLessThan(cv[0], 0.2)
        XCTAssertEqual(cv[2], 1, accuracy: 0.15)
        XCTAssertGreaterThan(cv[1], 1.4)
    }

    func testAppsNotInstalledAreNeverOpenedAndDoNoBackgroundWork() {
        let g = PopulationGenerator(parameters: .default, seed: 6, days: 7)
        let usage = UsageGenerator(parameters: .default, structure: .default, apps: TraceApp.defaultApps)
        var installed = 0
        for i in 0..<40 {
            let t = g.user(i)
            let u = usage.generate(days: 7, using: RandomStream(seed: 6, user: i, stream: "usage"))
            XCTAssertEqual(t.sessions, u.sessions)
            installed += u.installed.filter { $0 }.count
            for (a, has) in u.installed.enumerated() where !has {
                XCTAssertFalse(t.sessions.contains { $0.app == a })
                XCTAssertFalse(t.profile.backgroundAppRefreshEnabled[a])
            }
        }
        // Σ installProbability of the catalogue ≈ 14.8 apps a user.
        let expected = TraceApp.defaultApps.reduce(0) { $0 + $1.installProbability }
        XCTAssertEqual(Double(installed) / 40, expected, accuracy: 1)
    }

    func testDefaultWorldPassesThePredictabilityChecksAndAFlatWorldDoesNot() {
        func stats(_ p: GeneratorParameters) -> PredictabilityStatistics {
            let g = PopulationGenerator(parameters: p, seed: 12, days: 14)
            var s = PredictabilityStatistics()
            for i in 0..<60 { s.add(g.user(i), appCount: p.apps.count) }
            return s
        }
        let world = stats(.default)
        XCTAssert(world.allPass, world.markdown)
        var flat = GeneratorParameters.default
        flat.usage.habitRegularity = 0
        flat.structure.repeatProbability = 0
        flat.structure.successorProbability = 0
        flat.structure.sessionsPerEpisodeMean = 1
        flat.structure.revisitProbability = 0
        for i in flat.apps.indices { flat.apps[i].usageRhythmAmplitude = 0 }
        let none = stats(flat)
        let failed = Set(none.checks.filter { !$0.passes }.map(\.name))
        XCTAssert(failed.contains { $0.hasPrefix("CV of same-app gaps") }, none.markdown)
        XCTAssert(failed.contains { $0.hasPrefix("P(next = previous) / chance") }, none.markdown)
        XCTAssert(failed.contains { $0.hasPrefix("launches within ±15 min") }, none.markdown)
    }
}
