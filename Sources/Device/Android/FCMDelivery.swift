import SimCore
import Traces

/// A Firebase Cloud Messaging message's priority as the sender sets it
/// (`android.priority`): the Android counterpart of a silent push.
public enum FCMPriority: String, Sendable, Hashable, Codable {
    case high
    case normal
}

/// The per-bucket daily caps on high-priority messages: JSON key
/// `device.android.fcm` (its defaults ``AndroidWorkRules/quotaTable``'s). developer.android.com "Power management resource
/// limits" (the FCM column): frequent 10 a day, rare 5, restricted 5, and
/// "the app standby bucket high priority message limits only apply to
/// Android 12 (API level 32) and lower"; Android 13 behaviour changes: "App
/// Standby Buckets no longer determine how many high priority FCMs an app
/// can use" (a quota scaled by the notifications shown instead, which is
/// not modelled). Docs/Android.md, rules A13–A14.
public struct FCMRules: DeclaredParameters, Hashable {
    /// Whether the bucket caps apply (true: Android <= 12).
    public var bucketCapsApply = false
    /// High-priority messages per rolling 24 h in each capped bucket.
    public var frequentPerDay = 10
    public var rarePerDay = 5
    public var restrictedPerDay = 5

    public init() {}

    /// The rules of a generation: the caps apply up to Android 12.
    public init(_ generation: JobQuotaGeneration) {
        bucketCapsApply = generation == .upToAndroid12
    }

    /// The Android <= 12 rules: caps on.
    public static let upToAndroid12 = FCMRules(.upToAndroid12)

    static let docs = "developer.android.com power-details, FCM column"

    public static let parameters: [Parameter<FCMRules>] = [
        .flag("bucketCapsApply", \.bucketCapsApply, source: "\(docs): caps apply to Android 12 and lower only"),
        .integer("frequentPerDay", \.frequentPerDay, 0...10_000, unit: "/day", source: "\(docs) (frequent: 10/day)"),
        .integer("rarePerDay", \.rarePerDay, 0...10_000, unit: "/day", source: "\(docs) (rare: 5/day)"),
        .integer("restrictedPerDay", \.restrictedPerDay, 0...10_000, unit: "/day", source: "\(docs) (restricted: 5/day)"),
    ]

    /// The cap of `bucket` (nil: none).
    public func dailyCap(for bucket: StandbyBucket) -> Int? {
        guard bucketCapsApply else { return nil }
        switch bucket {
        case .frequent: return frequentPerDay
        case .rare: return rarePerDay
        case .restricted, .never: return restrictedPerDay
        case .exempted, .active, .workingSet: return nil
        }
    }
}

/// What happens to one message.
public enum FCMDecision: Sendable, Hashable {
    /// Delivered now; `asHighPriority` false when a high-priority message
    /// was delivered as normal priority (over its cap, while not dozing).
    case deliverNow(asHighPriority: Bool)
    /// Held by FCM until the device's next maintenance window or the end of
    /// Doze (screen on, plug in), whichever comes first; `window` is the
    /// next window's start if the device stays quiet.
    case deferred(window: SimTime)
}

/// One app's FCM delivery: the high-priority messages it was delivered
/// over the last 24 h, and the rule (A13–A14): a high-priority message is
/// delivered at once, Doze or not, unless the app's bucket caps it and the
/// cap is reached, in which case it is a normal-priority message; a
/// normal-priority message is delivered at once unless Doze defers
/// background network (deep or light idle), in which case it waits for the
/// next maintenance window.
public struct FCMDelivery: Sendable, Hashable {
    public let rules: FCMRules
    /// Times of the high-priority deliveries that still count (last 24 h).
    public private(set) var highPriorityDeliveries: [SimTime] = []

    public init(rules: FCMRules) {
        self.rules = rules
    }

    /// High-priority deliveries in (now - 24 h, now].
    public func highPriorityCount(at now: SimTime) -> Int {
        highPriorityDeliveries.filter { $0 > now - .days(1) }.count
    }

    /// Decides a message sent at `now` to an app in `bucket`, the device in
    /// Doze `phase` (its next maintenance window `nextWindow`, from
    /// ``DozeTimeline/nextMaintenanceStart(quietSince:at:)``), and counts
    /// it if delivered as high priority.
    public mutating func receive(_ priority: FCMPriority, at now: SimTime, bucket: StandbyBucket,
                                 doze phase: DozePhase, nextWindow: SimTime) -> FCMDecision {
        highPriorityDeliveries.removeAll { $0 <= now - .days(1) }
        var high = priority == .high
        if high, let cap = rules.dailyCap(for: bucket), highPriorityDeliveries.count >= cap { high = false }
        if high {
            highPriorityDeliveries.append(now)
            return .deliverNow(asHighPriority: true)
        }
        return phase.defersBackgroundWork ? .deferred(window: nextWindow) : .deliverNow(asHighPriority: false)
    }
}
