import SimCore
import Traces

/// What one background task of an app does when it runs.
public struct WorkModel: DeclaredParameters, Hashable {
    /// CPU time after the data arrives, seconds.
    public var cpuSeconds: Double = 0.5
    /// Bytes sent.
    public var bytesUp: Double = 2_000
    /// Bytes received.
    public var bytesDown: Double = 50_000
    /// Server latency before the bytes flow (radio active meanwhile): the
    /// median when `serverLatencySigma` > 0.
    public var serverLatency: SimDuration = .milliseconds(300)
    /// Lognormal spread of the server latency: each run draws
    /// serverLatency · exp(σ·Z), Z standard normal, from the device's
    /// counter-based random stream keyed by (app, kind, run number), so the
    /// same task has the same latency under every policy. 0 = constant.
    public var serverLatencySigma = AppDefaults.serverLatencySigma
    /// Probability the task fails on Wi-Fi.
    public var failureProbabilityWifi = AppDefaults.failureProbabilityWifi
    /// Probability the task fails on cellular.
    public var failureProbabilityCellular = AppDefaults.failureProbabilityCellular
    /// Whether the task uses the network at all.
    public var usesNetwork = true

    /// Defaults: those of `AppDefaults.refreshWork` (`WorkModel()` equals it).
    public init() {}

    public init(cpuSeconds: Double, bytesUp: Double = WorkModel().bytesUp, bytesDown: Double = WorkModel().bytesDown,
                serverLatency: SimDuration = WorkModel().serverLatency,
                serverLatencySigma: Double = AppDefaults.serverLatencySigma,
                failureProbabilityWifi: Double = AppDefaults.failureProbabilityWifi,
                failureProbabilityCellular: Double = AppDefaults.failureProbabilityCellular,
                usesNetwork: Bool = true) {
        self.cpuSeconds = cpuSeconds
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.serverLatency = serverLatency
        self.serverLatencySigma = serverLatencySigma
        self.failureProbabilityWifi = failureProbabilityWifi
        self.failureProbabilityCellular = failureProbabilityCellular
        self.usesNetwork = usesNetwork
    }

    /// `AppDefaults.refreshWork`.
    public static var refreshDefault: WorkModel { AppDefaults.refreshWork }
    /// `AppDefaults.processingWork`.
    public static var processingDefault: WorkModel { AppDefaults.processingWork }
    /// Instantaneous and never failing: for closed-form tests.
    public static let instant = WorkModel(cpuSeconds: 0, bytesUp: 0, bytesDown: 0, serverLatency: .zero,
                                          failureProbabilityWifi: 0, failureProbabilityCellular: 0,
                                          usesNetwork: false)

    @inlinable
    public func failureProbability(on network: NetworkType) -> Double {
        switch network {
        case .wifi: failureProbabilityWifi
        case .cellular: failureProbabilityCellular
        case .offline: usesNetwork ? 1 : 0
        }
    }

    /// The JSON keys of a work model (an app's `refresh` and `processing`,
    /// a mechanism's `work`); the keys a spec omits keep the default of the
    /// role the model plays (``DeclaredParameters/init(from:missingKeysFrom:)``:
    /// a processing run's `{"cpuSeconds": 30}` keeps the processing download).
    public static let parameters: [Parameter<WorkModel>] = [
        .real("cpuSeconds", \.cpuSeconds, .seconds(0, 3_600), source: "AppDefaults (assumption)"),
        .real("bytesUp", \.bytesUp, ValueRange(0, 1e10, unit: "B"), source: "AppDefaults (assumption)"),
        .real("bytesDown", \.bytesDown, ValueRange(0, 1e10, unit: "B"), source: "AppDefaults (assumption)"),
        .duration("serverLatency", \.serverLatency, .seconds(0, 3_600), source: "AppDefaults (assumption)"),
        .real("serverLatencySigma", \.serverLatencySigma, ValueRange(0, 5), source: "AppDefaults"),
        .real("failureProbabilityWifi", \.failureProbabilityWifi, .probability, source: "AppDefaults"),
        .real("failureProbabilityCellular", \.failureProbabilityCellular, .probability, source: "AppDefaults"),
        .flag("usesNetwork", \.usesNetwork, source: "AppDefaults"),
    ]
}

