@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore

struct FixtureRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Double(DeviceRandom.mix(state) >> 11) * 0x1.0p-53
    }
    mutating func poisson(perHour: Double, from: SimTime = .zero, horizon: SimTime) -> [SimTime] {
        var out: [SimTime] = []
        var t = Double(from.microseconds)
        while true {
            t += -log(1 - next()) / (perHour / 3.6e9)
            if t >= Double(horizon.microseconds) { return out }
            out.append(SimTime(microseconds: Int64(t)))
        }
    }
}

func at(day: Int, _ h: Double) -> SimTime { SimTime(day: day, plus: .seconds(h * 3600)) }

/// Sorted, non-overlapping sessions from (start, app) pairs.
func makeSessions(_ starts: [(SimTime, Int32)], length: SimDuration = .seconds(60 as Int64)) -> [DeviceTrace.Session] {
    var out: [DeviceTrace.Session] = []
    var lastEnd = SimTime(microseconds: -1)
    for (s, a) in starts.sorted(by: { $0.0 < $1.0 }) where s > lastEnd {
        out.append(.init(start: s, end: s + length, app: a))
        lastEnd = s + length
    }
    return out
}

func trace(days: Int, apps: [String], sessions: [DeviceTrace.Session], updates: [[SimTime]],
           network: NetworkType = .wifi) -> DeviceTrace {
    DeviceTrace(horizon: SimTime(day: days), appNames: apps, sessions: sessions,
                network: [.init(start: .zero, end: SimTime(day: days), network: network)],
                contentUpdates: updates, screenOnDrainWatts: 0, idleDrainWatts: 0)
}
