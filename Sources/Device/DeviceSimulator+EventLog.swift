import SimCore

// The event log: rows of events.csv that are not a single handler's
// (compiled away when `Sink.isEnabled` is false; the sink is the
// simulator's generic parameter, EventLog.swift).
extension DeviceSimulator {
    mutating func logState(_ detail: String) {
        var e = DeviceEvent(kind: .state, time: now, device: state)
        e.detail = detail
        sink.record(e)
    }

    mutating func logTail(_ joules: Double) {
        var e = DeviceEvent(kind: .tail, time: now, device: state)
        e.energy.tail = joules
        sink.record(e)
    }

    /// The task row of the run in `worker.running`, ended now with
    /// `outcome` (nil: censored at the horizon), its energy `ledger`
    /// (CPU included), whether its fetch brought new data, and `detail`.
    /// The one place a task row is built, at a task's end and at the horizon.
    mutating func logTask(outcome: TaskOutcome?, newData: Bool?, energy ledger: EnergyLedger, detail: String) {
        let run = worker.running
        var e = DeviceEvent(kind: .task, time: now, device: state)
        e.app = run.request.app; e.taskKind = run.request.kind; e.requestID = run.request.id
        e.requestedAt = run.request.submittedAt; e.earliestBegin = run.request.earliestBegin
        e.start = run.start; e.end = now; e.outcome = outcome; e.newData = newData
        e.energy = ledger
        e.detail = detail
        sink.record(e)
    }

    /// Content updates are exogenous: logged up front, in time order per app.
    mutating func logUpdates() {
        for (a, updates) in trace.contentUpdates.enumerated() {
            for u in updates where u < trace.horizon {
                var e = DeviceEvent(kind: .update, time: u, device: state)
                e.app = Int32(a)
                sink.record(e)
            }
        }
    }
}
