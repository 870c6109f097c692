import SimCore
import Traces

/// The constants of Android's background-work rules that BGBench applies on
/// `device.platform: "android"` (JSON key `device.android`), each declared
/// once with its unit, range, default and source. How they are used:
/// Docs/AndroidPlatform.md.
///
/// Sources quoted are AOSP's `android.app.job.JobInfo`
/// (`MIN_PERIOD_MILLIS = 900000`, `MIN_FLEX_MILLIS = 300000`,
/// `DEFAULT_INITIAL_BACKOFF_MILLIS = 30000`, `MIN_BACKOFF_MILLIS = 10000`,
/// `MAX_BACKOFF_DELAY_MILLIS = 18000000`), `JobServiceContext`
/// (`EXECUTING_TIMESLICE_MILLIS = 600000`), the framework's `config.xml`
/// (`config_jobSchedulerInactivityIdleThreshold` 1860000 ms,
/// `config_lowBatteryWarningLevel` 15) and androidx WorkManager's
/// `PeriodicWorkRequest` (`MIN_PERIODIC_INTERVAL_MILLIS = 900000`,
/// `MIN_PERIODIC_FLEX_MILLIS = 300000`) and `BackoffPolicy`.
public struct AndroidWorkRules: DeclaredParameters, Hashable {
    /// The shortest repeat interval of periodic work; a shorter one is
    /// raised to it. Default 15 min.
    public var minPeriodicInterval = SimDuration.minutes(15)
    /// The shortest flex window of periodic work. Default 5 min.
    public var minPeriodicFlex = SimDuration.minutes(5)
    /// The flex window an app gives its periodic refresh (nil: the whole
    /// interval, WorkManager's default when no flex is given). Clamped to
    /// [``minPeriodicFlex``, interval].
    public var periodicFlex: SimDuration? = nil
    /// How a retried job's delay grows.
    public var backoffPolicy = BackoffPolicy.exponential
    /// The first retry's delay. Default 30 s.
    public var backoffDelay = SimDuration.seconds(30 as Int64)
    /// The shortest backoff delay an app may ask for. Default 10 s.
    public var minBackoffDelay = SimDuration.seconds(10 as Int64)
    /// The longest backoff delay. Default 5 h.
    public var maxBackoffDelay = SimDuration.hours(5)
    /// A job is stopped after this run time (JobScheduler's timeslice);
    /// the budget of every kind of work on Android. Default 10 min.
    public var executionLimit = SimDuration.minutes(10)
    /// The "device idle" constraint holds after the screen has been off
    /// this long (JobScheduler's `IdleController`). Default 31 min.
    public var idleThreshold = SimDuration.minutes(31)
    /// Below this level (and not charging) the "battery not low" constraint
    /// fails. Percent; default 15.
    public var batteryLowPercent: Double = 15
    /// Processing work asks for the "device idle" constraint (the
    /// counterpart of iOS's screen-off rule). Default true: assumption.
    public var processingRequiresDeviceIdle = true
    /// Processing work that needs the network asks for an unmetered one
    /// (Wi-Fi; AndroidPlatform.md A16). Default false: assumption (the
    /// app's choice; false keeps "network connected", as on iOS).
    public var processingRequiresUnmetered = false
    /// Battery Saver (the device's Low Power Mode state) holds every
    /// background job of an app not in the foreground (AOSP
    /// `AppStateTracker`'s force-all-apps-standby under battery saver).
    public var batterySaverHoldsJobs = true
    /// Doze applies (AndroidPlatform.md A9). An ablation switch: false
    /// leaves a quiet device awake, every other rule unchanged.
    public var doze = true
    /// App Standby Buckets and their job quotas apply (AndroidPlatform.md
    /// A10–A13). An ablation switch: false runs every app's jobs without a
    /// quota, every other rule unchanged.
    public var buckets = true
    /// Which of QuotaController's two default tables the quotas follow
    /// (Android.md A5): `android-13+` (default) or `android-12`. The table
    /// gives ``jobQuota``'s and ``fcm``'s defaults: setting it replaces
    /// both with the generation's (declared before them, so a spec's
    /// explicit `jobQuota` and `fcm` keys, read after it, override the
    /// table's values, whatever their order in the file).
    public var quotaTable = JobQuotaGeneration.android13Plus {
        didSet {
            jobQuota = JobQuotaTable(quotaTable)
            fcm = FCMRules(quotaTable)
        }
    }
    /// The priority the apps' servers give their FCM data messages (the
    /// Android counterpart of a silent push, AndroidPlatform.md A15).
    /// Default `normal`, FCM's default for data messages.
    public var fcmPriority = FCMPriority.normal
    /// App Standby's bucket thresholds (AndroidPlatform.md A10).
    public var standby = StandbyRules()
    /// QuotaController's per-bucket quotas (A11–A13): ``quotaTable``'s
    /// table, with the keys a spec gives.
    public var jobQuota = JobQuotaTable()
    /// Doze's timings (A9; JSON `dozeTimings`, beside the `doze` switch).
    public var dozeTimings = DozeRules()
    /// FCM's high-priority caps (A15): ``quotaTable``'s, with the keys a spec gives.
    public var fcm = FCMRules()

