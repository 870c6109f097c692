import SimCore
import Traces

/// One standby bucket's job quota (AOSP `QuotaController`): at most
/// `allowedTime` of job execution in any rolling `window`, at most
/// `maxJobs` jobs and `maxSessions` sessions in it.
public struct JobQuotaLimits: Sendable, Hashable {
    public var window: SimDuration
    public var allowedTime: SimDuration
    public var maxJobs: Int
    public var maxSessions: Int

    public init(window: SimDuration, allowedTime: SimDuration, maxJobs: Int, maxSessions: Int) {
        self.window = window
        self.allowedTime = allowedTime
        self.maxJobs = maxJobs
        self.maxSessions = maxSessions
    }

    /// No job at all (the never-used bucket: QuotaController's allowed time 0).
    public static let noJobs = JobQuotaLimits(window: .days(1), allowedTime: .zero, maxJobs: 0, maxSessions: 0)
}

/// Which of QuotaController's two default tables a table starts from.
public enum JobQuotaGeneration: String, Sendable, Hashable, Codable, CaseIterable {
    /// developer.android.com "Power management resource limits", "Prior to
    /// Android 13": 10 min per 10 min (active) / 2 h / 8 h / 24 h; AOSP
    /// QcConstants `DEFAULT_LEGACY_*` (and the plain `DEFAULT_*` of
    /// Android 12's QuotaController).
    case upToAndroid12 = "android-12"
    /// The later table: 20 min per 60 min (active; developer.android.com
    /// says this row applies from Android 16, active being unlimited before)
    /// and 10 min per 4 h / 12 h / 24 h; AOSP QcConstants
    /// `DEFAULT_CURRENT_*` (behind the `adjust_quota_default_constants`
    /// flag), with the active window of `DEFAULT_LATEST_WINDOW_SIZE_ACTIVE_MS` (1 h).
    case android13Plus = "android-13+"
}

/// The per-bucket job quotas and the limits shared by all buckets: JSON
/// key `device.android.jobQuota` (its defaults ``AndroidWorkRules/quotaTable``'s). Every default is one of AOSP
/// `QuotaController.QcConstants` (the file's constants are quoted in each
/// source); the two published tables are ``upToAndroid12`` and
/// ``android13Plus``, `init()` is the latter. Docs/Android.md, rules A4–A8.
public struct JobQuotaTable: DeclaredParameters, Hashable {
    /// The active bucket's limits; exempted apps have them too (QcConstants'
    /// exempted row equals active's). Jobs per window are QcConstants
    /// `DEFAULT_MAX_JOB_COUNT_*`, sessions per window `DEFAULT_MAX_SESSION_COUNT_*`.
    public var active = JobQuotaLimits(window: .hours(1), allowedTime: .minutes(20), maxJobs: 75, maxSessions: 75)
    public var workingSet = JobQuotaLimits(window: .hours(4), allowedTime: .minutes(10), maxJobs: 120, maxSessions: 10)
    public var frequent = JobQuotaLimits(window: .hours(12), allowedTime: .minutes(10), maxJobs: 200, maxSessions: 8)
    public var rare = JobQuotaLimits(window: .hours(24), allowedTime: .minutes(10), maxJobs: 48, maxSessions: 3)
    /// "Once a day" (developer.android.com) is its one session per 24 h.
    public var restricted = JobQuotaLimits(window: .hours(24), allowedTime: .minutes(10), maxJobs: 10, maxSessions: 1)
    /// At most `maxExecutionTime` of jobs in any 24 h, whatever the bucket
    /// (QcConstants `DEFAULT_MAX_EXECUTION_TIME_MS`, `MAX_PERIOD_MS` = 24 h).
    public var maxExecutionTime: SimDuration = .hours(4)
    /// An app out of quota is in quota again only once this much of its
    /// allowed time is free (`DEFAULT_IN_QUOTA_BUFFER_MS`).
    public var inQuotaBuffer: SimDuration = .seconds(30 as Int64)
    /// The rate limit: at most `rateLimitMaxJobs` jobs and
    /// `rateLimitMaxSessions` sessions in any `rateLimitWindow`.
    public var rateLimitWindow: SimDuration = .minutes(1)
    public var rateLimitMaxJobs = 20
    public var rateLimitMaxSessions = 20
    /// Two sessions closer than this count as one for the session limits
    /// (`DEFAULT_TIMING_SESSION_COALESCING_DURATION_MS`).
    public var sessionCoalescing: SimDuration = .seconds(5 as Int64)

