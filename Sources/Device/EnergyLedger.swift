/// Background energy by component, joules. Foreground (screen-on) energy is
/// in the trace's drain and is not counted here.
@frozen
public struct EnergyLedger: Sendable, Hashable {
    /// Wake-up overheads.
    public var wake: Double = 0
    /// CPU while tasks compute.
    public var cpu: Double = 0
    /// Radio promotions (idle → connected).
    public var promotion: Double = 0
    /// Radio active transfer power.
    public var active: Double = 0
    /// Radio tails not already paid for by foreground use.
    public var tail: Double = 0

    public init() {}

    /// Sum of all components, joules.
    @inlinable
    public var total: Double { wake + cpu + promotion + active + tail }

    @inlinable
    public static func + (a: EnergyLedger, b: EnergyLedger) -> EnergyLedger {
        var r = a
        r.wake += b.wake; r.cpu += b.cpu; r.promotion += b.promotion
        r.active += b.active; r.tail += b.tail
        return r
    }

    @inlinable
    public static func - (a: EnergyLedger, b: EnergyLedger) -> EnergyLedger {
        var r = a
        r.wake -= b.wake; r.cpu -= b.cpu; r.promotion -= b.promotion
        r.active -= b.active; r.tail -= b.tail
        return r
    }
}

extension EnergyLedger {
    /// The ledger's columns, component by component then the total (in
    /// `runs.csv` and `apps.csv` alike, each lifted to where its ledger is).
    public static let columns: [MetricColumn<EnergyLedger>] = [
        .value(\.wake, "energy_wake_j", unit: "J", "background wake-up overhead"),
        .value(\.cpu, "energy_cpu_j", unit: "J", "background CPU"),
        .value(\.promotion, "energy_promotion_j", unit: "J", "radio promotions caused by background work"),
        .value(\.active, "energy_active_j", unit: "J", "radio active transfer energy of background work"),
        .value(\.tail, "energy_tail_j", unit: "J", "radio tails of background work beyond foreground tails"),
        .value(\.total, "energy_total_j", unit: "J", "all background energy"),
    ]
}
