import SimCore
import Traces

/// Why the OS refused to start a task a policy asked for. One per rule.
@frozen
public enum Refusal: UInt8, Sendable, Hashable, CaseIterable {
    /// Rule 1: before the request's `earliestBeginDate`.
    case beforeEarliestBegin = 0
    /// Not pending (never submitted, cancelled, replaced or already run).
    case notPending
    /// Rule 3: processing while the screen is on.
    case screenOn
    /// Rule 3: `requiresExternalPower` while not charging.
    case needsExternalPower
    /// Rule 3: `requiresNetworkConnectivity` while offline.
    case needsNetwork
    /// Rule 4: app refresh / fetch in Low Power Mode.
    case lowPowerMode
    /// Rule 4: app refresh / fetch with the battery under
    /// ``OSRules/lowBatteryPercent``.
    case lowBattery
    /// A rule beyond the brief's 1–8: a background task (refresh,
    /// processing, legacy fetch) of the app that is in the foreground. iOS
    /// does not launch an app in the background while it is in the
    /// foreground; its own refresh would be wasted (the foreground fetch
    /// already refreshes it).
    case appInForeground
    /// The app switcher: the user force-quit the app and has not opened it
    /// since. iOS gives such an app no background launch of any kind until
    /// the user launches it again (WWDC 2020, "Background execution
    /// demystified", the app-switcher factor).
    case appForceQuit
    /// Android: processing work's "device idle" constraint does not hold
    /// (the screen off for less than `AndroidWorkRules.idleThreshold`).
    case deviceNotIdle
    /// Android: Doze (deep or light idle) defers background work until its
    /// next maintenance window or until the screen comes on or the charger
    /// goes in (Docs/AndroidPlatform.md A9).
    case doze
    /// Android: the app's standby bucket has used up its job quota
    /// (QuotaController; Docs/AndroidPlatform.md A12).
    case quota

    public var name: String {
        switch self {
        case .beforeEarliestBegin: "before_earliest_begin"
        case .notPending: "not_pending"
        case .screenOn: "screen_on"
        case .needsExternalPower: "needs_external_power"
        case .needsNetwork: "needs_network"
        case .lowPowerMode: "low_power_mode"
        case .lowBattery: "low_battery"
        case .appInForeground: "app_in_foreground"
        case .appForceQuit: "app_force_quit"
        case .deviceNotIdle: "device_not_idle"
        case .doze: "doze"
        case .quota: "quota"
        }
    }
}

/// The rules the simulated OS enforces whatever a policy says (the brief's
/// "rules the simulated OS always enforces"), with every threshold and
/// budget they use as a named parameter: the one definition the simulator,
/// `PolicyContext.isEligible`, the battery decision points and the
/// decision fast paths are derived from.
///
/// Where each rule is applied (Docs/Architecture.md has the full map):
/// - rules 1, 3 (state half), 4 and the foreground-app rule: ``refusal(for:at:state:)``,
///   below; `EligibilityTest` is the same predicates folded for many requests;
/// - rule 2 (submission limits): `BackgroundTaskScheduler.submit`, with
///   ``maxPendingRefreshPerApp`` and ``maxPendingProcessingPerApp``;
/// - rule 3 (budgets, expiry at session start or unplug) and rule 5:
///   `TaskWorker.budget(for:)` with ``refreshBudget`` and
///   ``processingBudget``, applied in `DeviceSimulator+Tasks.swift` /
///   `+Sessions.swift` / `+State.swift`;
/// - Low Power Mode offers and switch-off, and the battery decision points:
///   `PowerSupply.setLevel` / `takeCrossings`, `BatteryAlarm` and
///   `DeviceSimulator+State.swift`, from ``lowBatteryPercent``,
///   ``secondLowPowerOfferPercent`` and ``lowPowerModeOffPercent``.
///
/// Part of ``DeviceConfiguration``, whose JSON object holds these keys
/// directly (Docs/ExperimentSpec.md); each is declared once, with its
/// range and source, in ``parameters``, and ``crossFieldProblem`` orders
/// the three battery levels (``DeclaredParameters/rangeProblem`` checks both).
public struct OSRules: DeclaredParameters, Hashable {
    /// Rule 4: below this level no app refresh and no legacy fetch start;
    /// crossing it (either way) is a decision point and the policy is told
    /// (`batteryLow`/`batteryOK`); crossing it downwards is also the first
    /// Low Power Mode offer. Percent, in (``secondLowPowerOfferPercent``,
    /// ``lowPowerModeOffPercent``); default 20 (brief rule 4; iOS shows its
    /// low-battery alert, with the Low Power Mode button, at 20 %).
    public var lowBatteryPercent: Double {
        get { eligibility.lowBatteryPercent }
        set { eligibility.lowBatteryPercent = newValue }
    }
    /// The parameters of the rules that decide whether a pending request
    /// may start now (what `PolicyContext` carries; see ``EligibilityRules``).
    public var eligibility: EligibilityRules
    /// The second Low Power Mode offer, going down. Percent, in
    /// (0, ``lowBatteryPercent``); default 10 (brief; iOS's second alert).
    public var secondLowPowerOfferPercent: Double
    /// Low Power Mode is switched off when the level reaches this while
    /// charging. Percent, in (``lowBatteryPercent``, 100]; default 80
    /// (brief; Apple's Low Power Mode documentation).
    public var lowPowerModeOffPercent: Double
    /// Rule 3: an app refresh (and a legacy fetch) is expired after this
    /// run time. Duration > 0; default 30 s (brief; Apple's
    /// BGAppRefreshTask documentation: "up to 30 seconds").
    public var refreshBudget: SimDuration
    /// Rule 3: a processing task is expired after this run time (if not
    /// earlier, by a session start). Duration > 0; default 5 min
    /// (assumption: Apple says "minutes").
    public var processingBudget: SimDuration
    /// Rule 2: pending app-refresh (and legacy fetch) requests allowed per
    /// app; one more fails with `tooManyPendingTaskRequests`. Integer in [1, 1000];
    /// default 1 (brief; BGTaskScheduler documentation).
    public var maxPendingRefreshPerApp: Int
    /// Rule 2: pending processing requests allowed per app. Integer in [1, 1000];
    /// default 10 (brief; BGTaskScheduler documentation).
    public var maxPendingProcessingPerApp: Int

