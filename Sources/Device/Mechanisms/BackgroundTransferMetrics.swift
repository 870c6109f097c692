/// Per-user background `URLSession` counts and energy (`UserMetrics.urlSession`).
public struct BackgroundTransferMetrics: Sendable, Hashable {
    /// Transfers handed to the system at session ends.
    public var handed = 0
    /// Hands while the app's previous transfer was still pending (not handed again).
    public var alreadyPending = 0
    /// Runs started on the radio (a paused transfer restarts: one more run).
    public var runs = 0
    /// Runs paused because their condition ended (offline; for a
    /// discretionary one also off Wi-Fi or unplugged) before the bytes were in.
    public var paused = 0
    /// Transfers whose bytes were all in.
    public var completed = 0
    /// Transfers that failed at the resource timeout.
    public var timedOut = 0
    /// Background relaunches of apps for completed transfers.
    public var relaunches = 0
    /// Completions handled by the app in the foreground (no relaunch).
    public var deliveredForeground = 0
    /// Completions (relaunch or foreground) that brought new content.
    public var newData = 0
    /// Energy: the transfers' promotion and active energy, the relaunches'
    /// wake and CPU (tails excluded), joules.
    public var energyJoules = 0.0
    /// Sum over background relaunches of the wait from the bytes being in
    /// to the relaunch (the rate limit), seconds.
    public var relaunchWaitSumSeconds = 0.0

    /// Transfers (waiting or running) cancelled when the user force-quit the app.
    public var cancelledForceQuit = 0

    public init() {}

    public var meanRelaunchWaitSeconds: Double { relaunches > 0 ? relaunchWaitSumSeconds / Double(relaunches) : .nan }

    static let columns: [UserMetrics.Column] = [
        .init(name: "url_handed", unit: "count", description: "transfers handed to a background URLSession at session ends") { Double($0.urlSession.handed) },
        .init(name: "url_already_pending", unit: "count", description: "hands while the app's previous transfer was pending (not handed)") { Double($0.urlSession.alreadyPending) },
        .init(name: "url_runs", unit: "count", description: "transfer runs started on the radio (restarts included)") { Double($0.urlSession.runs) },
        .init(name: "url_paused", unit: "count", description: "runs paused when their condition ended before the bytes were in") { Double($0.urlSession.paused) },
        .init(name: "url_completed", unit: "count", description: "transfers whose bytes were all in") { Double($0.urlSession.completed) },
        .init(name: "url_timed_out", unit: "count", description: "transfers failed at the resource timeout") { Double($0.urlSession.timedOut) },
        .init(name: "url_relaunches", unit: "count", description: "background relaunches for completed transfers") { Double($0.urlSession.relaunches) },
        .init(name: "url_delivered_fg", unit: "count", description: "completions handled by the app in the foreground") { Double($0.urlSession.deliveredForeground) },
        .init(name: "url_new_data", unit: "count", description: "completions that brought new content") { Double($0.urlSession.newData) },
        .init(name: "url_energy_j", unit: "J", description: "transfer promotion and active energy plus relaunch wake and CPU (tails excluded), included in energy_total_j") { $0.urlSession.energyJoules },
        .init(name: "url_mean_relaunch_wait_s", unit: "s", description: "mean wait from bytes in to background relaunch (rate limit); NaN without relaunches") { $0.urlSession.meanRelaunchWaitSeconds },
    ]
}