    /// The Android 13+ table (see ``JobQuotaGeneration/android13Plus``).
    public init() {}

    /// The table a generation publishes.
    public init(_ generation: JobQuotaGeneration) {
        self.init()
        if generation == .upToAndroid12 {
            active.window = .minutes(10)
            active.allowedTime = .minutes(10)
            workingSet.window = .hours(2)
            frequent.window = .hours(8)
        }
    }

    /// Android ≤ 12: 10 min per 10 min / 2 h / 8 h / 24 h; restricted one session a day.
    public static let upToAndroid12 = JobQuotaTable(.upToAndroid12)
    /// Android 13+: 20 min per 1 h active; 10 min per 4 h / 12 h / 24 h.
    public static let android13Plus = JobQuotaTable(.android13Plus)

    /// The limits of `bucket`: exempted apps have active's (QcConstants'
    /// exempted row equals active's), never-used apps none.
    public func limits(for bucket: StandbyBucket) -> JobQuotaLimits {
        switch bucket {
        case .exempted, .active: active
        case .workingSet: workingSet
        case .frequent: frequent
        case .rare: rare
        case .restricted: restricted
        case .never: .noJobs
        }
    }

    /// The buckets with limits of their own, by the prefix of their JSON keys.
    static let bucketKeys: [(prefix: String, limits: KeyPath<JobQuotaTable, JobQuotaLimits> & Sendable)] = [
        ("active", \.active), ("workingSet", \.workingSet), ("frequent", \.frequent), ("rare", \.rare),
        ("restricted", \.restricted),
    ]

    /// Whether jobs run quota-free: while charging, except in the
    /// restricted bucket (QuotaController.isQuotaFreeLocked: "Restricted
    /// jobs require additional constraints when charging"); and in the
    /// foreground (jobs of the top app are not counted).
    public static func isQuotaFree(bucket: StandbyBucket, charging: Bool, foreground: Bool = false) -> Bool {
        foreground || (charging && bucket != .restricted)
    }

    static let qc = "AOSP QuotaController.QcConstants"
    static let docs = "developer.android.com power-details"
    static let day = 86_400.0

