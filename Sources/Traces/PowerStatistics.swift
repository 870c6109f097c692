// The power stream of a trace set in the figures one can check against a
// real phone (`bgbench traces stats`, Datasets/README.md "The generator
// against a real month"): share of time charging, the overnight charge
// (share of nights, plug-in time, length), daytime top-ups, and the daily
// minimum battery level — measured where the set has battery_level.csv,
// else integrated from the exogenous drains (no background work).
import Foundation
import SimCore

public struct PowerStatistics: Sendable {
    /// µs observed: per user the span of its battery readings when it has
    /// any (an import's data covers only part of its trace), else the horizon.
    public private(set) var observedMicroseconds: Int64 = 0
    public private(set) var chargingMicroseconds: Int64 = 0
    /// Nights whose 03:00 lies in the observed span, and those on the charger then.
    public private(set) var nights = 0
    public private(set) var overnightCharges = 0
    /// Per overnight charge: plug-in hour (evening hours as 18–30, so that
    /// 23:30 and 00:30 average to midnight) and length in hours.
    public private(set) var plugInHours: [Double] = []
    public private(set) var overnightLengths: [Double] = []
    /// Charges not covering a 03:00, and the observed days they fall in.
    public private(set) var topUps = 0
    /// Per whole observed day: the lowest battery level, %.
    public private(set) var dailyMinimumPercent: [Double] = []
    /// Whether every user's levels were measured (else some were modelled).
    public private(set) var measured = true

    public init() {}

    public init(_ set: TraceSet) {
        self.init()
        for u in set.users { add(u) }
    }

    public mutating func add(_ trace: UserTrace) {
        let day = SimDuration.microsecondsPerDay, hour = Double(SimDuration.microsecondsPerHour)
        let from = trace.batteryLevel.first?.time.microseconds ?? 0
        let to = trace.batteryLevel.last?.time.microseconds ?? trace.horizon.microseconds
        guard to > from else { return }
        observedMicroseconds += to - from
        for c in trace.charging {
            let s = max(c.start.microseconds, from), e = min(c.end.microseconds, to)
            if e > s { chargingMicroseconds += e - s }
            // An overnight charge covers a 03:00 (inside the observed span).
            let first3 = (c.start.microseconds - 3 * Int64(hour) + day - 1) / day * day + 3 * Int64(hour)
            if first3 < c.end.microseconds && first3 >= from && first3 <= to {
                // A charge cut by the start or the end of what is observed
                // (the trace's, or the readings') has no true plug-in time
                // or length.
                let cutStart = c.start.microseconds <= from, cutEnd = c.end.microseconds >= to
                var h = Double(c.start.microseconds % day) / hour
                if h < 6 { h += 24 }
                if !cutStart { plugInHours.append(h) }
                if !cutStart && !cutEnd { overnightLengths.append(Double((c.end - c.start).microseconds) / hour) }
            } else if c.start.microseconds >= from && c.start.microseconds < to {
                topUps += 1
            }
        }
        var ci = 0
        var t3 = (from - 3 * Int64(hour) + day - 1) / day * day + 3 * Int64(hour)
        while t3 <= to {
            while ci < trace.charging.count && trace.charging[ci].end.microseconds <= t3 { ci += 1 }
            nights += 1
            if ci < trace.charging.count && trace.charging[ci].start.microseconds <= t3 { overnightCharges += 1 }
            t3 += day
        }
        // Whole days inside the observed span.
        let firstDay = Int((from + day - 1) / day), lastDay = Int(to / day)
        guard lastDay > firstDay else { return }
        var minimum = [Double](repeating: .infinity, count: lastDay - firstDay)
        func note(_ t: Int64, _ level: Double) {
            let d = Int(t / day)
            if d >= firstDay && d < lastDay { minimum[d - firstDay] = min(minimum[d - firstDay], level) }
            if t % day == 0 && d - 1 >= firstDay && d - 1 < lastDay { minimum[d - 1 - firstDay] = min(minimum[d - 1 - firstDay], level) }
        }
        if trace.batteryLevel.isEmpty {
            measured = false
            for (t, level) in Self.modelledLevels(trace) { note(t, level) }
        } else {
            // Linear between readings: the minimum of a day is at a reading or at its ends.
            let r = trace.batteryLevel
            for x in r { note(x.time.microseconds, x.percent) }
            var k = 0
            for d in firstDay...lastDay {
                let t = Int64(d) * day
                while k + 1 < r.count && r[k + 1].time.microseconds <= t { k += 1 }
                guard k + 1 < r.count, r[k].time.microseconds <= t else { continue }
                let a = r[k], b = r[k + 1]
                let level = a.percent + (b.percent - a.percent) * Double(t - a.time.microseconds) / Double((b.time - a.time).microseconds)
                note(t, level)
            }
        }
        dailyMinimumPercent += minimum.filter(\.isFinite)
    }