    public init() {}

    /// How the delay of successive retries grows (androidx `BackoffPolicy`).
    public enum BackoffPolicy: String, Codable, Sendable, Hashable {
        /// delay × attempt.
        case linear
        /// delay × 2^(attempt − 1) (WorkManager's and JobInfo's default).
        case exponential
    }

    public static let parameters: [Parameter<AndroidWorkRules>] = [
        .duration("minPeriodicInterval", \.minPeriodicInterval, .seconds(60, 86_400),
                  source: "androidx PeriodicWorkRequest.MIN_PERIODIC_INTERVAL_MILLIS = 900000; JobInfo.MIN_PERIOD_MILLIS"),
        .duration("minPeriodicFlex", \.minPeriodicFlex, .seconds(1, 86_400),
                  source: "androidx PeriodicWorkRequest.MIN_PERIODIC_FLEX_MILLIS = 300000; JobInfo.MIN_FLEX_MILLIS"),
        .duration("periodicFlex", \.periodicFlex, .seconds(1, 86_400),
                  source: "androidx PeriodicWorkRequest.Builder (no flex given: flex = interval)"),
        .choice("backoffPolicy", \.backoffPolicy,
                source: "androidx WorkRequest / JobInfo.DEFAULT_BACKOFF_POLICY = BACKOFF_POLICY_EXPONENTIAL"),
        .duration("backoffDelay", \.backoffDelay, .seconds(1, 86_400),
                  source: "JobInfo.DEFAULT_INITIAL_BACKOFF_MILLIS = 30000 (WorkRequest.DEFAULT_BACKOFF_DELAY_MILLIS)"),
        .duration("minBackoffDelay", \.minBackoffDelay, .seconds(0, 86_400),
                  source: "JobInfo.MIN_BACKOFF_MILLIS = 10000 (WorkRequest.MIN_BACKOFF_MILLIS)"),
        .duration("maxBackoffDelay", \.maxBackoffDelay, .seconds(1, 864_000),
                  source: "JobInfo.MAX_BACKOFF_DELAY_MILLIS = 18000000 (5 h)"),
        .duration("executionLimit", \.executionLimit, .seconds(1, 86_400),
                  source: "AOSP JobServiceContext.EXECUTING_TIMESLICE_MILLIS = 600000 (10 min)"),
        .duration("idleThreshold", \.idleThreshold, .seconds(0, 86_400),
                  source: "AOSP config.xml config_jobSchedulerInactivityIdleThreshold = 1860000 (31 min)"),
        .real("batteryLowPercent", \.batteryLowPercent, ValueRange(0, 100, unit: "%"),
              source: "AOSP config.xml config_lowBatteryWarningLevel = 15"),
        .flag("processingRequiresDeviceIdle", \.processingRequiresDeviceIdle, source: "assumption"),
        .flag("processingRequiresUnmetered", \.processingRequiresUnmetered,
              source: "AOSP JobInfo.NETWORK_TYPE_UNMETERED / androidx NetworkType.UNMETERED; default false: assumption"),
        .flag("batterySaverHoldsJobs", \.batterySaverHoldsJobs,
              source: "AOSP AppStateTracker: battery saver forces all apps into standby (BackgroundJobsController)"),
        .flag("doze", \.doze, source: "AOSP DeviceIdleController (on by default since Android 6); false: ablation"),
        .flag("buckets", \.buckets,
              source: "AOSP AppStandbyController + QuotaController (Android 9+); false: ablation"),
        .choice("quotaTable", \.quotaTable,
                source: "AOSP QuotaController.QcConstants DEFAULT_LEGACY_* (android-12) / DEFAULT_CURRENT_* (android-13+)"),
        .choice("fcmPriority", \.fcmPriority,
                source: "firebase.google.com 'Set and manage message priority': data messages are normal priority by default"),
        // After `quotaTable`: its table is the base the keys given override.
        .object("standby", \.standby, source: "AOSP AppStandbyController; its own keys"),
        .object("jobQuota", \.jobQuota, source: "AOSP QuotaController.QcConstants (quotaTable's table); its own keys"),
        .object("dozeTimings", \.dozeTimings, source: "AOSP DeviceIdleController.Constants; its own keys"),
        .object("fcm", \.fcm, source: "developer.android.com power-details (quotaTable's caps); its own keys"),
    ]

    /// `minBackoffDelay ≤ backoffDelay ≤ maxBackoffDelay`.
    public var crossFieldProblem: (key: String, message: String)? {
        if minBackoffDelay > maxBackoffDelay {
            return ("minBackoffDelay", "must be at most maxBackoffDelay = \(maxBackoffDelay)")
        }
        return nil
    }
}