    public static let parameters: [Parameter<JobQuotaTable>] = [
        .duration("activeWindow", \.active.window, .seconds(1, day, open: false),
                  source: "\(qc).DEFAULT_LATEST_WINDOW_SIZE_ACTIVE_MS (1 h; CURRENT 30 min, LEGACY 10 min); \(docs) (rolling 60 min)"),
        .duration("activeAllowedTime", \.active.allowedTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_CURRENT_ALLOWED_TIME_PER_PERIOD_ACTIVE_MS (20 min; LEGACY 10 min)"),
        .duration("workingSetWindow", \.workingSet.window, .seconds(1, day),
                  source: "\(qc).DEFAULT_CURRENT_WINDOW_SIZE_WORKING_MS (4 h; LEGACY 2 h); \(docs)"),
        .duration("workingSetAllowedTime", \.workingSet.allowedTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_ALLOWED_TIME_PER_PERIOD_WORKING_MS (10 min)"),
        .duration("frequentWindow", \.frequent.window, .seconds(1, day),
                  source: "\(qc).DEFAULT_CURRENT_WINDOW_SIZE_FREQUENT_MS (12 h; LEGACY 8 h); \(docs)"),
        .duration("frequentAllowedTime", \.frequent.allowedTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_ALLOWED_TIME_PER_PERIOD_FREQUENT_MS (10 min)"),
        .duration("rareWindow", \.rare.window, .seconds(1, day),
                  source: "\(qc).DEFAULT_WINDOW_SIZE_RARE_MS (24 h); \(docs)"),
        .duration("rareAllowedTime", \.rare.allowedTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_ALLOWED_TIME_PER_PERIOD_RARE_MS (10 min)"),
        .duration("restrictedWindow", \.restricted.window, .seconds(1, day),
                  source: "\(qc).DEFAULT_WINDOW_SIZE_RESTRICTED_MS (24 h)"),
        .duration("restrictedAllowedTime", \.restricted.allowedTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_ALLOWED_TIME_PER_PERIOD_RESTRICTED_MS (10 min)"),
        .integer("activeMaxJobs", \.active.maxJobs, 0...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_ACTIVE (75)"),
        .integer("workingSetMaxJobs", \.workingSet.maxJobs, 0...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_WORKING (120)"),
        .integer("frequentMaxJobs", \.frequent.maxJobs, 0...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_FREQUENT (200)"),
        .integer("rareMaxJobs", \.rare.maxJobs, 0...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_RARE (48)"),
        .integer("restrictedMaxJobs", \.restricted.maxJobs, 0...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_RESTRICTED (10)"),
        .integer("activeMaxSessions", \.active.maxSessions, 0...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_ACTIVE (75)"),
        .integer("workingSetMaxSessions", \.workingSet.maxSessions, 0...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_WORKING (10)"),
        .integer("frequentMaxSessions", \.frequent.maxSessions, 0...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_FREQUENT (8)"),
        .integer("rareMaxSessions", \.rare.maxSessions, 0...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_RARE (3)"),
        .integer("restrictedMaxSessions", \.restricted.maxSessions, 0...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_RESTRICTED (1); \(docs) (once a day)"),
        .duration("maxExecutionTime", \.maxExecutionTime, .seconds(0, day),
                  source: "\(qc).DEFAULT_MAX_EXECUTION_TIME_MS (4 h per 24 h)"),
        .duration("inQuotaBuffer", \.inQuotaBuffer, .seconds(0, 3_600),
                  source: "\(qc).DEFAULT_IN_QUOTA_BUFFER_MS (30 s)"),
        .duration("rateLimitWindow", \.rateLimitWindow, .seconds(1, day),
                  source: "\(qc).DEFAULT_RATE_LIMITING_WINDOW_MS (1 min)"),
        .integer("rateLimitMaxJobs", \.rateLimitMaxJobs, 1...100_000, unit: "jobs/window",
                 source: "\(qc).DEFAULT_MAX_JOB_COUNT_PER_RATE_LIMITING_WINDOW (20)"),
        .integer("rateLimitMaxSessions", \.rateLimitMaxSessions, 1...100_000, unit: "sessions/window",
                 source: "\(qc).DEFAULT_MAX_SESSION_COUNT_PER_RATE_LIMITING_WINDOW (20)"),
        .duration("sessionCoalescing", \.sessionCoalescing, .seconds(0, 900),
                  source: "\(qc).DEFAULT_TIMING_SESSION_COALESCING_DURATION_MS (5 s)"),
    ]

    /// A bucket's allowed time must fit in its window, and the buffer in
    /// every allowed time but zero (else "in quota again" never comes).
    public var crossFieldProblem: (key: String, message: String)? {
        for (prefix, path) in Self.bucketKeys {
            let (key, allowed, window) = (prefix + "AllowedTime", self[keyPath: path].allowedTime,
                                          self[keyPath: path].window)
            if allowed > window { return (key, "\(allowed) is longer than its window \(window)") }
            if allowed > .zero && inQuotaBuffer >= allowed {
                return ("inQuotaBuffer", "\(inQuotaBuffer) must be shorter than \(key) (\(allowed))")
            }
        }
        return nil
    }
}
