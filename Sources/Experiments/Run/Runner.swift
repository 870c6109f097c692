import Device
import Foundation
import Stats
import Synchronization
import Traces

/// Runs an experiment (or one shard of it): every configuration on every
/// (replication, user) work item, in parallel, with results in a fixed order.
///
/// Determinism: a work item's result depends only on the spec, the seed,
/// the replication and the user index — each user's world comes from its own
/// random streams (`Stats.StreamKey`), each policy gets a fresh copy of its
/// prototype — so the output is the same for any thread count or sharding.
/// All configurations of a user run back to back on the same trace (common
/// random numbers), and the trace is dropped afterwards: memory does not grow
/// with the population, only with the result rows.
public struct Runner: Sendable {
    public let spec: ExperimentSpec
    /// Trace set loaded once for a `traces` world; nil for a generated one.
    let traceSet: TraceSet?
    let policies: [any SchedulingPolicy]
    /// Per configuration: the policy knows the generator's model of the user
    /// (`SchedulingPolicy.needsModelKnowledge`, the model-aware bound).
    let needsModel: [Bool]

    public init(spec: ExperimentSpec) throws {
        self.spec = spec
        if case let .traces(directory) = spec.world {
            traceSet = try TraceSetReader.read(directory: URL(fileURLWithPath: directory))
        } else {
            traceSet = nil
        }
        var made: [any SchedulingPolicy] = []
        for c in spec.configurations { made.append(try PolicyFactory.make(c.policy, path: c.path)) }
        policies = made
        needsModel = made.map { type(of: $0).needsModelKnowledge }
    }

    public var users: Int {
        switch spec.world {
        case let .generated(users, _, _): users
        case .traces: traceSet?.users.count ?? 0
        }
    }

    /// Work items: (replication, user) pairs, replication-major.
    public var itemCount: Int { users * spec.replications }

    /// The metrics in `runs.csv` order.
    public static let metrics: [MetricDescriptor] = UserMetrics.columns.map {
        MetricDescriptor(name: $0.name, unit: $0.unit, description: $0.description)
    }

    /// The result of one work item: one metrics row per configuration, and
    /// the event-log CSV lines when asked for.
    struct ItemResult: Sendable {
        var events: String
        /// Main-loop events the simulations of this item processed.
        var simulatedEvents: Int
        /// Background wakes by hour of day, per configuration.
        var wakesByHour: [[Int]]
    }

    /// Seed of replication r's world: independent streams per replication.
    func worldSeed(replication r: Int) -> UInt64 {
        StreamKey.derive(seed: spec.seed, user: UInt64(r), stream: "replication")
    }

    func trace(replication r: Int, user u: Int) -> DeviceTrace {
        switch spec.world {
        case let .generated(_, days, parameters):
            let generator = PopulationGenerator(parameters: parameters, seed: worldSeed(replication: r), days: days)
            return DeviceTrace(generator.user(u), apps: parameters.apps)
        case .traces:
            let set = traceSet!
            return DeviceTrace(set.users[u], apps: set.apps)
        }
    }

