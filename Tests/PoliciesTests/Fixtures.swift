@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import TestSupport

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
           network: NetworkKind = .wifi) -> DeviceTrace {
    DeviceTrace(horizon: SimTime(day: days), appNames: apps, sessions: sessions,
                network: [.init(start: .zero, end: SimTime(day: days), kind: network)],
                contentUpdates: updates, screenOnDrainWatts: 0, idleDrainWatts: 0)
}
