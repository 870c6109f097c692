import SimCore

/// What the OS tells a policy on an Android device (Docs/AndroidPlatform.md
/// A10–A12, A9), read through the context; nil or false on iOS, which has
/// no buckets, quotas or Doze. The external protocol sends exactly these
/// values (Docs/ExternalPolicyProtocol.md, "Android"), so a Swift policy and
/// a decision process see the same.
extension PolicyContext {
    /// The standby bucket of `app` now (nil on iOS or with
    /// `device.android.buckets` false).
    public func standbyBucket(of app: Int32) -> StandbyBucket? {
        android?.bucket(of: Int(app), at: now)
    }

    /// The job execution time `app` has left now in its bucket's quota
    /// (nil on iOS or with `device.android.buckets` false).
    public func quotaLeft(of app: Int32) -> SimDuration? {
        android?.quotaLeft(of: Int(app), at: now)
    }

    /// Whether Doze defers background work now (false on iOS or with
    /// `device.android.doze` false).
    public var dozeDefersWork: Bool {
        android?.dozeDefers(at: now, state: device) ?? false
    }
}
