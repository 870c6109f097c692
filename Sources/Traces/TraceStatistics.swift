// The numbers a researcher checks a trace set against published figures with
// (`bgbench traces stats`). Accumulates user by user, so a population never
// has to be held in memory.
import Foundation
import SimCore

public struct TraceStatistics: Sendable {
    public private(set) var users = 0
    public let days: Int
    /// Per user: sessions per day over the trace.
    public private(set) var sessionsPerDay: [Double] = []
    /// Per user: intensity class.
    public private(set) var intensityCounts: [IntensityClass: Int] = [:]
    /// Every session's length, µs (sorted on demand).
    public private(set) var sessionLengths: [Int64] = []
    /// Sessions starting 00:00–06:00, and on weekend days.
    public private(set) var nightSessions = 0
    public private(set) var weekendSessions = 0
    /// Total µs charging, per network kind, in Low Power Mode (exogenous).
    public private(set) var chargingMicroseconds: Int64 = 0
    public private(set) var networkMicroseconds: [NetworkKind: Int64] = [:]
    public private(set) var lowPowerModeMicroseconds: Int64 = 0
    public private(set) var below20Microseconds: Int64 = 0
    /// Nights (user × night ending on days 1..<days, plus the first morning)
    /// whose 03:00 falls inside a charging interval.
    public private(set) var nights = 0
    public private(set) var nightsCharging = 0
    /// Low Power Mode offers (exogenous battery) and acceptances.
    public private(set) var lowPowerModeOffers = 0
    public private(set) var lowPowerModeAccepted = 0

    public init(days: Int) { self.days = days }

    /// Statistics of a whole trace set.
    public init(_ set: TraceSet) {
        self.init(days: set.days)
        for u in set.users { add(u) }
    }

    public mutating func add(_ trace: UserTrace) {
        users += 1
        sessionsPerDay.append(Double(trace.sessions.count) / Double(days))
        intensityCounts[trace.profile.intensity, default: 0] += 1
        let sixAM = SimDuration.hours(6)
        for s in trace.sessions {
            sessionLengths.append(s.duration.microseconds)
            if s.start.timeOfDay < sixAM { nightSessions += 1 }
            if s.start.isWeekend { weekendSessions += 1 }
        }
        for c in trace.charging { chargingMicroseconds += (c.end - c.start).microseconds }
        for n in trace.network { networkMicroseconds[n.kind, default: 0] += (n.end - n.start).microseconds }
        var ci = 0
        for day in 0..<days {
            let t = SimTime(day: day, plus: .hours(3))
            while ci < trace.charging.count && trace.charging[ci].end <= t { ci += 1 }
            nights += 1
            if ci < trace.charging.count && trace.charging[ci].start <= t { nightsCharging += 1 }
        }
        let battery = ExogenousBattery(trace)
        lowPowerModeMicroseconds += battery.lowPowerModeMicroseconds
        below20Microseconds += battery.below20Microseconds
        lowPowerModeOffers += battery.offers
        lowPowerModeAccepted += battery.acceptedOffers
    }

