import SimCore
import Traces

/// What a continued-processing request does when the system cannot run it
/// now (`BGContinuedProcessingTaskRequest.SubmissionStrategy`). Apple:
/// `.queue` "adds the task request to the back of a queue. The system runs
/// the task as soon as possible"; `.fail` "fails the submission of a
/// continuous background task if the system can’t run it immediately";
/// the default is `.queue`. Docs/Mechanisms.md, "Continued-processing tasks".
public enum ContinuedProcessingStrategy: String, Sendable, Hashable, Codable {
    case queue, fail
}

/// An app whose user starts export-like jobs in the foreground
/// (`BGContinuedProcessingTaskRequest`, iOS 26): per session, with
/// probability `probability`, the user starts a job at the session's
/// start; it continues after the app leaves the foreground. A per-app
/// parameter (`AppModel.continuedProcessing`, JSON key of the same name);
/// nil (the default): the app never submits one.
public struct ContinuedProcessingJob: DeclaredParameters, Hashable {
    /// Probability per session that the user starts a job. In [0, 1];
    /// required (assumption: no published figure).
    public var probability: Double = 0
    /// The job's work: its bytes on the radio model first, then its CPU
    /// (the task's progress is the fraction of that time gone). Default
    /// `defaultWork` (assumption).
    public var work: WorkModel = ContinuedProcessingJob.defaultWork
    /// `.queue` (Apple's default) or `.fail`.
    public var strategy = ContinuedProcessingStrategy.queue
    /// The user's cancel hazard while the job runs (the system shows its
    /// progress and a cancel control): per hour of running, in [0, 3600];
    /// default 0 (assumption: no published figure).
    public var cancelPerHour: Double = 0

    /// 120 s of CPU and a 20 MB upload (assumption: "exporting files").
    public static let defaultWork = WorkModel(cpuSeconds: 120, bytesUp: 20_000_000, bytesDown: 10_000)

    public init(probability: Double, work: WorkModel = ContinuedProcessingJob.defaultWork,
                strategy: ContinuedProcessingStrategy = .queue, cancelPerHour: Double = 0) {
        self.probability = probability
        self.work = work
        self.strategy = strategy
        self.cancelPerHour = cancelPerHour
    }

    /// A placeholder: `probability` is required in a spec.
    public init() {}

    /// The JSON keys under an app's `continuedProcessing`.
    public static let parameters: [Parameter<ContinuedProcessingJob>] = [
        .real("probability", \.probability, .probability, required: true, source: "required: no published figure"),
        .object("work", \.work, source: "assumption (exporting files); keys it omits from defaultWork"),
        .choice("strategy", \.strategy, source: "Apple, BGContinuedProcessingTaskRequest.SubmissionStrategy (default queue)"),
        .real("cancelPerHour", \.cancelPerHour, ValueRange(0, 3_600, unit: "/h"), source: "assumption"),
    ]
}

/// The OS side of continued processing (JSON key `device.continuedProcessing`).
/// Apple publishes no concurrency limit and no definition of "resource
/// constraints": both are parameters and assumptions.
public struct ContinuedProcessingRules: DeclaredParameters, Hashable {
    /// At most this many continued-processing tasks run at once on the
    /// device (Apple: "the system is currently at the maximum level of
    /// concurrent tasks", no number). In [1, 16]; default 2 (assumption).
    public var maxRunning = 2
    /// Under resource pressure at most this many keep running: the others
    /// are ended, least progress first (Apple: "The system prioritizes the
    /// termination of tasks that reflect minimal or no progress, when
    /// resources become constrained"); queued ones do not start. In
    /// [0, maxRunning]; default 1 (assumption).
    public var maxRunningUnderPressure = 1
    /// Pressure: the battery at or under this level (percent, in [0, 100])
    /// or Low Power Mode on (assumption). Nil (the default): the OS's own
    /// low-battery line, ``OSRules/lowBatteryPercent`` (20 %), so that
    /// moving that line moves this one too; that it is the line that counts
    /// here is an assumption.
    public var pressureBatteryPercent: Double?

    public init() {}

    public init(maxRunning: Int = ContinuedProcessingRules().maxRunning,
                maxRunningUnderPressure: Int = ContinuedProcessingRules().maxRunningUnderPressure,
                pressureBatteryPercent: Double? = nil) {
        self.maxRunning = maxRunning
        self.maxRunningUnderPressure = maxRunningUnderPressure
        self.pressureBatteryPercent = pressureBatteryPercent
    }

    /// The JSON keys under `device.continuedProcessing`
    /// (`maxRunningUnderPressure` is also checked against `maxRunning`).
    public static let parameters: [Parameter<ContinuedProcessingRules>] = [
        .integer("maxRunning", \.maxRunning, 1...16, source: "assumption (Apple gives no number)"),
        .integer("maxRunningUnderPressure", \.maxRunningUnderPressure, 0...16, source: "assumption"),
        .real("pressureBatteryPercent", \.pressureBatteryPercent, ValueRange(0, 100, unit: "%"),
              source: "assumption (absent: the OS's lowBatteryPercent)"),
    ]

