@_spi(BuiltInPolicies) import Device
import Foundation
@_spi(BuiltInPolicies) import Policies
import SimCore
import Traces
import XCTest

extension XCTestCase {
    /// A few generated users of the default world (seeded).
    func users(_ n: Int, days: Int, seed: UInt64 = 5) -> [DeviceTrace] {
        let gen = PopulationGenerator(parameters: .default, seed: seed, days: days)
        return (0..<n).map { DeviceTrace(gen.user($0), apps: gen.parameters.apps) }
    }

    /// Background joules spent per day (by the time of each logged charge).
    func joulesByDay(_ log: EventRecorder, days: Int) -> [Double] {
        var out = [Double](repeating: 0, count: days + 1)
        // Battery energy only, as the budget counts it: the default world's
        // processing task (podcast) needs external power, so runs on the charger.
        for e in log.events where e.taskKind != .processing { out[min(days, max(0, e.time.day))] += e.energy.total }
        return out
    }

    /// One LTE refresh with its promotion and tail, joules (the most a day
    /// may overshoot a budget by: the check is made before a run).
    var oneLTERun: Double { 27 }

    func refresh(earliestBegin: SimTime) -> TaskRequest {
        TaskRequest(id: RequestID(7), app: 0, identifier: 0, kind: .appRefresh, earliestBegin: earliestBegin, submittedAt: .zero)
    }
}
