import Foundation
import SimCore

/// The background task worker: runs one task at a time, in the order the
/// policy gave, within the OS's budgets.
///
/// Decides: which queued task is next (`runQueue`, first in, first out),
/// the running task's budget (`budget(for:)`: rule 3) and so when it ends
/// at the latest (`taskEnd`), each run's server latency (`serverLatency`,
/// a draw keyed by app, kind and run number, kept in `memo`).
///
/// Raises: the loop's task end event (the earlier of the task's natural end
/// and its budget). Its handler (`DeviceSimulator.finishRunningTask`,
/// DeviceSimulator+Tasks.swift) settles energy and outcome, tells the
/// policy, lets the app resubmit and starts the next task; starting a task
/// (`DeviceSimulator.start`) draws its failure and transfer, which touch
/// the radio, the app state and the metrics: wiring too.
///
/// Owns: the run queue, the running task, the per-slot tables that never
/// change during a run (the slots' work models, draw prefixes and transfer
/// shapes) and the latency memo. Submissions, the pending list and its
/// limits are the scheduler's (``BackgroundTaskScheduler``).
struct TaskWorker {
    let refreshBudget: SimDuration
    let processingBudget: SimDuration
    /// Requests the policy let through, waiting for the running task to end.
    var runQueue: [TaskRequest] = []
    /// The running task, if any (`isRunning`). Why not a `RunningTask?`:
    /// clearing the optional at every task end zeroes its ~100 bytes, and
    /// taking the task out copies them.
    var running = RunningTask.idle
    private(set) var isRunning = false
    /// When the running task ends at the latest (`.farFuture`: none runs).
    private(set) var taskEnd: SimTime = .farFuture

    /// Per task slot (app·3 + kind), `random.prefix(purpose, slot)` for the
    /// failure draw (at 2·slot) and the server-latency draw (at 2·slot + 1).
    /// Why: two of a draw's three mixing rounds depend only on the purpose
    /// and the slot, and every task start makes both draws; the prefixes
    /// depend only on the device key, so they are computed once per run.
    let drawPrefixes: [UInt64]
    /// Per task slot and network (slot·3 + network), the shape of the
    /// slot's transfer on that network's radio (`RadioModel.shape`). Why:
    /// its two divisions and the α energy depend only on the app's work
    /// model and the radio, so they are computed once per run instead of at
    /// every task start. (Offline entries are never read.)
    let transferShapes: [RadioModel.TransferShape]
    /// Per task slot (app·3 + kind), the slot's work model: the app's
    /// `processing` work for a processing task, its `refresh` work
    /// otherwise. Read in place by `DeviceSimulator.start` (see there).
    let slotWork: [WorkModel]
    /// Server latencies already drawn for this device (see `TaskDrawMemo`).
    var memo: TaskDrawMemo

    struct RunningTask {
        var request: TaskRequest
        var start: SimTime
        var dataEnd: SimTime        // when the bytes are in (== start without network)
        var naturalEnd: SimTime
        var cpuSeconds: Double
        var fails: Bool
        var ledger: EnergyLedger    // the task's own promotion + active (+ CPU at its end); no wake, no tail
        /// The handler never calls its completion handler: the run is held
        /// until its budget (`AppModel.neverCompletesProbability`).
        var neverCompletes = false
        /// A SwiftUI handler that ignores its cancellation
        /// (`HandlerStyle.swiftUINonCooperative`): it may run past its budget.
        var ignoresCancellation = false
        /// The network its transfer uses (`.offline`: no transfer).
        var network = NetworkType.offline
        /// What made its networked run fail whatever its draws, once known:
        /// at its start, or a dead zone when it lost its connection in one
        /// (the task row's `detail`). Nil for a run without a transfer.
        var block: NetworkedRunBlock? = nil
        /// The share of its transfer's bytes that moved, once its transfer
        /// was cut short and the run went on (a held run that lost its
        /// connection); nil: computed from the time at its end.
        var transferredFraction: Double? = nil

