// Charging intervals, exogenous drain and Low Power Mode answers.
// Parameters, units, defaults and sources: `PowerParameters`.
//
// The trace holds only what does not depend on the policy: when the phone is
// plugged in, how much power the screen and the idle phone draw, and the
// user's answers to Low Power Mode offers. The battery level itself is
// integrated by the simulator (background energy included).
import Foundation
import SimCore
import Stats

/// What the power generator draws for one user.
public struct UserPower: Sendable, Hashable {
    public var constants: PowerConstants
    public var backgroundAppRefreshEnabled: [Bool]
    public var charging: [ChargingInterval]
    public var lowPowerModeDecisions: [LowPowerModeDecision]
}

/// Draws a user's charging and Low Power Mode behaviour.
///
/// Overnight charge: for each night (including the one before day 0, so a
/// trace can start on the charger) the phone is plugged in with probability
/// `overnightProbability` at the user's plug-in hour plus night-to-night
/// jitter and unplugged at the user's unplug hour the next morning (later on
/// weekends). Daytime top-ups: a Poisson number a day. Overlapping or
/// touching intervals are merged; everything is clipped to [0, horizon).
public struct PowerGenerator: Sendable {
    public let parameters: PowerParameters
    public let appCount: Int

    public func generate(days: Int, using rng: RandomStream) -> UserPower {
        let p = parameters
        let hour = Double(SimDuration.microsecondsPerHour)
        func lognormal(median: Double, sigma: Double) -> Double {
            sigma > 0 ? rng.lognormal(mu: log(median), sigma: sigma) : median
        }
        let screen = lognormal(median: p.screenOnDrainMedianWatts, sigma: p.screenOnDrainSigma)
        let idle = lognormal(median: p.idleDrainMedianWatts, sigma: p.idleDrainSigma)
        let initial = rng.uniform(p.initialBatteryMinPercent, max(p.initialBatteryMinPercent, p.initialBatteryMaxPercent))
        let accept20 = rng.uniform(p.lowPowerModeAccept20Min, max(p.lowPowerModeAccept20Min, p.lowPowerModeAccept20Max))
        let accept10 = rng.uniform(p.lowPowerModeAccept10Min, max(p.lowPowerModeAccept10Min, p.lowPowerModeAccept10Max))
        let plugIn = p.plugInHourMean + rng.normal(mean: 0, sd: p.plugInHourUserSD)
        let unplug = p.unplugHourMean + rng.normal(mean: 0, sd: p.unplugHourUserSD)
        let bar = (0..<appCount).map { _ in !(rng.uniform() < p.backgroundAppRefreshOffProbability) }

        var raw: [(start: Double, end: Double)] = []  // hours since time 0
        for night in -1..<days {
            let charges = rng.uniform() < p.overnightProbability
            let start = Double(night) * 24 + plugIn + rng.normal(mean: 0, sd: p.plugInHourNightSD)
            let morningIsWeekend = SimTime(day: night + 1).isWeekend
            var end = Double(night + 1) * 24 + unplug + (morningIsWeekend ? p.weekendUnplugDelayHours : 0)
                + rng.normal(mean: 0, sd: p.unplugHourNightSD)
            end = max(end, start + 0.25)  // a late plug-in still charges a while
            if charges { raw.append((start, end)) }
        }
        for day in 0..<days {
            let n = rng.poisson(mean: p.topUpsPerDayMean)
            for _ in 0..<n {
                let start = Double(day) * 24 + rng.uniform(p.topUpEarliestHour, max(p.topUpEarliestHour, p.topUpLatestHour))
                let minutes = min(max(rng.exponential(mean: p.topUpMeanMinutes), p.topUpMinMinutes), p.topUpMaxMinutes)
                raw.append((start, start + minutes / 60))
            }
        }
        raw.sort { $0.start < $1.start }
        let horizon = Int64(days) * SimDuration.microsecondsPerDay
        var charging: [ChargingInterval] = []
        for r in raw {
            let s = min(max(Int64(r.start * hour), 0), horizon)
            let e = min(max(Int64(r.end * hour), 0), horizon)
            guard e > s else { continue }
            if let last = charging.last, s <= last.end.microseconds {
                if e > last.end.microseconds { charging[charging.count - 1].end = SimTime(microseconds: e) }
            } else {
                charging.append(ChargingInterval(start: SimTime(microseconds: s), end: SimTime(microseconds: e)))
            }
        }

        var decisions: [LowPowerModeDecision] = []
        decisions.reserveCapacity(2 * days)
        for day in 0..<days {
            decisions.append(LowPowerModeDecision(day: day, thresholdPercent: 20, accepts: rng.uniform() < accept20))
            decisions.append(LowPowerModeDecision(day: day, thresholdPercent: 10, accepts: rng.uniform() < accept10))
        }
        let constants = PowerConstants(screenOnDrainWatts: screen, idleDrainWatts: idle, chargingWatts: p.chargingWatts,
                                       batteryCapacityWh: p.batteryCapacityWh, initialBatteryPercent: initial,
                                       lowPowerModeAccept20Probability: accept20, lowPowerModeAccept10Probability: accept10)
        return UserPower(constants: constants, backgroundAppRefreshEnabled: bar, charging: charging,
                         lowPowerModeDecisions: decisions)
    }
}
