/// As ``simulateDevice(trace:configuration:policy:randomKey:memo:)``, with
/// every event handed to `sink` as it is recorded (a writer that streams
/// the log instead of holding it: `bgbench run --events`); returns the sink
/// as the run left it.
public func simulateDevice<Sink: DeviceEventSink>(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                                  policy: any SchedulingPolicy, randomKey: UInt64,
                                                  memo: inout TaskDrawMemo, sink: Sink) -> (UserMetrics, Sink) {
    var sim = DeviceSimulator(trace: trace, configuration: configuration, policy: AnyPolicy(policy),
                              randomKey: randomKey, sink: sink, memo: memo)
    memo = TaskDrawMemo()   // the simulator holds the only reference while it runs (no copy on write)
    let m = sim.run()
    memo = sim.memo
    return (m, sim.sink)
}
