/// Counter-based randomness for the device: every random decision is a pure
/// function of the user's device key and what is being decided.
///
/// Why not a sequential generator: a policy that runs more or fewer tasks
/// would shift a sequential stream and give every later task different luck.
/// Hashing (key, app, kind, per-app run number) instead means that "the
/// 7th refresh of app 2 fails" is the same event under every policy
/// (common random numbers → paired comparisons). The Device module does not
/// import Stats, so this is a self-contained SplitMix64 finaliser.
@frozen
public struct DeviceRandom: Sendable, Hashable {
    /// The per-(seed, user, "device") key the runner derives.
    public var key: UInt64

    @inlinable
    public init(key: UInt64) { self.key = key }

    /// SplitMix64's output function (Steele, Lea, Flood, OOPSLA 2014).
    @inlinable
    public static func mix(_ z0: UInt64) -> UInt64 {
        var z = z0 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1) that depends only on the key and the three words.
    @inlinable
    public func uniform(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> Double {
        let h = Self.mix(Self.mix(Self.mix(key ^ a) ^ b) ^ c)
        return Double(h >> 11) * 0x1.0p-53
    }

    /// The part of `uniform(a, b, c)` that depends on (a, b) only: then
    /// `uniform(a, b, c) == DeviceRandom.uniform(prefix: prefix(a, b), c)`.
    /// Lets a caller that draws often for the same (a, b) keep the prefix.
    func prefix(_ a: UInt64, _ b: UInt64) -> UInt64 { Self.mix(Self.mix(key ^ a) ^ b) }

    /// `uniform(a, b, c)` from `prefix(a, b)`.
    @inline(__always)
    static func uniform(prefix p: UInt64, _ c: UInt64) -> Double {
        Double(mix(p ^ c) >> 11) * 0x1.0p-53
    }
}

/// Stream tags so that different kinds of decisions never share draws.
@usableFromInline
enum RandomPurpose: UInt64 {
    case taskFailure = 1
    case forgetsToResubmit = 2
    case jitter = 3
    /// Server latency (one uniform through the normal quantile).
    case serverLatency = 4
    /// A silent push's handler run fails (keyed by app and delivery number).
    case silentPushFailure = 5
    /// A silent push's fetch latency (as `serverLatency`, keyed by app and delivery number).
    case silentPushLatency = 6
    /// Whether an app asks for extra time at a session end (keyed by app and session index).
    case backgroundTaskAsks = 7
    /// An extra-time run fails / its latency (keyed by app and run number).
    case backgroundTaskFailure = 8
    case backgroundTaskLatency = 9
    /// Whether an app hands a background URLSession transfer at a session end (app, session index).
    case transferHanded = 10
    /// The user force-quits the app at a session end (keyed by app and session number).
    case forceQuit = 11
    /// A run's handler never calls its completion handler (keyed by task slot and run number).
    case neverCompletes = 12
    /// The app cancels its requests at a session end (keyed by app and session number).
    case cancelsRequests = 13
    /// Continued processing: the user starts a job at a session
    /// start (keyed by app and session start time) / cancels it (by app
    /// with bit 32 set, and job number).
    case continuedProcessingUser = 14
    /// Continued processing: the job's work fails / its server
    /// latency (keyed by app, bit 32 set for latency, and job number).
    case continuedProcessingWork = 15
    // Backend outages, `BackendOutages`: the k-th up-time and the
    // k-th outage duration of an app's backend (keyed by app and k).
    case outageUptime = 16
    case outageDuration = 17
    // Dead zones, `DeadZones`: the k-th gap before a dead zone
    // and the k-th dead zone's duration (keyed by 0 and k: one process per
    // device).
    case deadZoneGap = 18
    case deadZoneDuration = 19
}