/// How one app uses the background-task API. Defaults: `AppDefaults`.
@dynamicMemberLookup
public struct AppModel: DeclaredParameters, Hashable {
    /// Work of one app-refresh (or legacy fetch) run.
    public var refresh: WorkModel
    /// Work of one processing run (used only when `processingInterval` is set).
    public var processing: WorkModel
    /// The app uses legacy Background Fetch instead of `BGAppRefreshTask`.
    public var usesLegacyFetch: Bool
    /// Legacy fetch: `setMinimumBackgroundFetchInterval` (a floor, not a schedule).
    public var minimumFetchInterval: SimDuration
    /// `earliestBeginDate` the app asks for, relative to the submission.
    public var refreshEarliestBeginDelay: SimDuration
    /// Chain scheduling: the handler resubmits its refresh request at its start.
    public var resubmitsAtStart: Bool
    /// Probability the handler forgets to resubmit (breaks the chain until the next launch).
    public var forgetProbability: Double
    /// Reports honest fetch results (a dishonest app always says `.newData`).
    public var reportsHonestly: Bool
    /// Processing: progress survives an expiration (else it is lost).
    public var checkpointsOnExpiration: Bool
    /// Whether the app may use Background App Refresh. False turns its
    /// refresh (and legacy fetch) off whatever the trace's per-app switch
    /// says; true leaves it to that switch (the user's, which wins when it
    /// says off). Default true.
    public var backgroundAppRefreshEnabled: Bool
    /// Submit a processing request on backgrounding when the last
    /// completed one is older than this; nil = the app has no processing task.
    public var processingInterval: SimDuration?
    public var processingRequiresExternalPower: Bool
    public var processingRequiresNetwork: Bool
    /// After a refresh *fails* (not expired), the app resubmits its refresh
    /// request for now + this delay, replacing the pending one (rule 2);
    /// nil = never retry (the request submitted at handler start stands).
    /// Default `AppDefaults.retryDelayAfterFailure` (1 min, an assumption:
    /// apps commonly retry a failed fetch soon). This is what gives a
    /// backoff policy something to act on.
    public var retryDelayAfterFailure: SimDuration?
    /// The app's use of each mechanism (``AppMechanismModels``), read as
    /// members of the model (`silentPush`, `backgroundTransfer`, ...) and
    /// written flat in the app's object; none by default.
    public var mechanisms = AppMechanismModels()
    /// How the app's BGTask handlers are written (JSON key
    /// `handlerStyle`); default `.completionHandler` (the model of issue
    /// 17 and before). Docs/Semantics.md, "SwiftUI handlers".
    public var handlerStyle: HandlerStyle = .completionHandler

    // Behaviours that the iOS scheduler reacts to. Each is off
    // (0) by default, and each draws from its own `RandomPurpose`, so a
    // world with them off has exactly the draws it had without them.

    /// The user's habit with this app in the app switcher: the probability
    /// that, when a session of the app ends, the user force-quits it
    /// (swipes it away). A force-quit app gets no background launch of any
    /// kind until its next launch (``Refusal/appForceQuit``). Probability
    /// per session end, in [0, 1]; default 0. Apple publishes no frequency:
    /// any value is an assumption (Docs/Semantics.md, "Force-quit").
    public var forceQuitProbability: Double
    /// The probability that a background run's handler never calls its
    /// completion handler (`setTaskCompleted` / the fetch completion
    /// handler): the app does its work, then the run is held until its
    /// budget (``OSRules/refreshBudget`` or ``OSRules/processingBudget``)
    /// and ends `.expired`, its energy counted as wasted, with no fetch
    /// result. Probability per run, in [0, 1]; default 0 (assumption).
    public var neverCompletesProbability: Double
    /// The probability that, when a session of the app ends, the app
    /// cancels the background requests it just submitted (its refresh and
    /// processing identifiers, as `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`;
    /// e.g. the user signed out or turned sync off): none of them runs,
    /// and nothing is pending for the app until its next session ends.
    /// Probability per session end, in [0, 1]; default 0 (assumption).
    public var cancelsRequestsProbability: Double

