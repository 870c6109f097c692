import SimCore
import Traces

/// The Android rules this folder models, as one declared object whose
/// keys nest each rule set: `standby` (bucket assignment), `jobQuota`
/// (QuotaController's per-bucket quotas), `doze` (DeviceIdleController),
/// `fcm` (high-priority caps). WorkManager and JobInfo request constants
/// (periodic interval and flex, backoff, the 10-minute limit, expedited
/// quota) are not here: they belong to the platform's work rules. Every
/// leaf has its unit, range, default and source (AOSP constant, or
/// developer.android.com page, or "assumption"); Docs/Android.md lists
/// them with the rules that use them.
public struct AndroidParameters: DeclaredParameters, Hashable {
    public var standby = StandbyRules()
    public var jobQuota = JobQuotaTable()
    public var doze = DozeRules()
    public var fcm = FCMRules()

    /// Android 13+ (the default).
    public init() {}

    /// The rules of a generation: the quota table and FCM caps differ;
    /// buckets and Doze are the same.
    public init(_ generation: JobQuotaGeneration) {
        jobQuota = JobQuotaTable(generation)
        fcm = generation == .upToAndroid12 ? .upToAndroid12 : FCMRules()
    }

    public static let parameters: [Parameter<AndroidParameters>] = [
        .object("standby", \.standby, source: "AOSP AppStandbyController; its own keys"),
        .object("jobQuota", \.jobQuota, source: "AOSP QuotaController.QcConstants; its own keys"),
        .object("doze", \.doze, source: "AOSP DeviceIdleController.Constants; its own keys"),
        .object("fcm", \.fcm, source: "developer.android.com power-details; its own keys"),
    ]
}
