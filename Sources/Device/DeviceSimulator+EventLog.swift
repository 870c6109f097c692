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