    /// Under pressure no more run than at all.
    public var crossFieldProblem: (key: String, message: String)? {
        maxRunningUnderPressure <= maxRunning ? nil
            : ("maxRunningUnderPressure", "\(maxRunningUnderPressure) is out of range; allowed: [0, \(maxRunning)] (at most maxRunning)")
    }

    /// Whether the device is under resource pressure in `state`, given the
    /// OS's low-battery line (the default pressure level).
    func underPressure(_ state: DeviceState, lowBatteryPercent: Double) -> Bool {
        state.isLowPowerMode || state.batteryPercent <= (pressureBatteryPercent ?? lowBatteryPercent)
    }
}

/// One submitted continued-processing job.
struct ContinuedProcessingEntry: Hashable {
    var app: Int32
    /// The app's job number (the draws' run number).
    var number: UInt64
    var submitted: SimTime
    /// Set when it starts.
    var run: PlannedBackgroundRun?
    /// When the user cancels it (`.farFuture`: never), drawn at its start.
    var cancelAt = SimTime.farFuture

    /// When it ends if nothing else happens.
    var nextTime: SimTime { min(run?.end ?? .farFuture, cancelAt) }

    /// Fraction of its work done at `t` (bytes, then CPU, as time), in [0, 1].
    func progress(at t: SimTime) -> Double {
        guard let r = run else { return 0 }
        let total = (r.end - r.start).seconds
        return total > 0 ? min(1, max(0, (t - r.start).seconds / total)) : 1
    }
}

/// The continued-processing tasks of one simulation: the running ones (at
/// most `rules.maxRunning`) and the FIFO queue of `.queue` requests.
struct ContinuedProcessing {
    let rules: ContinuedProcessingRules
    var running: [ContinuedProcessingEntry] = []
    var queue: [ContinuedProcessingEntry] = []
    var nextTime = SimTime.farFuture
    /// Jobs submitted per app (the job number).
    var submitted: [UInt64]
    /// Per app: the user's start draw (keyed by session start), cancel
    /// draw (by job number); the work's draws.
    let startPrefixes: [UInt64]
    let cancelPrefixes: [UInt64]
    let draws: PlannedRunDraws

    /// Nil unless some app's user starts jobs.
    init?(models: [AppModel], rules: ContinuedProcessingRules, random: DeviceRandom) {
        guard models.contains(where: { ($0.continuedProcessing?.probability ?? 0) > 0 }) else { return nil }
        self.rules = rules
        submitted = Array(repeating: 0, count: models.count)
        let n = UInt64(models.count)
        // Two purposes, each split into sub-streams by the high word of the
        // app key, so that no two decisions share draws.
        let user = RandomPurpose.continuedProcessingUser.rawValue
        let work = RandomPurpose.continuedProcessingWork.rawValue
        startPrefixes = (0..<n).map { random.prefix(user, $0) }
        cancelPrefixes = (0..<n).map { random.prefix(user, $0 | (1 << 32)) }
        draws = PlannedRunDraws(apps: models.count, failure: { random.prefix(work, $0) },
                                latency: { random.prefix(work, $0 | (1 << 32)) })
    }

    mutating func recomputeNextTime() {
        nextTime = running.reduce(SimTime.farFuture) { min($0, $1.nextTime) }
    }

    /// The index of the running job with the least progress at `t` (ties:
    /// the one submitted last, then the higher app index; assumption).
    func leastProgress(at t: SimTime) -> Int? {
        guard !running.isEmpty else { return nil }
        var best = 0
        for i in 1..<running.count {
            let (p, q) = (running[i].progress(at: t), running[best].progress(at: t))
            if p < q || (p == q && (running[i].submitted, running[i].app) > (running[best].submitted, running[best].app)) {
                best = i
            }
        }
        return best
    }
}

/// Per-user continued-processing counts and energy (`UserMetrics.continuedProcessing`).
public enum ContinuedProcessingMetric: MetricGroup {
    public enum Count: Int, CaseIterable, Sendable {
        case requested, started, queued, failedToStart, droppedForceQuit, completed, failed, cancelledByUser
        case expiredPressure
    }
    /// Energy of the runs (promotion, active, CPU; no wake, tails
    /// excluded) and of those that did not complete, joules; the time from
    /// submission to start of the started jobs, seconds.
    public enum Sum: Int, CaseIterable, Sendable { case energyJoules, wastedJoules, queueWaitSeconds }
}
public typealias ContinuedProcessingMetrics = MetricCounters<ContinuedProcessingMetric>
