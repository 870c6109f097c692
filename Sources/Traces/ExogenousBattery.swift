// The battery of a trace with no background work at all: the exogenous
// baseline. The device simulator integrates the real level (background
// energy included); this is what the trace alone implies, for `traces stats`
// and as a reference the simulator's integration must match when a policy
// does nothing.
import SimCore

/// Battery level and Low Power Mode of one user, from the exogenous drain only.
///
/// Rules (Docs/Semantics.md, Docs/References.md): net power is `chargingWatts − drain` while
/// charging and `−drain` otherwise, with drain `screenOnDrainWatts` during a
/// session and `idleDrainWatts` outside; the level stays in [0, capacity].
/// When the level falls to 20 % (then 10 %) while Low Power Mode is off, the
/// user is offered it and answers with that day's pre-drawn decision; the
/// system switches it off when the level reaches 80 % while charging. Low
/// Power Mode does not change the drain here (its effect on background work
/// is the simulator's business).
public struct ExogenousBattery: Sendable, Hashable {
    /// Time spent in Low Power Mode, µs.
    public var lowPowerModeMicroseconds: Int64 = 0
    /// Time with the battery under 20 %, µs.
    public var below20Microseconds: Int64 = 0
    /// Time with an empty battery (phone would be off), µs.
    public var emptyMicroseconds: Int64 = 0
    /// Offers made at 20 % and at 10 %, and how many were accepted.
    public var offers = 0
    public var acceptedOffers = 0
    /// Level at the horizon, %.
    public var finalPercent = 0.0

    public init(_ trace: UserTrace) {
        let p = trace.profile
        let cap = p.batteryCapacityWh
        var level = min(max(p.initialBatteryPercent, 0), 100) / 100 * cap
        var lpm = false
        // Breakpoints where the power changes.
        var points: [Int64] = [0, trace.horizon.microseconds]
        points.reserveCapacity(2 * (trace.sessions.count + trace.charging.count) + 2)
        for s in trace.sessions { points.append(s.start.microseconds); points.append(s.end.microseconds) }
        for c in trace.charging { points.append(c.start.microseconds); points.append(c.end.microseconds) }
        points.sort()
        var si = 0, ci = 0
        var previous: Int64 = -1
        for (k, a) in points.enumerated() where a != previous && k + 1 < points.count {
            previous = a
            guard let b = points[(k + 1)...].first(where: { $0 > a }) else { break }
            while si < trace.sessions.count && trace.sessions[si].end.microseconds <= a { si += 1 }
            while ci < trace.charging.count && trace.charging[ci].end.microseconds <= a { ci += 1 }
            let screenOn = si < trace.sessions.count && trace.sessions[si].start.microseconds <= a
            let charging = ci < trace.charging.count && trace.charging[ci].start.microseconds <= a
            let drain = screenOn ? p.screenOnDrainWatts : p.idleDrainWatts
            let rate = ((charging ? p.chargingWatts : 0) - drain) / 3.6e9  // Wh per µs
            var t = a
            while t < b {
                if charging && lpm && level >= 0.8 * cap { lpm = false }
                // The next threshold crossing inside [t, b), if any.
                var next = b
                var event: Double?
                if rate < 0 {
                    for threshold in [0.2, 0.1, 0.0] where level > threshold * cap {
                        if let dt = Self.microseconds(((level - threshold * cap) / -rate).rounded(.up), below: next - t) {
                            next = t + dt
                            event = threshold
                        }
                        break  // the highest threshold below the level is hit first
                    }
                } else if rate > 0 && charging && lpm && level < 0.8 * cap {
                    if let dt = Self.microseconds(((0.8 * cap - level) / rate).rounded(.up), below: next - t) {
                        next = t + dt
                        event = 0.8
                    }
                }
                let dt = next - t
                if lpm { lowPowerModeMicroseconds += dt }
                if level < 0.2 * cap || (level == 0.2 * cap && rate < 0) { below20Microseconds += dt }
                if level <= 0 && rate <= 0 { emptyMicroseconds += dt }
                level = min(max(level + rate * Double(dt), 0), cap)
                if let event {
                    level = event * cap  // exactly on the threshold: no second crossing
                    if event == 0.8 {
                        lpm = false
                    } else if event > 0 && !lpm {
                        offers += 1
                        if trace.acceptsLowPowerMode(day: SimTime(microseconds: next).day,
                                                     thresholdPercent: event == 0.2 ? 20 : 10) {
                            lpm = true
                            acceptedOffers += 1
                        }
                    }
                }
                t = next
            }
        }
        finalPercent = level / cap * 100
    }

    /// `x` (a whole number of µs) as an Int64 if it is below `limit`, else
    /// nil. Compared as a Double first: a huge battery or a tiny net power
    /// makes `x` beyond Int64 (or infinite), where `Int64(x)` would trap.
    static func microseconds(_ x: Double, below limit: Int64) -> Int64? {
        x < Double(limit) ? Int64(x) : nil
    }
}
