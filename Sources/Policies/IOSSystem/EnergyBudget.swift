import Device
import SimCore

/// The system energy budget of `ios-system`: background battery energy per
/// day, spread over the day (``DayAllowance``).
///
/// Source: WWDC 2020 "Background execution demystified", factor "system
/// budgets": an energy and a data budget, "distributed throughout the day".
/// Apple publishes no figure: `energyBudget` and `energyBurst` are
/// assumptions.
///
/// What it counts: the growth of `context.backgroundJoules` (task energy,
/// wakes, radio promotions and tails) seen between two calls, except growth
/// seen while the device was charging (the budget protects the battery:
/// work on the charger is free; assumption). What a run is expected to cost:
/// background joules counted so far over tasks seen to finish (nothing is
/// expected of the first run). A run starts only if today's spending plus
/// the expected cost of the runs asked for so far in this decision stays
/// within the allowance.
///
/// Parameters:
/// - `energyBudget` (number, J per day, range 0…1e12, default 100;
///   assumption, the same daily budget as `usage-predictor`'s).
/// - `energyBurst` (number, fraction of the day's budget available at
///   midnight, range 0…1, default 0.1; assumption).
public struct EnergyBudget: Sendable, Hashable {
    public var allowance: DayAllowance
    /// Background joules counted today (battery only).
    public private(set) var spentToday = 0.0
    var day = -1
    /// `backgroundJoules` and charging at the last look.
    var lastJoules = 0.0
    var lastCharging = false
    /// Battery joules counted over all days, and finished tasks: their ratio
    /// is the expected cost of a run.
    var countedJoules = 0.0
    var tasksSeen = 0

    public init(perDay: Double = 100, burst: Double = 0.1) {
        allowance = DayAllowance(perDay: perDay, burst: burst)
    }

    /// Brings the books up to `context` (call at every observation and decision).
    public mutating func sync(_ context: PolicyContext) {
        if context.now.day != day {
            day = context.now.day
            spentToday = 0
        }
        let grown = max(0, context.backgroundJoules - lastJoules)
        if !(lastCharging && context.device.isCharging) {
            spentToday += grown
            countedJoules += grown
        }
        lastJoules = context.backgroundJoules
        lastCharging = context.device.isCharging
    }

    /// A task finished (for the expected cost).
    public mutating func taskFinished() { tasksSeen += 1 }

    /// What the next run is expected to cost, J.
    public var expectedCost: Double { tasksSeen == 0 ? 0 : countedJoules / Double(tasksSeen) }

    /// Whether `runs` more runs fit in today's allowance at `t` (always on the charger).
    public func allows(runs: Int, at t: SimTime, charging: Bool) -> Bool {
        charging || spentToday + Double(runs) * expectedCost <= allowance.allowed(at: t)
    }

    /// When one more run fits (nil: not today).
    public func nextRoom(after t: SimTime) -> SimTime? {
        allowance.time(whenAllowed: spentToday + expectedCost, after: t)
    }
}