    public init(lowBatteryPercent: Double = 20, secondLowPowerOfferPercent: Double = 10,
                lowPowerModeOffPercent: Double = 80,
                refreshBudget: SimDuration = .seconds(30 as Int64), processingBudget: SimDuration = .minutes(5),
                maxPendingRefreshPerApp: Int = 1, maxPendingProcessingPerApp: Int = 10) {
        self.eligibility = EligibilityRules(lowBatteryPercent: lowBatteryPercent)
        self.secondLowPowerOfferPercent = secondLowPowerOfferPercent
        self.lowPowerModeOffPercent = lowPowerModeOffPercent
        self.refreshBudget = refreshBudget
        self.processingBudget = processingBudget
        self.maxPendingRefreshPerApp = maxPendingRefreshPerApp
        self.maxPendingProcessingPerApp = maxPendingProcessingPerApp
    }

    /// The values ``maxPendingRefreshPerApp`` and ``maxPendingProcessingPerApp``
    /// may take: at least one, and at most 1000 (far above iOS's 1 and 10;
    /// a bound so that a typo cannot ask for unbounded queues: assumption).
    public static let maxPendingRange = 1...1_000

    /// The rules with every parameter at its default.
    public static let standard = OSRules()

    /// Every parameter at its default.
    public init() { self.init(lowBatteryPercent: EligibilityRules().lowBatteryPercent) }

    /// A battery level that the rules order among themselves.
    static let percent = ValueRange(0, 100, lowerOpen: true, unit: "%")

    /// The JSON keys (written directly under `device`), with their ranges
    /// and the sources of the defaults given above.
    public static let parameters: [Parameter<OSRules>] = [
        .duration("refreshBudget", \.refreshBudget, .seconds(0.001, 3_600), source: "Apple, BGAppRefreshTask (up to 30 s)"),
        .duration("processingBudget", \.processingBudget, .seconds(0.001, 86_400), source: "assumption (Apple: minutes)"),
        .real("lowBatteryPercent", \.lowBatteryPercent, percent, source: "brief rule 4; iOS's low-battery alert"),
        .real("secondLowPowerOfferPercent", \.secondLowPowerOfferPercent, percent, source: "brief; iOS's second alert"),
        .real("lowPowerModeOffPercent", \.lowPowerModeOffPercent, percent, source: "brief; Apple's Low Power Mode"),
        .integer("maxPendingRefreshPerApp", \.maxPendingRefreshPerApp, maxPendingRange,
                 source: "brief; BGTaskScheduler documentation"),
        .integer("maxPendingProcessingPerApp", \.maxPendingProcessingPerApp, maxPendingRange,
                 source: "brief; BGTaskScheduler documentation"),
    ]

    /// The battery levels in order: the second offer below the low-battery
    /// line, and that below the level that switches Low Power Mode off.
    public var crossFieldProblem: (key: String, message: String)? {
        if !(secondLowPowerOfferPercent < lowBatteryPercent) {
            return ("secondLowPowerOfferPercent", "secondLowPowerOfferPercent must be in (0, lowBatteryPercent = \(lowBatteryPercent))")
        }
        if !(lowBatteryPercent < lowPowerModeOffPercent) {
            return ("lowBatteryPercent", "lowBatteryPercent must be below lowPowerModeOffPercent = \(lowPowerModeOffPercent)")
        }
        return nil
    }

    /// Why `request` may not start at `now` in `state`, or nil if it may
    /// (``EligibilityRules/refusal(for:at:state:)``).
    @inlinable
    public func refusal(for request: TaskRequest, at now: SimTime, state: DeviceState) -> Refusal? {
        eligibility.refusal(for: request, at: now, state: state)
    }

    // MARK: - Battery thresholds derived from the parameters