    /// Simulates every configuration on work item `item`, writing configuration
    /// c's metrics row into `rows` at `rowIndex(c)`.
    func runItem(_ item: Int, events: Bool, rows: RowBuffer, rowIndex: (Int) -> Int) -> ItemResult {
        let r = item / users, u = item % users
        var trace = trace(replication: r, user: u)
        // The model-aware bound's knowledge, only for the configurations
        // that ask for it (a generated world; nil for a trace set).
        if needsModel.contains(true), case let .generated(_, days, parameters) = spec.world {
            trace.model = PopulationGenerator(parameters: parameters, seed: worldSeed(replication: r), days: days)
                .modelKnowledge(user: u)
        }
        let key = StreamKey.derive(seed: worldSeed(replication: r), user: UInt64(u), stream: "device")
        var result = ItemResult(events: "", simulatedEvents: 0, wakesByHour: [])
        // One memo for all configurations of this user: each task's latency is drawn once.
        var memo = TaskDrawMemo()
        for (c, policy) in policies.enumerated() {
            var trace = trace
            if !needsModel[c] { trace.model = nil }
            let metrics: UserMetrics
            if events {
                let (m, log) = simulateDeviceWithLog(trace: trace, configuration: spec.device, policy: policy,
                                                     randomKey: key, memo: &memo)
                metrics = m
                let prefix = CSV.field(spec.configurations[c].label) + ",\(r),\(u),"
                for e in log.events { result.events += prefix + e.csvLine + "\n" }
            } else {
                metrics = simulateDevice(trace: trace, configuration: spec.device, policy: policy, randomKey: key,
                                         memo: &memo)
            }
            rows.store(row: rowIndex(c)) { column in UserMetrics.columns[column].value(metrics) }
            result.simulatedEvents += metrics.events
            result.wakesByHour.append(metrics.wakesByHour)
        }
        return result
    }

    /// What a run produced, before it is written.
    public struct Output: Sendable {
        public var results: ResultSet
        /// `events.csv` body (header included) when events were asked for.
        public var events: String?
        /// Work items (replication × user) run.
        public var itemCount: Int
        /// Main-loop events processed by all simulations (throughput figures).
        public var simulatedEvents: Int
        /// Background wakes by hour of day, totalled per configuration.
        public var wakesByHour: WakesByHour
    }

    /// Runs the items of `shard` on `threads` threads. Returns nil when
    /// `shouldStop` became true before the end (nothing is returned partial).
    public func run(shard: Shard = .whole, threads: Int, events: Bool = false,
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) -> Output? {
        let items = shard.items(of: itemCount)
        let total = items.count
        let labels = spec.configurations.map(\.label)
        // Rows go straight into the result table, configuration-major in item
        // order — already the output order — so nothing is copied or sorted
        // afterwards (peak memory is one table, not two).
        var values = [Double](repeating: .nan, count: labels.count * total * Self.metrics.count)
        let results = values.withUnsafeMutableBufferPointer { buffer in
            let rows = RowBuffer(buffer, width: Self.metrics.count)
            return WorkQueue.map(items, threads: threads, shouldStop: shouldStop,
                                 progress: { progress($0, total) }) { item in
                runItem(item, events: events, rows: rows) { c in c * total + (item - items.lowerBound) }
            }
        }
        guard !shouldStop(), results.allSatisfy({ $0 != nil }) else { return nil }

        var keys: [RunKey] = []
        keys.reserveCapacity(labels.count * total)
        for c in labels.indices {
            for item in items { keys.append(RunKey(configuration: c, replication: item / users, user: item % users)) }
        }
        let set = ResultSet(configurations: labels, metrics: Self.metrics, keys: keys, values: values)
        var log: String? = nil
        if events {
            log = CSV.line(["configuration", "replication", "user"] + DeviceEvent.columns.map(\.name))
                + results.map { $0!.events }.joined()
        }
        var wakes = WakesByHour(configurations: spec.configurations.map(\.label))
        for item in results {
            for (c, hours) in item!.wakesByHour.enumerated() { wakes.add(configuration: c, hours) }
        }
        return Output(results: set, events: log, itemCount: total,
                      simulatedEvents: results.reduce(0) { $0 + $1!.simulatedEvents }, wakesByHour: wakes)
    }
}

/// The result table seen by the worker threads: each work item writes only
/// its own rows (disjoint ranges), and the table is read only after every
/// worker has joined, which is why the unchecked `Sendable` is sound.
struct RowBuffer: @unchecked Sendable {
    private let base: UnsafeMutableBufferPointer<Double>
    private let width: Int

    init(_ base: UnsafeMutableBufferPointer<Double>, width: Int) {
        self.base = base
        self.width = width
    }

    func store(row: Int, _ value: (Int) -> Double) {
        for column in 0..<width { base[row * width + column] = value(column) }
    }
}
