/// Per-user silent-push counts and energy (`UserMetrics.silentPush`), and
/// their `runs.csv` columns (appended after the device's own columns).
public struct SilentPushMetrics: Sendable, Hashable {
    /// Pushes the app servers sent.
    public var sent = 0
    /// Deliveries that woke an app in the background (a coalesced delivery counts once).
    public var deliveredBackground = 0
    /// Deliveries to the app in the foreground (it fetches in the foreground: no background energy).
    public var deliveredForeground = 0
    /// Pushes folded into a held one (no delivery of their own).
    public var coalesced = 0
    /// Pushes dropped (force-quit app, Background App Refresh off).
    public var dropped = 0
    /// Pushes still held at the end of the run (never delivered).
    public var heldAtEnd = 0
    /// Background handler runs by outcome.
    public var succeeded = 0
    public var failed = 0
    public var expired = 0
    /// Successful handler runs that fetched at least one new update.
    public var newData = 0
    /// Background energy of push deliveries (wake, promotion, active, CPU;
    /// tails are in `energy_tail_j` with every other tail), joules.
    public var energyJoules = 0.0
    /// Sum over deliveries (background and foreground) of the delay from
    /// the first push they announce to the delivery, seconds.
    public var delaySumSeconds = 0.0

    public init() {}

    /// Mean delay from send to delivery, seconds (NaN without deliveries).
    public var meanDelaySeconds: Double {
        let n = deliveredBackground + deliveredForeground
        return n > 0 ? delaySumSeconds / Double(n) : .nan
    }

    static let columns: [UserMetrics.Column] = [
        .init(name: "push_sent", unit: "count", description: "silent pushes sent by the app servers") { Double($0.silentPush.sent) },
        .init(name: "push_delivered_bg", unit: "count", description: "push deliveries that woke an app in the background (coalesced: once)") { Double($0.silentPush.deliveredBackground) },
        .init(name: "push_delivered_fg", unit: "count", description: "push deliveries to the app in the foreground") { Double($0.silentPush.deliveredForeground) },
        .init(name: "push_coalesced", unit: "count", description: "pushes folded into a held push") { Double($0.silentPush.coalesced) },
        .init(name: "push_dropped", unit: "count", description: "pushes dropped (force-quit app, Background App Refresh off)") { Double($0.silentPush.dropped) },
        .init(name: "push_held_at_end", unit: "count", description: "pushes still held at the end of the run") { Double($0.silentPush.heldAtEnd) },
        .init(name: "push_succeeded", unit: "count", description: "background push handler runs that succeeded") { Double($0.silentPush.succeeded) },
        .init(name: "push_failed", unit: "count", description: "background push handler runs that failed (server, connection lost)") { Double($0.silentPush.failed) },
        .init(name: "push_expired", unit: "count", description: "background push handler runs expired at the handler budget") { Double($0.silentPush.expired) },
        .init(name: "push_new_data", unit: "count", description: "successful push handler runs that fetched new content") { Double($0.silentPush.newData) },
        .init(name: "push_energy_j", unit: "J", description: "background energy of push deliveries (wake, promotion, active, CPU; tails excluded), included in energy_total_j") { $0.silentPush.energyJoules },
        .init(name: "push_mean_delay_s", unit: "s", description: "mean delay from the first push a delivery announces to the delivery; NaN without deliveries") { $0.silentPush.meanDelaySeconds },
    ]
}
