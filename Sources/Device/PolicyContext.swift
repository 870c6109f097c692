import SimCore
import Traces

/// What a policy may read at a decision point. Policies only read it, so
/// fields can be added without breaking any policy.
public struct PolicyContext: Sendable {
    /// The current time.
    public var now: SimTime
    /// Battery, charging, Low Power Mode, network, screen.
    public var device: DeviceState
    /// Pending requests (not started), in submission order. A view of the
    /// simulator's own storage: do not keep it beyond the call.
    public var pending: [TaskRequest]
    /// Number of apps; app numbers are 0..<appCount.
    public var appCount: Int
    /// The radio is connected until this time (nil: idle). Work started
    /// before it pays no promotion (what coalescing exploits).
    public var radioUpUntil: SimTime?
    /// When the last foreground session ended (nil: none yet).
    public var lastSessionEnd: SimTime?
    /// Deterministic randomness for policies (jitter): same key, same draws.
    public var random: DeviceRandom
    /// The future, filled only for policies with `traits.needsFutureKnowledge`
    /// (bounds such as the oracle; not a realisable policy).
    public var future: FutureLaunches? {
        get { boundKnowledge?.future }
        set { boundKnowledge = BoundKnowledge(future: newValue, model: model, android: android) }
    }
    /// The user's launch and content rates from the generator's model,
    /// filled only for policies with `traits.needsModelKnowledge` (the model-aware
    /// bound; not the realised future). From ``DeviceTrace/model``.
    public var model: UsageModelKnowledge? {
        get { boundKnowledge?.model }
        set { boundKnowledge = BoundKnowledge(future: future, model: newValue, android: android) }
    }
    /// `future` and `model` behind one reference: the context is copied
    /// into every policy call, and it stays small enough for an inline copy
    /// (`ContextSizeTests`) while only bounds pay for the knowledge.
    @usableFromInline var boundKnowledge: BoundKnowledge?
    /// Background energy spent so far, joules.
    public var backgroundJoules: Double
    /// The parameters of the rules that decide whether a request may
    /// start now on this device (`OSRules.eligibility` of the device
    /// configuration: `lowBatteryPercent`).
    public var eligibilityRules: EligibilityRules
    /// Run-time budget of an app refresh (`OSRules.refreshBudget`).
    public var refreshBudget: SimDuration
    /// Android's rules and what the OS tells an app there (nil on iOS):
    /// ``refusal(for:)`` answers with them on an Android device. Behind
    /// the same reference as the bounds' knowledge, so the context keeps
    /// its size (`ContextSizeTests`).
    public internal(set) var android: AndroidPlatform? {
        get { boundKnowledge?.android }
        set { boundKnowledge = BoundKnowledge(future: future, model: model, android: newValue) }
    }

    public init(now: SimTime, device: DeviceState, pending: [TaskRequest] = [], appCount: Int = 1,
                radioUpUntil: SimTime? = nil, lastSessionEnd: SimTime? = nil,
                random: DeviceRandom = DeviceRandom(key: 0), future: FutureLaunches? = nil,
                backgroundJoules: Double = 0, rules: OSRules = .standard) {
        self.now = now
        self.device = device
        self.pending = pending
        self.appCount = appCount
        self.radioUpUntil = radioUpUntil
        self.lastSessionEnd = lastSessionEnd
        self.random = random
        self.boundKnowledge = future.map { BoundKnowledge(future: $0, model: nil, android: nil) }
        self.backgroundJoules = backgroundJoules
        self.eligibilityRules = rules.eligibility
        self.refreshBudget = rules.refreshBudget
    }

    /// Why the OS would refuse to start `request` now, or nil if it may start.
    @inlinable
    public func refusal(for request: TaskRequest) -> Refusal? {
        // Read through the shared reference in place: inlined into the
        // policy, an iOS device pays one load and a nil test.
        if let android = boundKnowledge?.android { return android.refusal(for: request, at: now, state: device) }
        return eligibilityRules.refusal(for: request, at: now, state: device)
    }

    /// The OS would start `request` now: the one way for a policy to ask
    /// the OS rules (``EligibilityRules``, with this device's threshold).
    /// Inlined into the caller, a handful of comparisons.
    @inlinable
    public func isEligible(_ request: TaskRequest) -> Bool { refusal(for: request) == nil }

    /// The earliest `earliestBegin` among pending requests of `app` of a
    /// content-refreshing kind (nil if none is pending).
    public func pendingRefresh(app: Int32) -> TaskRequest? {
        for r in pending where r.app == app && r.kind.refreshesContent { return r }
        return nil
    }
}

/// What the bounds know beyond what a policy can observe (the oracle's
/// future, the model-aware bound's model), and the Android platform's
/// rules on an Android device, shared by every copy of one device's context.
@usableFromInline
final class BoundKnowledge: Sendable {
    let future: FutureLaunches?
    let model: UsageModelKnowledge?
    @usableFromInline let android: AndroidPlatform?

    init(future: FutureLaunches?, model: UsageModelKnowledge?, android: AndroidPlatform?) {
        self.future = future
        self.model = model
        self.android = android
    }
}

/// The trace's future launches, for bounds only.
public struct FutureLaunches: Sendable {
    /// Launch times per app, sorted.
    public let launches: [[SimTime]]
    /// Content publication times per app, sorted.
    public let contentUpdates: [[SimTime]]

    /// Per app, the outages of its backend (empty when
    /// `device.backendOutages` is off or for an app beyond the list).
    public let backendOutages: [TimeIntervals]
    /// The device's dead zones (empty when `device.deadZones` is off).
    public let deadZones: TimeIntervals

    public init(launches: [[SimTime]], contentUpdates: [[SimTime]],
                backendOutages: [TimeIntervals] = [], deadZones: TimeIntervals = .none) {
        self.launches = launches
        self.contentUpdates = contentUpdates
        self.backendOutages = backendOutages
        self.deadZones = deadZones
    }

    /// If a networked run of `app` started at `t` would fail
    /// because its backend is down or the device is in a dead zone, the
    /// first time after `t` when neither holds (through overlapping
    /// intervals); nil if such a run would not fail for either reason.
    /// The rule is ``NetworkedRunBlock``'s, as at the simulator's task start.
    public func networkedRunBlocked(app: Int32, at t: SimTime) -> SimTime? {
        let outages = Int(app) < backendOutages.count ? backendOutages[Int(app)] : .none
        guard !outages.starts.isEmpty || !deadZones.starts.isEmpty else { return nil }
        var free = t
        while let (_, end) = NetworkedRunBlock.at(free, outages: outages, deadZones: deadZones) { free = end }
        return free == t ? nil : free
    }

    /// Whether `app` publishes an update in (after, upTo].
    public func hasUpdate(app: Int32, after: SimTime, upTo: SimTime) -> Bool {
        guard let u = Self.firstAfter(contentUpdates[Int(app)], after) else { return false }
        return u <= upTo
    }

    /// The first update of `app` strictly after `t`.
    public func nextUpdate(app: Int32, after t: SimTime) -> SimTime? {
        Self.firstAfter(contentUpdates[Int(app)], t)
    }

    static func firstAfter(_ a: [SimTime], _ t: SimTime) -> SimTime? {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo < a.count ? a[lo] : nil
    }

    /// The first launch of `app` strictly after `t`.
    public func nextLaunch(app: Int32, after t: SimTime) -> SimTime? {
        Self.firstAfter(launches[Int(app)], t)
    }
}