    /// The exogenous level (no background work) at every point where the
    /// power changes and at each midnight, as `ExogenousBattery` integrates
    /// it: charger minus the screen-on or idle drain, clamped to [0, 100] %.
    /// Between points the level is linear, so a day's minimum is at a point.
    static func modelledLevels(_ trace: UserTrace) -> [(Int64, Double)] {
        let p = trace.profile
        let horizon = trace.horizon.microseconds, day = SimDuration.microsecondsPerDay
        var points: [Int64] = Array(stride(from: 0, through: horizon, by: Int(day)))
        for s in trace.sessions { points += [s.start.microseconds, s.end.microseconds] }
        for c in trace.charging { points += [c.start.microseconds, c.end.microseconds] }
        points = Array(Set(points)).sorted()
        var level = min(max(p.initialBatteryPercent, 0), 100)
        var out: [(Int64, Double)] = [(0, level)]
        var si = 0, ci = 0
        for (a, b) in zip(points, points.dropFirst()) {
            while si < trace.sessions.count && trace.sessions[si].end.microseconds <= a { si += 1 }
            while ci < trace.charging.count && trace.charging[ci].end.microseconds <= a { ci += 1 }
            let screenOn = si < trace.sessions.count && trace.sessions[si].start.microseconds <= a
            let charging = ci < trace.charging.count && trace.charging[ci].start.microseconds <= a
            let watts = (charging ? p.chargingWatts : 0) - (screenOn ? p.screenOnDrainWatts : p.idleDrainWatts)
            level += watts * Double(b - a) / 1e6 / (p.batteryCapacityWh * 3600) * 100
            level = min(max(level, 0), 100)
            out.append((b, level))
        }
        return out
    }

    public var chargingShare: Double { Double(chargingMicroseconds) / Double(max(observedMicroseconds, 1)) }
    public var overnightShare: Double { Double(overnightCharges) / Double(max(nights, 1)) }
    public var observedDays: Double { Double(observedMicroseconds) / Double(SimDuration.microsecondsPerDay) }
    public var topUpsPerDay: Double { Double(topUps) / max(observedDays, 1e-9) }

    /// The rows of the comparison: metric and this set's value.
    public var rows: [(String, String)] {
        func f(_ x: Double, _ d: Int = 1) -> String { x.isFinite ? String(format: "%.\(d)f", x) : "–" }
        func clock(_ h: Double) -> String {
            guard h.isFinite else { return "–" }
            let m = Int((h * 60).rounded()) % (24 * 60)
            return String(format: "%02d:%02d", m / 60, m % 60)
        }
        let q = TraceStatistics.quantile
        let plug = plugInHours.sorted(), length = overnightLengths.sorted(), low = dailyMinimumPercent.sorted()
        return [
            ("user-days observed", f(observedDays)),
            ("time charging", String(format: "%.1f %%", 100 * chargingShare)),
            ("nights on the charger at 03:00", String(format: "%.1f %%", 100 * overnightShare)),
            ("overnight plug-in p10 / median / p90", "\(clock(q(plug, 0.1))) / \(clock(q(plug, 0.5))) / \(clock(q(plug, 0.9)))"),
            ("overnight charge length p10 / median / p90 (h)", "\(f(q(length, 0.1))) / \(f(q(length, 0.5))) / \(f(q(length, 0.9)))"),
            ("top-ups (charges not over 03:00) per day", f(topUpsPerDay, 2)),
            ("daily minimum level p10 / median / p90 (%)\(measured ? " (measured)" : " (exogenous drain only)")",
             "\(f(q(low, 0.1))) / \(f(q(low, 0.5))) / \(f(q(low, 0.9)))"),
            ("days with a minimum under 20 %", low.isEmpty ? "–" : String(format: "%.1f %%", 100 * Double(low.filter { $0 < 20 }.count) / Double(low.count))),
        ]
    }

    /// This set beside the generator's default world, with the default
    /// parameter each row checks.
    public static func comparison(_ set: PowerStatistics, label: String, defaults: PowerStatistics, defaultsLabel: String,
                                  parameters: PowerParameters = .default) -> String {
        func hm(_ h: Double) -> String { String(format: "%02d:%02d", Int(h) % 24, Int(((h - h.rounded(.down)) * 60).rounded())) }
        let p = parameters
        let notes = [
            "",
            "follows from the rows below",
            "overnightProbability \(p.overnightProbability)",
            "plug-in \(hm(p.plugInHourMean)) (user SD \(p.plugInHourUserSD) h, night SD \(p.plugInHourNightSD) h)",
            "unplug \(hm(p.unplugHourMean)), +\(p.weekendUnplugDelayHours) h weekend mornings",
            "topUpsPerDayMean \(p.topUpsPerDayMean) (\(Int(p.topUpEarliestHour))–\(Int(p.topUpLatestHour)) h, mean \(Int(p.topUpMeanMinutes)) min)",
            "drains: screen \(p.screenOnDrainMedianWatts) W, idle \(p.idleDrainMedianWatts) W; capacity \(p.batteryCapacityWh) Wh",
            "",
        ]
        var text = "| power | \(label) | \(defaultsLabel) | generator parameter (all assumptions) |\n|---|---|---|---|\n"
        for (i, (a, b)) in zip(set.rows, defaults.rows).enumerated() {
            text += "| \(a.0) | \(a.1) | \(b.1) | \(notes[i]) |\n"
        }
        return text
    }
}