    /// Between the two downward offers: an alarm that fired with the level
    /// short of its target by rounding is taken for the offer nearer to it.
    var downwardAlarmSplit: Double { (lowBatteryPercent + secondLowPowerOfferPercent) / 2 }

    /// Between the two upward thresholds (low battery, Low Power Mode off),
    /// for the same snap going up.
    var upwardAlarmSplit: Double { (lowBatteryPercent + lowPowerModeOffPercent) / 2 }
}

extension OSRules {
    /// The battery level at which the next battery decision point falls,
    /// for a level `level` moving at `w` watts (nil: none ahead): going
    /// down, the low-battery threshold then the second offer; going up,
    /// the low-battery threshold, then (in Low Power Mode) the switch-off.
    @inline(__always)
    func alarmTarget(level: Double, watts w: Double, lowPower: Bool) -> Double? {
        guard w != 0 else { return nil }
        if w < 0 {
            // At exactly a threshold the level has not gone below it yet
            // (the crossing is strict, as rule 4): it is still ahead.
            if level >= lowBatteryPercent { return lowBatteryPercent }
            if level >= secondLowPowerOfferPercent { return secondLowPowerOfferPercent }
            return nil
        } else {
            if level < lowBatteryPercent { return lowBatteryPercent }
            if level < lowPowerModeOffPercent && lowPower { return lowPowerModeOffPercent }
            return nil
        }
    }
}

extension OSRules {
    /// The event log's name for a battery threshold crossing:
    /// `battery_<percent>` (`battery_20` at the default low-battery level).
    static func thresholdEventName(_ percent: Double) -> String {
        let whole = percent.rounded()
        return whole == percent && whole.magnitude < 1e15 ? "battery_\(Int(whole))" : "battery_\(percent)"
    }
}

/// The rules that decide whether a pending request may start now (rules
/// 1, 3 and 4 (Docs/Semantics.md), the foreground-app rule and the app-switcher
/// rule), with the one
/// parameter they read. The part of ``OSRules`` a policy's context carries:
/// small, because the context is copied into every policy call.
public struct EligibilityRules: Sendable, Hashable {
    /// ``OSRules/lowBatteryPercent``.
    public var lowBatteryPercent: Double

    @inlinable
    public init(lowBatteryPercent: Double = 20) { self.lowBatteryPercent = lowBatteryPercent }

    // Each rule's state test is written once, below, and read by both
    // `refusal` (the reason, for one request) and `EligibilityTest` (a
    // yes/no for many requests of one decision).

    /// Rule 4: why the state stops app refresh and legacy fetch (nil: it does not).
    @inlinable @inline(__always)
    public func contentRefreshBlocked(_ state: DeviceState) -> Refusal? {
        if state.isLowPowerMode { return .lowPowerMode }
        if state.batteryPercent < lowBatteryPercent { return .lowBattery }
        return nil
    }

    /// Rule 3: the screen on (the device in use) stops processing tasks.
    @inlinable @inline(__always)
    public static func processingBlocked(_ state: DeviceState) -> Bool { state.isScreenOn }

    /// Rule 3: `requiresExternalPower` needs the charger.
    @inlinable @inline(__always)
    public static func externalPowerMissing(_ state: DeviceState) -> Bool { !state.isCharging }

    /// The app-switcher rule: a force-quit app gets no background launch
    /// until its next launch (``Refusal/appForceQuit``).
    @inlinable @inline(__always)
    public static func appForceQuit(_ app: Int32, _ state: DeviceState) -> Bool {
        !state.forceQuitApps.isEmpty && state.forceQuitApps.contains(app)
    }

    /// Rule 3: `requiresNetworkConnectivity` needs a network.
    @inlinable @inline(__always)
    public static func networkMissing(_ state: DeviceState) -> Bool { !state.network.isOnline }

    /// Why `request` may not start at `now` in `state`, or nil if it may.
    /// The first broken rule, in this order: earliest begin, Low Power Mode
    /// / low battery, screen on, app in the foreground, external power,
    /// network, app force-quit (last, so that the reasons of worlds
    /// without force-quits are unchanged).
    @inlinable
    public func refusal(for request: TaskRequest, at now: SimTime, state: DeviceState) -> Refusal? {
        if now < request.earliestBegin { return .beforeEarliestBegin }
        if request.kind.refreshesContent, let why = contentRefreshBlocked(state) { return why }
        if request.kind == .processing && Self.processingBlocked(state) { return .screenOn }
        return Self.requestRefusal(for: request, state: state)
    }

    /// The rules every platform keeps, checked last and in this order: the
    /// app in the foreground, external power, network, the app force-quit.
    /// Android's platform ends its own list with them too
    /// (Docs/AndroidPlatform.md A8).
    @inlinable
    public static func requestRefusal(for request: TaskRequest, state: DeviceState) -> Refusal? {
        if let f = state.foregroundApp, f == request.app { return .appInForeground }
        if request.requiresExternalPower && externalPowerMissing(state) { return .needsExternalPower }
        if request.requiresNetworkConnectivity && networkMissing(state) { return .needsNetwork }
        if appForceQuit(request.app, state) { return .appForceQuit }
        return nil
    }
}
