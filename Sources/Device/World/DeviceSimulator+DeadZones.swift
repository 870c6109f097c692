import SimCore

// The dead zones' events (`DeadZones`, registered with the loop): a zone's
// start cuts a transfer in flight, its end is only logged.
extension DeviceSimulator {
    /// The dead-zone boundary due now (`mechanisms.deadZones.nextEventTime`).
    mutating func deadZoneBoundary() {
        guard let starting = mechanisms.deadZones?.nextIsStart else { return }
        mechanisms.deadZones!.advance()
        if Sink.isEnabled { sink.record(DeviceEvent(kind: starting ? .deadZoneStart : .deadZoneEnd, time: now, device: state)) }
        guard starting, state.network.isOnline, worker.isRunning, now < worker.running.dataEnd,
              worker.running.network != .offline,
              mechanisms.deadZones?.isDead(at: worker.running.start) == false else { return }
        // A transfer in flight when a zone starts (one that started in a
        // zone is already waiting for its timeout): it fails now, by the
        // rule of a lost connection (`applyNetwork`): the energy so far is
        // wasted, its handler sees a failure. A simplification: a real
        // stalled request would wait for its timeout with the radio up.
        metrics.user.deadZoneRuns &+= 1
        finishRunningTask(connectionLost: true)
    }
}
