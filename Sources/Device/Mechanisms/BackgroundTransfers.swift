import SimCore
import Traces

/// A transfer an app hands to a background `URLSession` at the end of a
/// session (`AppModel.backgroundTransfer`, JSON key of the same name); nil
/// (the default): the app hands none. Docs/Mechanisms.md ("Background
/// URLSession").
public struct BackgroundTransferModel: DeclaredParameters, Hashable {
    /// Probability that the app hands a transfer at a session's end. In
    /// [0, 1]; required (assumption: the experimenter's).
    public var probability: Double = 0
    /// Bytes received and sent. In [0, 10¹⁰] B; defaults 2 MB down, 0 up
    /// (assumption: a media or content download).
    public var bytesDown: Double = 2_000_000
    public var bytesUp: Double = 0
    /// `URLSessionConfiguration.isDiscretionary`: the system waits for
    /// Wi-Fi and a charger. Default false.
    public var discretionary = false
    /// The download is the app's content: when the app handles the
    /// completion, its copy includes every update published up to the
    /// transfer's start (the server answered then). Default true.
    public var fetchesContent = true
    /// Transfers the app hands, one at each background relaunch, after the
    /// first (a list of files fetched one by one: the pattern the relaunch
    /// rate limit acts on). Integer in [0, 100]; default 0 (assumption).
    public var followUps = 0

    /// A placeholder: `probability` is required in a spec.
    public init() {}

    public init(probability: Double, bytesDown: Double = BackgroundTransferModel().bytesDown,
                bytesUp: Double = BackgroundTransferModel().bytesUp,
                discretionary: Bool = false, fetchesContent: Bool = true, followUps: Int = 0) {
        self.probability = probability
        self.bytesDown = bytesDown
        self.bytesUp = bytesUp
        self.discretionary = discretionary
        self.fetchesContent = fetchesContent
        self.followUps = followUps
    }

    /// The JSON keys under an app's `backgroundTransfer`.
    public static let parameters: [Parameter<BackgroundTransferModel>] = [
        .real("probability", \.probability, .probability, required: true, source: "required: the experimenter's assumption"),
        .real("bytesDown", \.bytesDown, ValueRange(0, 1e10, unit: "B"), source: "assumption (a media or content download)"),
        .real("bytesUp", \.bytesUp, ValueRange(0, 1e10, unit: "B"), source: "assumption"),
        .flag("discretionary", \.discretionary, source: "URLSessionConfiguration.isDiscretionary (default false)"),
        .flag("fetchesContent", \.fetchesContent, source: "assumption"),
        .integer("followUps", \.followUps, 0...100, source: "assumption (files fetched one by one)"),
    ]
}

/// The system side of background `URLSession` (JSON key `device.backgroundURLSession`).
public struct BackgroundTransferRules: DeclaredParameters, Hashable {
    /// The delay before the first background relaunch of an app for a
    /// completed transfer; it doubles on every background relaunch and is
    /// reset by a foreground launch of the app. Duration in [0, 1 day];
    /// default 60 s. Source: the project's REFERENCES.md ("the per-app
    /// resume delay starts at 60 s and doubles on every background
    /// relaunch; it resets when the app comes to the foreground"), from
    /// Apple's developer-forum guidance; not in Apple's API reference.
    public var relaunchDelay: SimDuration = .seconds(60 as Int64)
    /// CPU the app spends handling a completion when relaunched
    /// (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`).
    /// Seconds in [0, 30]; default 0.5 (assumption).
    public var relaunchCPUSeconds = 0.5
    /// A transfer not completed this long after it was handed fails
    /// (`timeoutIntervalForResource`). Duration in [1 min, 30 days];
    /// default 7 days (Apple: the default value of
    /// `timeoutIntervalForResource` is 7 days).
    public var resourceTimeout: SimDuration = .hours(24 * 7)

    public init() {}

    /// The JSON keys under `device.backgroundURLSession`.
    public static let parameters: [Parameter<BackgroundTransferRules>] = [
        .duration("relaunchDelay", \.relaunchDelay, .seconds(0, 86_400),
                  source: "REFERENCES.md (60 s, doubling per background relaunch), Apple's developer forums"),
        .real("relaunchCPUSeconds", \.relaunchCPUSeconds, .seconds(0, 30), source: "assumption"),
        .duration("resourceTimeout", \.resourceTimeout, .seconds(60, 30 * 86_400),
                  source: "Apple, timeoutIntervalForResource (default 7 days)"),
    ]
}

