import Device
import SimCore

/// The cellular-data budget of `ios-system`, counted in refreshes started
/// on cellular, spread over the day (``DayAllowance``).
///
/// Source: WWDC 2020 "Background execution demystified", factor "system
/// budgets": "energy and data budget, distributed throughout the day", and
/// using cellular data draws on it. Apple publishes no figure:
/// `cellularRunsPerDay` is an assumption.
///
/// Why runs and not bytes: a policy cannot observe bytes. A `TaskReport`
/// carries the outcome, the fetch result and the energy, not the bytes
/// moved, and the apps' `WorkModel`s live in the device configuration,
/// which a policy does not see. What it does observe is the network at each
/// decision (`context.device.network`), so it counts refreshes it saw
/// finish while on cellular. A byte budget needs the bytes of each run in
/// `TaskReport` (a Device change; see Docs/IOSSystemPolicy.md).
///
/// Parameters:
/// - `cellularRunsPerDay` (number, runs per day, range 0…1e6, default 48;
///   assumption). The same `energyBurst` fraction is available at midnight.
public struct CellularDataBudget: Sendable, Hashable {
    public var allowance: DayAllowance
    public private(set) var runsToday = 0
    var day = -1

    public init(runsPerDay: Double = 48, burst: Double = 0.1) {
        allowance = DayAllowance(perDay: runsPerDay, burst: burst)
    }

    mutating func roll(_ t: SimTime) {
        if t.day != day { day = t.day; runsToday = 0 }
    }

    /// A refresh finished while the device was on `network`.
    public mutating func refreshFinished(on network: NetworkType, at t: SimTime) {
        roll(t)
        if network == .cellular { runsToday += 1 }
    }

    /// Whether `runs` more refreshes may start on cellular at `t` (Wi-Fi and
    /// offline: always; offline runs are the OS's to refuse).
    public func allows(runs: Int, on network: NetworkType, at t: SimTime) -> Bool {
        guard network == .cellular else { return true }
        let today = t.day == day ? runsToday : 0
        return Double(today + runs) <= allowance.allowed(at: t)
    }

    /// When one more cellular refresh fits (nil: not today).
    public func nextRoom(after t: SimTime) -> SimTime? {
        allowance.time(whenAllowed: Double((t.day == day ? runsToday : 0) + 1), after: t)
    }
}
