import SimCore

/// How a background task's run starts, worked out before anything changes:
/// from the request, the device's state and the run's draws. The first
/// half of "work it out, then apply", as ``TaskEnd`` is for its end:
/// `DeviceSimulator.start` applies it in one place (the run counter, the
/// metrics, the resubmission, the radio's transfer, the running task, the
/// worker's timer), and nothing there decides anything again.
///
/// The rules (Docs/Semantics.md, "Background tasks"): a run fails when its
/// drawn failure says so, when it needs a network and there is none, or
/// when something blocks its networked run (``NetworkedRunBlock``: a dead
/// zone, where it waits for its request timeout and moves nothing; a
/// backend outage, after the transfer and the server's latency). A failed
/// run computes nothing. A processing run computes only what its last
/// checkpoint left. A completion-handler app that never completes holds
/// its run to its budget (`AppModel.neverCompletesProbability`); a SwiftUI
/// handler that ignores its cancellation may run on to the hard limit
/// (`DeviceConfiguration.cancellationGrace`).
///
/// The one thing not known here is when the bytes are in: the radio's
/// state decides it, so the transfer (``transfer``) is the radio's to carry
/// out, and the run's times follow from its end (``naturalEnd(dataEnd:)``,
/// ``end(naturalEnd:)``).
struct TaskStart {
    /// What the run asks of the radio: its transfer's shape on the network
    /// in use and how long it waits for the server (a dead zone: the
    /// request timeout, an empty shape).
    struct Transfer {
        var shape: RadioModel.TransferShape
        var latency: SimDuration
    }

    /// The run's number in its slot (app·3 + kind): the key of its draws.
    var run: UInt64
    var fails: Bool
    /// CPU seconds the run will compute after its data is in.
    var cpuSeconds: Double
    /// The network its transfer uses (`.offline`: no transfer), and what
    /// blocks it (nil: nothing, or no transfer).
    var network: NetworkType
    var block: NetworkedRunBlock?
    /// Nil: no transfer (no network needed, or none there).
    var transfer: Transfer?
    /// The handler never completes: the run is held to its budget.
    var holds: Bool
    /// A SwiftUI handler that ignores its cancellation.
    var ignoresCancellation: Bool
    /// When the budget ends it (`now` + the kind's budget), and the hard
    /// limit of a handler that ignores its cancellation.
    var deadline: SimTime
    var hardLimit: SimTime

    /// Works out the start at `now` of a run of `work` (the slot's work
    /// model) numbered `run`, on `network`. The draws and the blocks are
    /// asked for only when they matter (the closures), as the rules say.
    @inline(__always)
    init(kind: TaskKind, run n: UInt64, at now: SimTime, network: NetworkType,
         failureDraw: Double, failureProbability: Double, cpuSeconds: Double, usesNetwork: Bool,
         processingProgress: Double, budget: SimDuration, cancellationGrace: SimDuration,
         handlerStyle: HandlerStyle, neverCompletesProbability neverP: Double,
         neverCompletesDraw: () -> Double,
         block: () -> NetworkedRunBlock?, deadZoneTimeout: () -> SimDuration,
         shape: () -> RadioModel.TransferShape, serverLatency: () -> SimDuration) {
        run = n
        fails = failureDraw < failureProbability
        self.network = .offline
        self.block = nil
        transfer = nil
        if usesNetwork && network.isOnline {
            self.network = network
            let b = block()
            self.block = b
            if b == .deadZone {
                // Nothing gets through: the request waits for its first
                // byte until it times out (no bytes, no server latency).
                fails = true
                transfer = Transfer(shape: RadioModel.TransferShape(upSeconds: 0, downSeconds: 0, alphaJoules: 0),
                                    latency: deadZoneTimeout())
            } else {
                if b == .backendOutage { fails = true }
                transfer = Transfer(shape: shape(), latency: serverLatency())
            }
        } else if usesNetwork {
            fails = true
        }
        var cpu = cpuSeconds
        if kind == .processing { cpu = max(0, cpu - processingProgress) }
        // Drawn only when the probability is above 0; a held run that
        // fails computes nothing, as a failed run that completes.
        holds = neverP > 0 && handlerStyle == .completionHandler && neverCompletesDraw() < neverP
        self.cpuSeconds = (holds && fails) ? 0 : cpu
        ignoresCancellation = handlerStyle == .swiftUINonCooperative
        deadline = SimTime(microseconds: now.microseconds &+ budget.microseconds)
        hardLimit = ignoresCancellation ? deadline + cancellationGrace : deadline
    }

    /// Nothing gets through a dead zone: it moves no bytes (nil: the share
    /// follows from the time at its end).
    var transferredFraction: Double? { block == .deadZone ? 0 : nil }

    /// When the run would end on its own, its data in at `dataEnd`: then
    /// for a failure (it computes nothing), after its CPU otherwise.
    @inline(__always)
    func naturalEnd(dataEnd: SimTime) -> SimTime {
        // `SimDuration.seconds(cpu)`, rounded without libm (`roundToInt64`).
        fails ? dataEnd : SimTime(microseconds: dataEnd.microseconds &+ roundToInt64(cpuSeconds * 1_000_000))
    }

    /// When the worker ends the run at the latest: a held run at its
    /// budget, otherwise its natural end or the hard limit if earlier.
    @inline(__always)
    func end(naturalEnd: SimTime) -> SimTime { holds ? deadline : min(naturalEnd, hardLimit) }
}
