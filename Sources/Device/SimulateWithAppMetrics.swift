/// As ``simulateDevice(trace:configuration:policy:randomKey:memo:)``, also
/// returning the per-app metrics (``AppMetricsRecorder``, for `apps.csv`)
/// and, with `keepingEvents`, the event log in the recorder's `log`. A
/// concrete entry point, not a generic one, so that the simulator is
/// specialised for the recorder in this module. Same `UserMetrics` as
/// without it.
public func simulateDeviceWithAppMetrics(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                         policy: any SchedulingPolicy, randomKey: UInt64, memo: inout TaskDrawMemo,
                                         keepingEvents: Bool = false) -> (UserMetrics, AppMetricsRecorder) {
    let recorder = AppMetricsRecorder(apps: trace.appNames.count, keepingEvents: keepingEvents)
    var sim = DeviceSimulator(trace: trace, configuration: configuration, policy: AnyPolicy(policy),
                              randomKey: randomKey, sink: recorder, memo: memo)
    memo = TaskDrawMemo()   // the simulator holds the only reference while it runs (no copy on write)
    let m = sim.run()
    memo = sim.memo
    return (m, sim.sink)
}

/// As above, with a memo of its own (tests).
public func simulateDeviceWithAppMetrics(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                         policy: any SchedulingPolicy, randomKey: UInt64,
                                         keepingEvents: Bool = false) -> (UserMetrics, AppMetricsRecorder) {
    var memo = TaskDrawMemo()
    return simulateDeviceWithAppMetrics(trace: trace, configuration: configuration, policy: policy,
                                        randomKey: randomKey, memo: &memo, keepingEvents: keepingEvents)
}