/// The transfers handed to the system on one device, at most one per app
/// (an app that hands another while one is pending is counted and not
/// queued: assumption), and each app's relaunch rate limit. Pure
/// bookkeeping: the simulator says when conditions hold and runs the
/// transfers on its radio.
///
/// A transfer's life: handed → waiting (for its condition: online; for a
/// discretionary one Wi-Fi and a charger) → running (a transfer on the
/// radio, out of process: no app CPU, no wake) → paused back to waiting if
/// its condition ends before the bytes are in (it restarts from zero:
/// assumption, no resume data) → done → delivered: at once to the app in
/// the foreground, else by a background relaunch, not before the app's
/// next allowed relaunch time (``relaunchAt(app:done:)``).
struct BackgroundTransfers {
    enum Phase: Hashable {
        case waiting
        /// On the radio until `dataEnd`, or paused at `pauseAt` if earlier.
        case running(start: SimTime, dataEnd: SimTime, pauseAt: SimTime)
        /// Bytes in at `done`, the app not yet told; relaunch at `relaunchAt`.
        case done(at: SimTime, relaunchAt: SimTime, servedAt: SimTime)
    }

    struct Transfer: Hashable {
        var handedAt: SimTime
        var phase: Phase
        /// Energy of its runs so far (promotion, active), joules.
        var joules: Double
        /// When its last run started (the server answered then: what it fetches).
        var lastStart: SimTime?
        /// Follow-up transfers still to hand, one per background relaunch.
        var followUps: Int
    }

    let rules: BackgroundTransferRules
    var transfers: [Transfer?]
    /// Per app: the current relaunch delay (doubles per background relaunch) and the earliest next relaunch.
    private(set) var delay: [SimDuration]
    private(set) var nextAllowed: [SimTime]
    /// Transfers waiting for their condition (re-examined at every step).
    var waitingCount: Int { transfers.reduce(0) { if case .waiting? = $1?.phase { $0 + 1 } else { $0 } } }

    init(apps: Int, rules: BackgroundTransferRules) {
        self.rules = rules
        transfers = Array(repeating: nil, count: apps)
        delay = Array(repeating: rules.relaunchDelay, count: apps)
        nextAllowed = Array(repeating: .zero, count: apps)
    }

    /// The app's next background relaunch for a transfer done at `done`.
    func relaunchAt(app: Int, done: SimTime) -> SimTime { max(done, nextAllowed[app]) }

    /// A background relaunch of `app` happened at `t`: the next one not
    /// before `t` + the current delay, which then doubles.
    mutating func relaunched(app: Int, at t: SimTime) {
        nextAllowed[app] = t + delay[app]
        delay[app] = SimDuration(microseconds: min(delay[app].microseconds * 2, 86_400_000_000 * 365))
    }

    /// A foreground launch of `app`: the delay starts again from its first value.
    mutating func launchedInForeground(app: Int) {
        delay[app] = rules.relaunchDelay
        nextAllowed[app] = .zero
    }

    /// The earliest time something is due: a run's data end or pause, a
    /// relaunch, a timeout (`.farFuture`: none).
    var nextTime: SimTime {
        var t = SimTime.farFuture
        for case let x? in transfers {
            switch x.phase {
            case .waiting: t = min(t, x.handedAt + rules.resourceTimeout)
            case let .running(_, dataEnd, pauseAt): t = min(t, dataEnd, pauseAt)
            case let .done(_, relaunchAt, _): t = min(t, relaunchAt)
            }
        }
        return t
    }
}

/// Per-user background `URLSession` counts and energy (`UserMetrics.urlSession`).
public enum BackgroundTransferMetric: MetricGroup {
    /// `runs`: a paused transfer restarts as one more run; `paused`: its
    /// condition ended (offline; for a discretionary one also off Wi-Fi or
    /// unplugged) before the bytes were in.
    public enum Count: Int, CaseIterable, Sendable {
        case handed, alreadyPending, runs, paused, completed, timedOut, relaunches, deliveredForeground, newData
        case cancelledForceQuit
    }
    /// `energyJoules`: the transfers' promotion and active energy, the
    /// relaunches' wake and CPU (tails excluded); `relaunchWaitSumSeconds`:
    /// over background relaunches, from the bytes being in to the relaunch.
    public enum Sum: Int, CaseIterable, Sendable { case energyJoules, relaunchWaitSumSeconds }
}
public typealias BackgroundTransferMetrics = MetricCounters<BackgroundTransferMetric>
