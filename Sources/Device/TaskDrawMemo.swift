import SimCore

/// The per-task server latencies of one user's device, kept from one
/// configuration's run to the next.
///
/// Why: a task's latency is a pure function of the device key, the task
/// slot (app, kind), its run number and the slot's work model (common random
/// numbers: the same task has the same latency under every policy), but
/// drawing it (a hash, the normal quantile with its division, `exp`, a
/// rounding) is a large part of a task start (Docs/Performance.md). The runner simulates
/// every configuration of a user one after another on one thread, so it
/// hands the same memo to each: a latency is drawn once per user, by the
/// first configuration that runs that task, and read back by the others.
///
/// Safe to share only between runs of the same device key and device
/// configuration; the simulator checks both (`prepare`) and starts the memo
/// afresh otherwise, so a wrong memo costs speed, never results.
public struct TaskDrawMemo: Sendable {
    /// The device key and, per slot, the work model's (median latency µs,
    /// σ) the latencies were drawn for.
    var key: UInt64 = 0
    var models: [Signature] = []
    /// Per slot, the latency of runs 0, 1, 2, … in µs (filled in order:
    /// runs of a slot start in order).
    var latencyMicros: [[Int64]] = []

    struct Signature: Equatable {
        var medianMicros: Int64
        var sigma: Double
    }

    public init() {}

    /// Makes the memo one for `key` and `signatures`, keeping what it holds
    /// if it already was.
    mutating func prepare(key: UInt64, signatures: [Signature]) {
        guard key != self.key || signatures != models else { return }
        self.key = key
        models = signatures
        latencyMicros = Array(repeating: [], count: signatures.count)
    }
}
