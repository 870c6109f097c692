import Device
import Foundation
import SimCore
import TestSupport

/// Sessions of `length` starting at the given times, all for app 0 unless stated.
func sessions(at starts: [SimTime], length: SimDuration = .seconds(10 as Int64), app: Int32 = 0) -> [DeviceTrace.Session] {
    var out: [DeviceTrace.Session] = []
    var lastEnd = SimTime.zero
    for s in starts where s >= lastEnd {
        out.append(.init(start: s, end: s + length, app: app))
        lastEnd = s + length
    }
    return out
}

/// A trace with no battery drain (the battery stays at its initial level).
func flatTrace(days: Int, apps: [String] = ["news"], sessions: [DeviceTrace.Session] = [],
               updates: [[SimTime]]? = nil, network: [DeviceTrace.Network]? = nil,
               charging: [DeviceTrace.Charging] = [], battery: Double = 100) -> DeviceTrace {
    DeviceTrace(horizon: SimTime(day: days), appNames: apps, sessions: sessions, charging: charging,
                network: network, contentUpdates: updates, screenOnDrainWatts: 0, idleDrainWatts: 0,
                initialBatteryPercent: battery)
}

/// Deliberately dumb: runs everything the OS allows whenever asked.
struct RunEverythingAllowed: SchedulingPolicy {
    func decide(context: PolicyContext) -> PolicyDecision {
        let next = context.pending.map(\.earliestBegin).filter { $0 > context.now }.min()
        return PolicyDecision(runAllEligible: true, wakeAt: next)
    }
}

/// Deliberately misbehaving: asks to run every pending request (legal or
/// not) and an unknown id, and wants to be woken every `every`.
struct AsksForEverything: SchedulingPolicy {
    var every: SimDuration = .minutes(1)
    var askUnknown = false
    func decide(context: PolicyContext) -> PolicyDecision {
        var run = context.pending.map(\.id)
        if askUnknown { run.append(RequestID(999_999)) }
        return PolicyDecision(run: run, wakeAt: context.now + every)
    }
}

/// Runs pending refresh/fetch requests exactly on the grid k·T (and only then).
struct FixedGrid: SchedulingPolicy {
    var period: SimDuration
    var lastRun = SimTime(microseconds: -1)
    mutating func decide(context: PolicyContext) -> PolicyDecision {
        let p = period.microseconds
        let onGrid = context.now.microseconds % p == 0
        let next = SimTime(microseconds: (context.now.microseconds / p + 1) * p)
        guard onGrid && context.now != lastRun else { return PolicyDecision(wakeAt: next) }
        lastRun = context.now
        return PolicyDecision(runAllEligible: true, wakeAt: next)
    }
}
