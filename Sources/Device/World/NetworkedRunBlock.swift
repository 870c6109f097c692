import SimCore

/// Why a networked run started at some time fails whatever its draws: the
/// one statement of the rule, read by the simulator at a task start
/// (`DeviceSimulator.start`, and the task row's `detail` at its end) and by
/// the oracles through ``FutureLaunches/networkedRunBlocked(app:at:)``.
///
/// A dead zone comes first: nothing gets through, so the request never
/// reaches the backend (the run waits for its request timeout). Otherwise a
/// backend that is down answers with a failure after the transfer and the
/// server's latency. Docs/Semantics.md (dead zones, backend outages).
public enum NetworkedRunBlock: UInt8, Sendable, Hashable {
    case deadZone
    case backendOutage

    /// What blocks a networked run started now, given whether the device is
    /// in a dead zone and whether the app's backend is down (each asked
    /// only if needed).
    @inline(__always)
    public static func of(deadZone: @autoclosure () -> Bool,
                          backendDown: @autoclosure () -> Bool) -> NetworkedRunBlock? {
        if deadZone() { return .deadZone }
        if backendDown() { return .backendOutage }
        return nil
    }

    /// What blocks a networked run started at `t`, given the app's backend
    /// outages and the device's dead zones, and when that interval ends;
    /// nil if neither holds `t`.
    ///
    /// - Complexity: O(log n) in the intervals.
    public static func at(_ t: SimTime, outages: TimeIntervals,
                          deadZones: TimeIntervals) -> (block: NetworkedRunBlock, until: SimTime)? {
        let zoneEnd = deadZones.end(ofIntervalHolding: t), outageEnd = outages.end(ofIntervalHolding: t)
        guard let block = of(deadZone: zoneEnd != nil, backendDown: outageEnd != nil) else { return nil }
        return (block, block == .deadZone ? zoneEnd! : outageEnd!)
    }
}