    public init(refresh: WorkModel = .refreshDefault, processing: WorkModel = .processingDefault,
                usesLegacyFetch: Bool = false, minimumFetchInterval: SimDuration = AppDefaults.minimumFetchInterval,
                refreshEarliestBeginDelay: SimDuration = AppDefaults.refreshEarliestBeginDelay, resubmitsAtStart: Bool = true,
                forgetProbability: Double = 0.0, reportsHonestly: Bool = true,
                checkpointsOnExpiration: Bool = true, backgroundAppRefreshEnabled: Bool = true,
                processingInterval: SimDuration? = nil, processingRequiresExternalPower: Bool = true,
                processingRequiresNetwork: Bool = true,
                retryDelayAfterFailure: SimDuration? = AppDefaults.retryDelayAfterFailure,
                forceQuitProbability: Double = 0, neverCompletesProbability: Double = 0,
                cancelsRequestsProbability: Double = 0) {
        self.refresh = refresh
        self.processing = processing
        self.usesLegacyFetch = usesLegacyFetch
        self.minimumFetchInterval = minimumFetchInterval
        self.refreshEarliestBeginDelay = refreshEarliestBeginDelay
        self.resubmitsAtStart = resubmitsAtStart
        self.forgetProbability = forgetProbability
        self.reportsHonestly = reportsHonestly
        self.checkpointsOnExpiration = checkpointsOnExpiration
        self.backgroundAppRefreshEnabled = backgroundAppRefreshEnabled
        self.processingInterval = processingInterval
        self.processingRequiresExternalPower = processingRequiresExternalPower
        self.processingRequiresNetwork = processingRequiresNetwork
        self.retryDelayAfterFailure = retryDelayAfterFailure
        self.forceQuitProbability = forceQuitProbability
        self.neverCompletesProbability = neverCompletesProbability
        self.cancelsRequestsProbability = cancelsRequestsProbability
    }

    /// The defaults of every parameter (`AppDefaults`).
    public init() { self.init(refresh: .refreshDefault) }

    /// The JSON keys of an app model (`device.defaultApp`, `device.apps.<name>`).
    /// Intervals that reschedule work start at one second: zero would let
    /// an app resubmit at the instant it ran, forever.
    public static let parameters: [Parameter<AppModel>] = [
        .object("refresh", \.refresh, source: "AppDefaults.refreshWork; keys it omits from there"),
        .object("processing", \.processing, source: "AppDefaults.processingWork; keys it omits from there"),
        .flag("usesLegacyFetch", \.usesLegacyFetch, source: "assumption"),
        .duration("minimumFetchInterval", \.minimumFetchInterval, .seconds(1, 30 * day), source: "AppDefaults"),
        .duration("refreshEarliestBeginDelay", \.refreshEarliestBeginDelay, .seconds(0, 30 * day), source: "AppDefaults"),
        .flag("resubmitsAtStart", \.resubmitsAtStart, source: "assumption"),
        .real("forgetProbability", \.forgetProbability, .probability, source: "assumption"),
        .flag("reportsHonestly", \.reportsHonestly, source: "assumption"),
        .flag("checkpointsOnExpiration", \.checkpointsOnExpiration, source: "assumption"),
        .flag("backgroundAppRefreshEnabled", \.backgroundAppRefreshEnabled, source: "iOS default (on)"),
        .duration("processingInterval", \.processingInterval, .seconds(60, 30 * day),
                  source: "assumption (absent or null: no processing task)"),
        .flag("processingRequiresExternalPower", \.processingRequiresExternalPower, source: "assumption"),
        .flag("processingRequiresNetwork", \.processingRequiresNetwork, source: "assumption"),
        .duration("retryDelayAfterFailure", \.retryDelayAfterFailure, .seconds(1, 30 * day),
                  source: "AppDefaults (assumption; null: never retry)"),
        .real("forceQuitProbability", \.forceQuitProbability, .probability, source: "assumption (Apple publishes no frequency)"),
        .real("neverCompletesProbability", \.neverCompletesProbability, .probability, source: "assumption"),
        .real("cancelsRequestsProbability", \.cancelsRequestsProbability, .probability, source: "assumption"),
    ] + AppMechanismModels.parameters.map { $0.lifted(\.mechanisms) } + [
        .choice("handlerStyle", \.handlerStyle, source: "completionHandler (the model before SwiftUI handlers)"),
    ]

    /// A mechanism's per-app model, as if a member of the app model.
    public subscript<T>(dynamicMember path: WritableKeyPath<AppMechanismModels, T>) -> T {
        get { mechanisms[keyPath: path] }
        set { mechanisms[keyPath: path] = newValue }
    }

    /// One day in seconds: the upper bound of most intervals.
    static let day = 86_400.0

}
