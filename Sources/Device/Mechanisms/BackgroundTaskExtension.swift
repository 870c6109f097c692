import SimCore
import Traces

/// What an app does with extra time at the end of a session
/// (`UIApplication.beginBackgroundTask(withName:expirationHandler:)`): with
/// probability `probability` per session end it asks for extra time to
/// finish `work` (saving, an upload), and ends the task when the work is
/// done, or is expired at ``BackgroundTaskRules/budget``. A per-app
/// parameter (`AppModel.beginBackgroundTask`, JSON key of the same name);
/// nil (the default): the app never asks. Docs/Mechanisms.md.
public struct FinishingWork: DeclaredParameters, Hashable {
    /// Probability that the app asks at a session's end. In [0, 1]; no
    /// default (required): how often apps do this is the experimenter's
    /// assumption (no published figure).
    public var probability: Double = 0
    /// The work it finishes: CPU, bytes, server latency, failure
    /// probabilities, as a task's work model. Default: a small upload
    /// (`FinishingWork.defaultWork`, an assumption).
    public var work: WorkModel = FinishingWork.defaultWork

    /// 1 s of CPU and a 20 kB upload (assumption: "save, upload").
    public static let defaultWork = WorkModel(cpuSeconds: 1, bytesUp: 20_000, bytesDown: 1_000)

    public init(probability: Double, work: WorkModel = FinishingWork.defaultWork) {
        self.probability = probability
        self.work = work
    }

    /// A placeholder: `probability` is required in a spec.
    public init() {}

    /// The JSON keys under an app's `beginBackgroundTask`.
    public static let parameters: [Parameter<FinishingWork>] = [
        .real("probability", \.probability, .probability, required: true, source: "required: the experimenter's assumption"),
        .object("work", \.work, source: "assumption (a small upload); keys it omits from defaultWork"),
    ]
}

/// The OS side of `beginBackgroundTask` (JSON key `device.beginBackgroundTask`).
public struct BackgroundTaskRules: DeclaredParameters, Hashable {
    /// Extra time granted at a session's end; the task is expired at its
    /// end. Duration in (0, 10 min]; default 30 s. Source: the project's
    /// REFERENCES.md ("`beginBackgroundTask`: about 30 s on current iOS");
    /// Apple's API documentation gives no number (`backgroundTimeRemaining`:
    /// "The maximum amount of time remaining for the app to run in the
    /// background"), so the figure is an assumption on Apple's side.
    public var budget: SimDuration = .seconds(30 as Int64)

    public init() {}

    public init(budget: SimDuration) { self.budget = budget }

    /// The JSON keys under `device.beginBackgroundTask`.
    public static let parameters: [Parameter<BackgroundTaskRules>] = [
        .duration("budget", \.budget, .seconds(0, 600, open: true),
                  source: "REFERENCES.md (about 30 s on current iOS); Apple gives no number"),
    ]
}

/// The extra-time runs of one simulation: at most one per app at a time
/// (an app whose previous extra time still runs when another session ends
/// does not ask again: its work is already going on; assumption). Each
/// run is a `PlannedBackgroundRun` beside the worker: no wake (the app is
/// still running), its work's transfer on the radio and its CPU.
struct BackgroundTaskExtension {
    let budget: SimDuration
    /// Per app: the probability it asks at a session end (0: never).
    let askProbability: [Double]
    var runs: PerAppRuns<PlannedBackgroundRun>
    /// Per app, the asking draw's prefix (keyed by session index).
    let askPrefixes: [UInt64]
    let draws: PlannedRunDraws

    /// Nil unless some app asks for extra time.
    init?(models: [AppModel], rules: BackgroundTaskRules, random: DeviceRandom) {
        let p = models.map { $0.beginBackgroundTask?.probability ?? 0 }
        guard p.contains(where: { $0 > 0 }) else { return nil }
        budget = rules.budget
        askProbability = p
        runs = PerAppRuns(apps: models.count)
        askPrefixes = (0..<UInt64(models.count)).map { random.prefix(RandomPurpose.backgroundTaskAsks.rawValue, $0) }
        draws = PlannedRunDraws(apps: models.count,
                                failure: { random.prefix(RandomPurpose.backgroundTaskFailure.rawValue, $0) },
                                latency: { random.prefix(RandomPurpose.backgroundTaskLatency.rawValue, $0) })
    }

    /// Whether `app` asks for extra time at the end of session number
    /// `session` (the trace's index: the same under every policy).
    func asks(app: Int, session: Int) -> Bool {
        let p = askProbability[app]
        return p > 0 && DeviceRandom.uniform(prefix: askPrefixes[app], UInt64(session)) < p
    }
}

/// Per-user `beginBackgroundTask` counts and energy (`UserMetrics.backgroundTask`).
public enum BackgroundTaskMetric: MetricGroup {
    public enum Count: Int, CaseIterable, Sendable { case started, alreadyRunning, ended, expired, failed }
    /// Energy of the runs (promotion, active, CPU; no wake, tails
    /// excluded), and of it the energy of expired and failed runs, joules.
    public enum Sum: Int, CaseIterable, Sendable { case energyJoules, wastedJoules }
}
public typealias BackgroundTaskMetrics = MetricCounters<BackgroundTaskMetric>