        /// A placeholder while no task runs.
        static var idle: RunningTask {
            RunningTask(request: TaskRequest(id: RequestID(0), app: 0, identifier: 0, kind: .appRefresh,
                                             earliestBegin: SimTime(microseconds: 0),
                                             submittedAt: SimTime(microseconds: 0)),
                        start: SimTime(microseconds: 0), dataEnd: SimTime(microseconds: 0),
                        naturalEnd: SimTime(microseconds: 0), cpuSeconds: 0, fails: false, ledger: EnergyLedger())
        }

        /// The share of the transfer's bytes moved by `t`: all of them once
        /// the data is in; before, in proportion to the time run of the
        /// transfer window (start to data end), an approximation that
        /// ignores that the server's latency moves no bytes.
        func transferFraction(at t: SimTime) -> Double {
            if let f = transferredFraction { return f }
            guard t < dataEnd, dataEnd > start else { return 1 }
            return max(0, Double(t.microseconds - start.microseconds)) / Double(dataEnd.microseconds - start.microseconds)
        }
    }

    init(models: [AppModel], configuration: DeviceConfiguration, random: DeviceRandom, randomKey: UInt64,
         memo: TaskDrawMemo) {
        refreshBudget = configuration.rules.refreshBudget
        processingBudget = configuration.rules.processingBudget
        let n = models.count
        var prefixes: [UInt64] = []
        prefixes.reserveCapacity(n * 6)
        for slot in 0..<UInt64(n * 3) {
            prefixes.append(random.prefix(RandomPurpose.taskFailure.rawValue, slot))
            prefixes.append(random.prefix(RandomPurpose.serverLatency.rawValue, slot))
        }
        drawPrefixes = prefixes
        var works: [WorkModel] = []
        works.reserveCapacity(n * 3)
        for slot in 0..<(n * 3) {
            let m = models[slot / 3]
            works.append(slot % 3 == Int(TaskKind.processing.rawValue) ? m.processing : m.refresh)
        }
        slotWork = works
        var shapes: [RadioModel.TransferShape] = []
        shapes.reserveCapacity(n * 9)
        for work in works {
            for net in [NetworkType.offline, .wifi, .cellular] {
                precondition(Int(net.rawValue) == shapes.count % 3, "NetworkType raw values are 0, 1, 2")
                shapes.append(RadioModel.shape(bytesUp: work.bytesUp, bytesDown: work.bytesDown,
                                               on: configuration.energy.radio(net)))
            }
        }
        transferShapes = shapes
        let signatures = works.map {
            TaskDrawMemo.Signature(medianMicros: $0.serverLatency.microseconds, sigma: $0.serverLatencySigma)
        }
        var memo = memo
        memo.prepare(key: randomKey, signatures: signatures)
        self.memo = memo
    }

    /// The budget of a task of this kind (rule 3).
    @inline(__always)
    func budget(for kind: TaskKind) -> SimDuration { kind == .processing ? processingBudget : refreshBudget }

    /// Takes the first queued request out of the queue (not empty). Most
    /// batches are one task: `removeLast` then moves nothing (`removeFirst`
    /// calls `memmove` even for an empty rest).
    @inline(__always)
    mutating func takeNext() -> TaskRequest {
        runQueue.count == 1 ? runQueue.removeLast() : runQueue.removeFirst()
    }

    /// The task in `running` has started; it ends at `end` at the latest.
    @inline(__always)
    mutating func started(endingAt end: SimTime) {
        isRunning = true
        taskEnd = end
    }

    /// The running task has ended (or been censored).
    @inline(__always)
    mutating func stopped() {
        isRunning = false
        taskEnd = .farFuture
    }

