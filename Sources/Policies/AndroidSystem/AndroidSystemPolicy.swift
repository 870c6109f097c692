import Device
import SimCore

/// `android-system` — a model of Android's own job scheduler, the baseline
/// of an Android study (Docs/AndroidSystemPolicy.md): every request runs as
/// soon as the platform's rules allow it (its constraints hold, its
/// period or backoff has passed, its bucket's quota and Doze let it: the
/// platform's rules, `PolicyContext.refusal(for:)`), batched as
/// JobSchedulerService batches the jobs of apps that are not in use: a
/// ready job waits until `minReadyJobs` jobs are ready or the oldest has
/// waited `maxBatchDelay`.
///
/// Sources: AOSP `JobSchedulerService.Constants`
/// (`DEFAULT_MIN_READY_NON_ACTIVE_JOBS_COUNT = 5`,
/// `DEFAULT_MAX_NON_ACTIVE_JOB_BATCH_DELAY_MS = 31 * MINUTE_IN_MILLIS`).
/// On iOS (no Android rules in the context) it applies the same batching
/// to iOS's rules.
public struct AndroidSystemPolicy: SchedulingPolicy {
    /// It keeps its own record of when each request became ready, at
    /// decision points; it reads no observation.
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: []) }

    /// Ready jobs that start a batch at once.
    public let minReadyJobs: Int
    /// The longest a ready job waits for its batch.
    public let maxBatchDelay: SimDuration
    /// When each pending request was first seen ready (ids in submission order).
    var readySince: [RequestID: SimTime] = [:]

    public init(minReadyJobs: Int = 5, maxBatchDelay: SimDuration = .minutes(31)) {
        self.minReadyJobs = minReadyJobs
        self.maxBatchDelay = maxBatchDelay
    }

    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        let now = context.now
        var ready: [RequestID] = []
        var oldest = SimTime(microseconds: .max)
        var nextBegin = SimTime(microseconds: .max)
        var seen: [RequestID: SimTime] = [:]
        for r in context.pending {
            if context.refusal(for: r) == nil {
                let since = readySince[r.id] ?? now
                seen[r.id] = since
                ready.append(r.id)
                oldest = min(oldest, since)
            } else if r.earliestBegin > now {
                nextBegin = min(nextBegin, r.earliestBegin)
            }
        }
        // A request no longer ready (a constraint stopped holding) waits
        // again from when it next is: JobScheduler's batch counts ready jobs.
        readySince = seen
        if !ready.isEmpty && (ready.count >= minReadyJobs || now - oldest >= maxBatchDelay) {
            readySince = [:]
            return PolicyDecision(run: ready, wakeAt: nextBegin == SimTime(microseconds: .max) ? nil : nextBegin)
        }
        var wake = nextBegin
        if !ready.isEmpty { wake = min(wake, oldest + maxBatchDelay) }
        return PolicyDecision(wakeAt: wake == SimTime(microseconds: .max) ? nil : wake)
    }

    /// The `android-system` entry of the standard registry.
    public static let registration = PolicyDescriptor(
        name: "android-system",
        summary: "model of Android's JobScheduler: runs work when the platform's constraints, quota and Doze allow, batching jobs of apps not in use (5 ready or 31 min) (Android baseline)",
        parameters: [
            PolicyParameter("minReadyJobs", .number, default: .number(5), range: 1...1000,
                            "ready jobs that start a batch (AOSP DEFAULT_MIN_READY_NON_ACTIVE_JOBS_COUNT = 5)"),
            PolicyParameter("maxBatchDelay", .duration, default: .string("31m"), range: 0...86_400,
                            "longest wait of a ready job for its batch (AOSP DEFAULT_MAX_NON_ACTIVE_JOB_BATCH_DELAY_MS = 31 min)"),
        ]) { p, _ in
        AndroidSystemPolicy(minReadyJobs: Int(p.number("minReadyJobs")), maxBatchDelay: p.duration("maxBatchDelay"))
    }
}
