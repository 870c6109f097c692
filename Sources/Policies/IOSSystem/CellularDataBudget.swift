import Device
import SimCore

/// The cellular-data budget of `ios-system`, counted in bytes: the bytes of
/// the refreshes it saw finish on cellular today (their `TaskReport`'s
/// `bytes` and `network`), spread over the day (``DayAllowance``).
///
/// Source: WWDC 2020 "Background execution demystified", factor "system
/// budgets": "energy and data budget, distributed throughout the day", and
/// using cellular data draws on it. Apple publishes no figure:
/// `cellularBytesPerDay` is an assumption.
///
/// A policy does not know what a run will move before it runs, so the cost
/// of one more cellular refresh is taken as the mean bytes of the cellular
/// refreshes seen so far (0 before the first one: a first run is allowed
/// while anything is left). Only refreshes (and legacy fetches) count:
/// processing tasks are placed on the charger (``ProcessingPlacement``) and
/// are not charged to it.
///
/// Parameters:
/// - `cellularBytesPerDay` (number, bytes per day, range 0…1e12, default
///   2 496 000: 48 refreshes of the default work model's 52 kB, the runs
///   budget this replaces; assumption). The same `energyBurst` fraction is
///   available at midnight.
public struct CellularDataBudget: Sendable, Hashable {
    public var allowance: DayAllowance
    /// Bytes of the cellular refreshes seen to finish today.
    public private(set) var bytesToday = 0.0
    var day = -1
    /// Bytes and number of every cellular refresh seen (the expected cost of one more).
    var bytesSeen = 0.0
    var runsSeen = 0

    /// 48 refreshes of the default work model (2 kB up, 50 kB down).
    public static let defaultBytesPerDay = 2_496_000.0

    public init(bytesPerDay: Double = CellularDataBudget.defaultBytesPerDay, burst: Double = 0.1) {
        allowance = DayAllowance(perDay: bytesPerDay, burst: burst)
    }

    mutating func roll(_ t: SimTime) {
        if t.day != day { day = t.day; bytesToday = 0 }
    }

    /// A refresh finished (seen at `t`): its bytes count if it used cellular.
    public mutating func refreshFinished(_ report: TaskReport, at t: SimTime) {
        roll(t)
        guard report.network == .cellular else { return }
        bytesToday += report.bytes
        bytesSeen += report.bytes
        runsSeen += 1
    }

    /// The expected bytes of one more cellular refresh.
    public var expectedBytesPerRun: Double { runsSeen > 0 ? bytesSeen / Double(runsSeen) : 0 }

    /// Whether `runs` more refreshes may start on cellular at `t` (Wi-Fi and
    /// offline: always; offline runs are the OS's to refuse).
    public func allows(runs: Int, on network: NetworkType, at t: SimTime) -> Bool {
        guard network == .cellular else { return true }
        let today = t.day == day ? bytesToday : 0
        return today + Double(runs) * expectedBytesPerRun <= allowance.allowed(at: t)
    }

    /// When one more cellular refresh fits (nil: not today).
    public func nextRoom(after t: SimTime) -> SimTime? {
        allowance.time(whenAllowed: (t.day == day ? bytesToday : 0) + expectedBytesPerRun, after: t)
    }
}