    /// Linear-interpolation quantile (type 7) of sorted values.
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let h = Double(sorted.count - 1) * q
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, sorted.count - 1)
        return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
    }

    private var totalMicroseconds: Double { Double(users) * Double(days) * Double(SimDuration.microsecondsPerDay) }
    private var sessionCount: Double { Double(sessionLengths.count) }

    public var shareUnder30Seconds: Double { Double(sessionLengths.lazy.filter { $0 < 30_000_000 }.count) / sessionCount }
    public var shareUnder4Minutes: Double { Double(sessionLengths.lazy.filter { $0 < 240_000_000 }.count) / sessionCount }
    public var nightShare: Double { Double(nightSessions) / sessionCount }
    public var chargingShare: Double { Double(chargingMicroseconds) / totalMicroseconds }
    public func networkShare(_ kind: NetworkKind) -> Double { Double(networkMicroseconds[kind] ?? 0) / totalMicroseconds }
    public var lowPowerModeShare: Double { Double(lowPowerModeMicroseconds) / totalMicroseconds }
    public var overnightChargingShare: Double { Double(nightsCharging) / Double(max(nights, 1)) }
    /// Session-length quantiles in seconds.
    public func sessionLengthQuantile(_ q: Double) -> Double {
        Self.quantile(sessionLengths.map { Double($0) / 1e6 }.sorted(), q)
    }
    public func sessionsPerDayQuantile(_ q: Double) -> Double { Self.quantile(sessionsPerDay.sorted(), q) }

    /// A markdown table: metric, value, and the published figure or target.
    public var markdown: String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        func pct(_ x: Double) -> String { String(format: "%.1f %%", 100 * x) }
        let lengths = sessionLengths.map { Double($0) / 1e6 }.sorted()
        let perDay = sessionsPerDay.sorted()
        let mean = perDay.isEmpty ? .nan : perDay.reduce(0, +) / Double(perDay.count)
        let q = Self.quantile
        let weekendDays = (0..<days).filter { SimTime(day: $0).isWeekend }.count
        let weekdayRate = Double(sessionLengths.count - weekendSessions) / Double(max(users * (days - weekendDays), 1))
        let weekendRate = Double(weekendSessions) / Double(max(users * weekendDays, 1))
        var rows: [(String, String, String)] = [
            ("users × days", "\(users) × \(days)", ""),
            ("users light / moderate / heavy",
             "\(intensityCounts[.light] ?? 0) / \(intensityCounts[.moderate] ?? 0) / \(intensityCounts[.heavy] ?? 0)", ""),
            ("sessions per user-day: mean", f(mean), "10–200 across users (Falaki et al. 2010)"),
            ("sessions per user-day: min / p10 / median / p90 / max",
             "\(f(perDay.first ?? .nan)) / \(f(q(perDay, 0.1))) / \(f(q(perDay, 0.5))) / \(f(q(perDay, 0.9))) / \(f(perDay.last ?? .nan))",
             "10–200 (Falaki et al. 2010)"),
            ("sessions per day: weekday / weekend", "\(f(weekdayRate)) / \(f(weekendRate))", ""),
            ("session length p25 / p50 / p75 / p90 / p99 (s)",
             "\(f(q(lengths, 0.25))) / \(f(q(lengths, 0.5))) / \(f(q(lengths, 0.75))) / \(f(q(lengths, 0.9))) / \(f(q(lengths, 0.99)))",
             "p50 ≈ 30, p90 ≈ 240 (Yan et al. 2012)"),
            ("session length mean (s)", f(lengths.isEmpty ? .nan : lengths.reduce(0, +) / Double(lengths.count)),
             "10–250 across users (Falaki et al. 2010)"),
            ("sessions under 30 s", pct(shareUnder30Seconds), "≈ 50 % (Yan et al. 2012)"),
            ("sessions under 4 min", pct(shareUnder4Minutes), "≈ 90 % (Yan et al. 2012)"),
            ("sessions starting 00:00–06:00", pct(nightShare), "quiet at night"),
            ("time charging", pct(chargingShare), ""),
            ("nights charging at 03:00", pct(overnightChargingShare), ""),
            ("time on Wi-Fi", pct(networkShare(.wifi)), ""),
            ("time on cellular", pct(networkShare(.cellular)), ""),
            ("time offline", pct(networkShare(.offline)), ""),
            ("time under 20 % (exogenous drain only)", pct(Double(below20Microseconds) / totalMicroseconds), ""),
            ("time in Low Power Mode (exogenous drain only)", pct(lowPowerModeShare), ""),
            ("Low Power Mode offers / accepted (exogenous)", "\(lowPowerModeOffers) / \(lowPowerModeAccepted)", ""),
        ]
        if users == 0 { rows = [("users × days", "0 × \(days)", "")] }
        var text = "| metric | value | reference |\n|---|---|---|\n"
        for (m, v, r) in rows { text += "| \(m) | \(v) | \(r) |\n" }
        return text
    }
}
