import SimCore

/// The default app world, in one place: the work models, `AppModel`'s and
/// `DeviceConfiguration.apps`' defaults are read from here (a refresh's work
/// is `WorkModel`'s own defaults, declared beside its fields). Unless a
/// source is named, each value is an assumption of the model; an
/// experiment overrides any of them through its `device` section
/// (`defaultApp`, `apps`).
public enum AppDefaults {
    /// A small feed refresh: 0.5 s CPU, 2 kB up, 50 kB down, server latency
    /// median 300 ms (assumed), lognormal spread `serverLatencySigma`.
    public static let refreshWork = WorkModel()
    /// A maintenance job: 60 s CPU, 10 kB up, 2 MB down, latency median 500 ms (assumed).
    public static let processingWork = WorkModel(cpuSeconds: 60, bytesUp: 10_000, bytesDown: 2_000_000,
                                                 serverLatency: .milliseconds(500),
                                                 serverLatencySigma: serverLatencySigma)
    /// Spread of the server latency: ln(latency) is normal around
    /// ln(median) with this σ (assumed 1.5). With a 300 ms median,
    /// P(latency > 30 s) = P(Z > ln(100)/1.5 ≈ 3.07) ≈ 0.1 %: a few
    /// refreshes outlive their 30 s budget and expire (rules 3 and 5).
    public static let serverLatencySigma = 1.5
    /// Failure probability of a task on Wi-Fi / cellular (assumed).
    public static let failureProbabilityWifi = 0.01
    public static let failureProbabilityCellular = 0.03
    /// `earliestBeginDate` an app asks for, after going to the background
    /// or at handler start (15 min, the usual minimum in practice; assumed).
    public static let refreshEarliestBeginDelay: SimDuration = .minutes(15)
    /// Legacy fetch: `setMinimumBackgroundFetchInterval` (assumed 15 min).
    public static let minimumFetchInterval: SimDuration = .minutes(15)
    /// An app retries a failed refresh after this (assumed: apps commonly
    /// retry a failed fetch soon). nil would mean never.
    public static let retryDelayAfterFailure: SimDuration? = .minutes(1)

    /// The podcast app: besides its refresh, a daily processing task that
    /// downloads new episodes (30 MB, about a 30-minute episode at
    /// 128 kbit/s; 30 s CPU) while charging and online — so the default
    /// world has processing tasks, expired when the user picks up the phone
    /// (rule 3). Assumed.
    public static let podcast = AppModel(
        processing: WorkModel(cpuSeconds: 30, bytesUp: 10_000, bytesDown: 30_000_000,
                              serverLatency: .milliseconds(500), serverLatencySigma: serverLatencySigma),
        processingInterval: .hours(24), processingRequiresExternalPower: true, processingRequiresNetwork: true)

    /// Per-app models of the default `DeviceConfiguration` (by app name, as
    /// in the trace generator's app list); other apps use `AppModel()`.
    public static let apps: [String: AppModel] = ["podcast": podcast]
}
