/// As ``simulateDevice(trace:configuration:policy:randomKey:memo:)``, also
/// returning the per-app metrics (``AppMetricsRecorder``, for `apps.csv`)
/// and, with `keepingEvents`, the event log in the recorder's `log`. A
/// concrete entry point: the generic ``simulateDevice(trace:configuration:policy:randomKey:memo:sink:)``
/// is specialised for the recorder here, in its own module. Same `UserMetrics` as
/// without it.
public func simulateDeviceWithAppMetrics(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                         policy: any SchedulingPolicy, randomKey: UInt64, memo: inout TaskDrawMemo,
                                         keepingEvents: Bool = false) -> (UserMetrics, AppMetricsRecorder) {
    simulateDevice(trace: trace, configuration: configuration, policy: policy, randomKey: randomKey, memo: &memo,
                   sink: AppMetricsRecorder(apps: trace.appNames.count, keepingEvents: keepingEvents))
}

/// As above, with a memo of its own (tests).
public func simulateDeviceWithAppMetrics(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                         policy: any SchedulingPolicy, randomKey: UInt64,
                                         keepingEvents: Bool = false) -> (UserMetrics, AppMetricsRecorder) {
    var memo = TaskDrawMemo()
    return simulateDeviceWithAppMetrics(trace: trace, configuration: configuration, policy: policy,
                                        randomKey: randomKey, memo: &memo, keepingEvents: keepingEvents)
}
