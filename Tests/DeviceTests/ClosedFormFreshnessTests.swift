import Device
import Foundation
import SimCore
import TestSupport
import XCTest

/// Cho & Garcia-Molina (SIGMOD 2000): with Poisson updates at rate λ and a
/// synchronisation every T, the expected freshness is (1 − e^{−λT})/(λT).
/// Launches are Poisson and independent of the refresh grid, and the
/// foreground fetch is off, so freshness at launch samples freshness at a
/// random time.
final class ClosedFormFreshnessTests: XCTestCase {
    func testFreshLaunchRatioMatchesChoGarciaMolina() {
        let days = 150
        let period = SimDuration.hours(1)
        let horizon = SimTime(day: days)
        var config = DeviceConfiguration()
        config.foregroundFetch = false
        config.defaultApp = AppModel(refresh: .instant, usesLegacyFetch: true, minimumFetchInterval: .zero)
        for (i, lambdaT) in [0.25, 0.5, 1.0, 2.0, 4.0].enumerated() {
            var rng = TestRandom(seed: 1000 + UInt64(i))
            let launches = rng.poisson(perHour: 3, horizon: horizon)
            let updates = rng.poisson(perHour: lambdaT, horizon: horizon)
            let trace = flatTrace(days: days, sessions: sessions(at: launches, length: .milliseconds(1)),
                                  updates: [updates])
            let m = simulateDevice(trace: trace, configuration: config, policy: FixedGrid(period: period),
                                   randomKey: 7)
            let expected = (1 - exp(-lambdaT)) / lambdaT
            // Launches inside one period share its freshness, so the effective
            // sample size is about the number of periods, not of launches.
            let periods = Double(days * 24)
            let tolerance = 4 * (expected * (1 - expected) / periods).squareRoot() + 0.005
            print(String(format: "closed form λT=%.2f launches=%d measured=%.4f expected=%.4f tol=%.4f",
                         lambdaT, m.launches, m.freshLaunchRatio, expected, tolerance))
            XCTAssertEqual(m.freshLaunchRatio, expected, accuracy: tolerance, "λT = \(lambdaT)")
            // Expected age E[A] = T(1/2 − 1/(λT) + (1 − e^{−λT})/(λT)²), a looser check.
            let x = lambdaT
            let expectedAge = period.seconds * (0.5 - 1 / x + (1 - exp(-x)) / (x * x))
            print(String(format: "closed form λT=%.2f mean age measured=%.1fs expected=%.1fs",
                         lambdaT, m.meanAgeSeconds, expectedAge))
            XCTAssertEqual(m.meanAgeSeconds, expectedAge, accuracy: 0.1 * expectedAge + 20)
            XCTAssertEqual(m.tasksFailed + m.tasksExpired + m.tasksRefused, 0)
            XCTAssertEqual(m.tasksRun, days * 24, "one refresh per period")
        }
    }
}