    /// This run's server latency: the median `serverLatency` times
    /// exp(σ·Z), Z standard normal (inverse normal CDF of one uniform)
    /// keyed like the failure draw (app, kind, run number): the same task
    /// has the same latency under every policy (common random numbers).
    /// Read from `memo` when an earlier configuration drew it.
    @inline(__always)
    mutating func serverLatency(slot: Int, run n: UInt64) -> SimDuration {
        guard slotWork[slot].serverLatencySigma > 0 else { return slotWork[slot].serverLatency }
        let known = memo.latencyMicros[slot].count
        if n < UInt64(known) { return SimDuration(microseconds: memo.latencyMicros[slot][Int(n)]) }
        let median = slotWork[slot].serverLatency, sigma = slotWork[slot].serverLatencySigma
        let prefix = drawPrefixes[2 &* slot &+ 1]
        if n == UInt64(known) {
            // The slot's next runs: drawn ahead and kept together (the values
            // are those the runs would draw; a memo entry is a pure function
            // of the run, so drawing early changes nothing but the cost).
            Self.drawAhead(&memo.latencyMicros[slot], median: median, sigma: sigma, prefix: prefix, from: n)
            return SimDuration(microseconds: memo.latencyMicros[slot][Int(n)])
        }
        return Self.drawServerLatency(median: median, sigma: sigma, prefix: prefix, run: n)
    }

    /// How many runs' latencies a memo miss draws (the missed run and the
    /// next ones). Why: keeping one value per miss pays the uniqueness
    /// checks of both memo arrays and the registers saved around them in
    /// `start` for every latency; drawing a few for runs that never happen
    /// (at most 7 per slot and user) is cheaper.
    static var latencyDrawAhead: UInt64 { 8 }

    /// Appends the latencies of runs `n ..< n + latencyDrawAhead` to `runs`
    /// (the memo's runs of one slot, which hold runs `0 ..< n`).
    @inline(never)
    static func drawAhead(_ runs: inout [Int64], median: SimDuration, sigma: Double, prefix: UInt64, from n: UInt64) {
        var m = n
        let end = n &+ latencyDrawAhead   // run numbers are task counts: no overflow
        while m < end {
            runs.append(drawServerLatency(median: median, sigma: sigma, prefix: prefix, run: m).microseconds)
            m &+= 1
        }
    }

    /// `serverLatency` drawn (no memo), from the slot's draw prefix
    /// (`drawPrefixes[2·slot + 1]`). Static, taking only the two fields it
    /// reads: a method on the worker or the simulator could make Swift copy
    /// it before the call (Docs/Performance.md).
    static func drawServerLatency(median: SimDuration, sigma: Double, prefix: UInt64, run n: UInt64) -> SimDuration {
        // `random.uniform(RandomPurpose.serverLatency.rawValue, UInt64(slot), n)`.
        let u = DeviceRandom.uniform(prefix: prefix, n)
        let z = standardNormalQuantile(u)
        let micros = min(Double(median.microseconds) * Foundation.exp(sigma * z), 8.64e10)
        return SimDuration(microseconds: Int64(micros + 0.5))   // ≥ 0: rounds half up without libm
    }
}

/// The standard normal quantile Φ⁻¹(p) for p in [0, 1) (0 is moved to
/// 2⁻⁵⁴). Acklam's rational approximation (relative error < 1.2e-9): no
/// libm call in the central 95 % (one `log` and `sqrt` in the tails), which
/// keeps a latency draw per task cheap (Box–Muller needs a log, a cos and a
/// sqrt per draw).
@inline(__always)
func standardNormalQuantile(_ p0: Double) -> Double {
    let p = p0 > 0 ? p0 : 0x1.0p-54
    let pLow = 0.02425
    if p < pLow || p > 1 - pLow {
        let q = (-2 * Foundation.log(p < pLow ? p : 1 - p)).squareRoot()
        var x = (((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
            - 2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
        x /= ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
            + 3.754408661907416e+00) * q + 1)
        return p < pLow ? x : -x
    }
    let q = p - 0.5
    let r = q * q
    let num = (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
        + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
    let den = ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
        + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1
    return num / den
}
