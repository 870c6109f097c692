import Device
import Foundation
import Policies
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
/// with the population, only with the result rows. A trace-set world is read
/// user by user as the items are taken (`TraceFeed`), so it holds at most one
/// user's trace per thread, plus the set's header.
public struct Runner: Sendable {
    public let spec: ExperimentSpec
    /// The trace set's apps, horizon and user list for a `traces` world
    /// (its users' rows are read during `run`); nil for a generated one.
    public let traceHeader: TraceSetHeader?
    /// Fills the streams a `traces` world synthesises, per user and
    /// replication (nil when it synthesises none).
    let synthesiser: StreamSynthesiser?
    let policies: [any SchedulingPolicy]
    /// What the policies hold outside the simulation (the `external`
    /// policy's decision processes): watched, checked and shut down by `run`.
    let resources: [any PolicyResource]
    /// Per configuration: the policy knows the generator's model of the user
    /// (`PolicyTraits.needsModelKnowledge`, the model-aware bound).
    let needsModel: [Bool]
    /// runs.csv's columns (``columns(for:)``).
    let columns: [UserMetrics.Column]

    public init(spec: ExperimentSpec) throws {
        self.spec = spec
        columns = Self.columns(for: spec)
        if case let .traces(directory) = spec.world {
            let header: TraceSetHeader
            do { header = try TraceSetHeader.read(directory: URL(fileURLWithPath: directory)) } catch let e as TraceFormatError {
                throw TraceInputError(directory: directory, error: e)
            }
            try TraceSetRanges.check(header, directory: directory)
            try TraceSynthesisSpec.checkCovers(header, synthesis: spec.traceSynthesis, file: spec.file)
            try TraceSynthesisSpec.checkMeasuredBattery(header, spec: spec)
            traceHeader = header
            synthesiser = spec.traceSynthesis.map {
                StreamSynthesiser(streams: Set($0.streams), parameters: $0.parameters, header: header)
            }
        } else {
            traceHeader = nil
            synthesiser = nil
        }
        var made: [any SchedulingPolicy] = []
        var owned: [any PolicyResource] = []
        for c in spec.configurations {
            let m = try PolicyFactory.makeOwningResources(c.policy, path: c.path, registry: spec.registry)
            made.append(m.policy)
            owned += m.resources
        }
        policies = made
        resources = owned
        needsModel = made.map { type(of: $0).traits.needsModelKnowledge }
    }

    /// The first failure of a policy's outside resource (a decision process
    /// that crashed, hung or answered nonsense): the run stopped and wrote nothing.
    public var policyFailure: (any Error)? {
        for r in resources { if let f = r.failure { return f } }
        return nil
    }

    public var users: Int {
        switch spec.world {
        case let .generated(users, _, _): users
        case .traces: traceHeader?.profiles.count ?? 0
        }
    }

    /// The id of user position `u` in the outputs: the trace set's own user
    /// id (`users.csv`), which need not be 0, 1, 2, ...; for a generated
    /// world the position itself.
    public func userID(_ u: Int) -> Int {
        traceHeader?.profiles[u].index ?? u
    }

    /// Work items: (replication, user) pairs, replication-major.
    public var itemCount: Int { users * spec.replications }

    /// The metrics in `runs.csv` order of a suite without an Android device
    /// (``metrics(for:)`` gives any suite's).
    public static let metrics: [MetricDescriptor] = UserMetrics.columns.map {
        MetricDescriptor(name: $0.name, unit: $0.unit, description: $0.description)
    }

    /// The result of one work item: one metrics row per configuration (its
    /// event-log lines go to the `events` callback of ``runItem``).
    struct ItemResult: Sendable {
        /// The `apps.csv` rows when asked for (``AppsCSV``).
        var apps: String = ""
        /// Main-loop events the simulations of this item processed.
        var simulatedEvents: Int
        /// Background wakes by hour of day, per configuration.
        var wakesByHour: [[Int]]
    }

    /// Seed of replication r's world: independent streams per replication.
    func worldSeed(replication r: Int) -> UInt64 {
        StreamKey.derive(seed: spec.seed, user: UInt64(r), stream: "replication")
    }

    /// The device trace of user `u` in replication `r`: generated, or for a
    /// trace-set world the user's trace as read (`read`), its synthesised
    /// streams drawn.
    func trace(replication r: Int, user u: Int, read: UserTrace?) -> DeviceTrace {
        switch spec.world {
        case let .generated(_, days, parameters):
            let generator = PopulationGenerator(parameters: parameters, seed: worldSeed(replication: r), days: days)
            return DeviceTrace(generator.user(u), apps: parameters.apps)
        case .traces:
            let read = read!
            // Synthesised streams are drawn from the replication's world
            // seed and the user's id, as a generated world draws them.
            let user = synthesiser.map { $0.complete(read, seed: worldSeed(replication: r)) } ?? read
            return DeviceTrace(user, apps: traceHeader!.apps, measuredBattery: spec.measuredBattery)
        }
    }

    /// Simulates every configuration on work item `item` (for a trace-set
    /// world, on `read`, its user's trace), writing configuration c's
    /// metrics row into `rows` at `rowIndex(c)`. With `events`, configuration
    /// c's event-log lines are handed to it in pieces as the simulation
    /// records them (`events(c, text, last)`; with `apps`, whole after
    /// the run), ending with `last` true; one empty last piece when
    /// `logsEvents` leaves this user out.
    func runItem(_ item: Int, read: UserTrace?, events: ((Int, String, Bool) -> Void)? = nil,
                 logsEvents: (Int) -> Bool = { _ in true }, apps: Bool = false, rows: RowBuffer,
                 rowIndex: (Int) -> Int) -> ItemResult {
        let r = item / users, u = item % users
        var trace = trace(replication: r, user: u, read: read)
        // The model-aware bound's knowledge, only for the configurations
        // that ask for it (a generated world; nil for a trace set).
        if needsModel.contains(true), case let .generated(_, days, parameters) = spec.world {
            trace.model = PopulationGenerator(parameters: parameters, seed: worldSeed(replication: r), days: days)
                .modelKnowledge(user: u)
        }
        let key = StreamKey.derive(seed: worldSeed(replication: r), user: UInt64(u), stream: "device")
        var result = ItemResult(simulatedEvents: 0, wakesByHour: [])
        let logging = events != nil && logsEvents(userID(u))
        // One memo for all configurations of this user on one device
        // variant: each task's latency is drawn once per variant.
        var memos: [Int: TaskDrawMemo] = [:]
        for (c, policy) in policies.enumerated() {
            let variant = spec.configurations[c].deviceVariant ?? -1
            let deviceConfiguration = spec.device(for: spec.configurations[c])
            var memo = memos.removeValue(forKey: variant) ?? TaskDrawMemo()
            defer { memos[variant] = memo }
            var trace = trace
            if !needsModel[c] { trace.model = nil }
            let metrics: UserMetrics
            let device = SimulatedDevice(configuration: spec.configurations[c].label, replication: r, user: u)
            if apps {
                // Per-app output: the recorder sink, keeping the log too with --events.
                let (m, recorder) = SimulatedDevice.$current.withValue(device) {
                    simulateDeviceWithAppMetrics(trace: trace, configuration: deviceConfiguration, policy: policy,
                                                 randomKey: key, memo: &memo, keepingEvents: logging)
                }
                metrics = m
                let prefix = CSV.field(spec.configurations[c].label) + ",\(r),\(userID(u)),"
                events?(c, recorder.log.map { Self.eventLines($0, prefix: prefix) } ?? "", true)
                result.apps += AppsCSV.rows(prefix: prefix, appNames: trace.appNames, recorder)
            } else if logging, let events {
                // Streamed as the simulation records it, in pieces: one
                // configuration's log is never held whole.
                let sink = EventLineStream(prefix: CSV.field(spec.configurations[c].label) + ",\(r),\(userID(u)),") {
                    events(c, $0, false)
                }
                let (m, rest) = SimulatedDevice.$current.withValue(device) {
                    simulateDevice(trace: trace, configuration: deviceConfiguration, policy: policy,
                                   randomKey: key, memo: &memo, sink: sink)
                }
                metrics = m
                events(c, rest.buffer, true)
            } else {
                metrics = SimulatedDevice.$current.withValue(device) {
                    simulateDevice(trace: trace, configuration: deviceConfiguration, policy: policy, randomKey: key, memo: &memo)
                }
                events?(c, "", true)
            }
            rows.store(row: rowIndex(c)) { column in columns[column].value(metrics) }
            result.simulatedEvents += metrics.events
            result.wakesByHour.append(metrics.wakesByHour)
        }
        return result
    }

    /// An event sink that formats each event as its `events.csv` line and
    /// hands the lines on in pieces of about `pieceBytes` (what is left at
    /// the end of the run stays in `buffer`).
    struct EventLineStream: DeviceEventSink {
        let prefix: String
        let emit: (String) -> Void
        var buffer = ""
        static let pieceBytes = 1 << 18

        init(prefix: String, emit: @escaping (String) -> Void) {
            self.prefix = prefix
            self.emit = emit
        }

        static var isEnabled: Bool { true }

        mutating func record(_ event: DeviceEvent) {
            buffer += prefix
            buffer += event.csvLine
            buffer += "\n"
            if buffer.utf8.count >= Self.pieceBytes {
                emit(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// One configuration's event log as `events.csv` lines.
    static func eventLines(_ log: EventRecorder, prefix: String) -> String {
        var text = ""
        for e in log.events { text += prefix + e.csvLine + "\n" }
        return text
    }

    /// What a run produced, before it is written.
    public struct Output: Sendable {
        public var results: ResultSet
        /// Work items (replication × user) run.
        public var itemCount: Int
        /// Main-loop events processed by all simulations (throughput figures).
        public var simulatedEvents: Int
        /// Background wakes by hour of day, totalled per configuration.
        public var wakesByHour: WakesByHour
        /// For a trace-set world, the most users' traces read and not yet
        /// simulated at any moment (at most the thread count); 0 otherwise.
        public var tracesHeldAtOnce: Int = 0
        /// Rows and SHA-256 of `events.csv` and `apps.csv` as written (with `digesting`).
        public var eventsDigest: FileDigest?
        public var appsDigest: FileDigest?
    }

    /// The header of `events.csv`.
    public static var eventsHeader: String {
        CSV.line(["configuration", "replication", "user"] + DeviceEvent.columns.map(\.name))
    }

    /// Runs the items of `shard` on `threads` threads. Returns nil when
    /// `shouldStop` became true before the end, or a policy failed
    /// (``policyFailure``): nothing is returned partial. The policies'
    /// outside resources are shut down on every path.
    ///
    /// With `eventsPath`, the event log is streamed to that file
    /// configuration by configuration as each is simulated, in (item,
    /// configuration) order: a log that is not next in order waits in a
    /// spill file beside it (``OrderedChunkWriter``), so memory grows
    /// neither with the number of users, nor configurations, nor threads,
    /// and the bytes do not depend on the thread count. `eventUsers` limits
    /// the log to those user ids (their rows are the same bytes as in a
    /// log of every user). `appsPath`: `apps.csv` (per-app metrics),
    /// streamed item by item. `digesting`: return each streamed file's
    /// ``FileDigest`` (a shard records them).
    ///
    /// A trace-set world's rows are read as the items are taken, so a bad row
    /// (anywhere in the set: the rest of each pass is read to its end) is
    /// thrown from here as a ``TraceInputError``, the events and apps writers
    /// cancelled (the caller removes its staging directory); nothing is
    /// returned partial.
    public func run(shard: Shard = .whole, threads: Int, eventsPath: String? = nil, eventUsers: UserSelection? = nil,
                    appsPath: String? = nil, digesting: Bool = false,
                    shouldStop userStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> Output? {
        let resources = self.resources
        for r in resources { r.watch(stop: userStop) }
        defer { for r in resources { r.shutDown() } }
        let shouldStop: @Sendable () -> Bool
        if resources.isEmpty {
            shouldStop = userStop
        } else {
            shouldStop = { userStop() || resources.contains { r in r.failure != nil } }
        }
        let items = shard.items(of: itemCount)
        let total = items.count
        let labels = spec.configurations.map(\.label)
        // events.csv's chunks are numbered item × configurations + c.
        let configurations = max(1, labels.count)
        let writer = try eventsPath.map { p throws(OutputError) in
            try OrderedChunkWriter(path: p, first: items.lowerBound * configurations, window: 2 * max(1, threads) + 2,
                                   chunksPerItem: configurations, header: Self.eventsHeader, digesting: digesting,
                                   spillPath: p + ".spill")
        }
        let appsWriter = try appsPath.map { p throws(OutputError) in
            try OrderedChunkWriter(path: p, first: items.lowerBound, window: 2 * max(1, threads) + 2,
                                   header: AppsCSV.header, digesting: digesting)
        }
        // Rows go straight into the result table, configuration-major in item
        // order — already the output order — so nothing is copied or sorted
        // afterwards (peak memory is one table, not two).
        var values = [Double](repeating: .nan, count: labels.count * total * columns.count)
        let feed = traceHeader.map { TraceFeed(directory: URL(fileURLWithPath: traceDirectory), header: $0) }
        let results: [ItemResult?]
        do {
            results = try values.withUnsafeMutableBufferPointer { buffer in
                let rows = RowBuffer(buffer, width: columns.count)
                let work: @Sendable (Int, UserTrace?) -> ItemResult = { item, read in
                    let events = writer.map { w in
                        { (c: Int, text: String, last: Bool) in w.submit(item * configurations + c, text, final: last) }
                    }
                    var result = runItem(item, read: read, events: events,
                                         logsEvents: { eventUsers?.contains($0) ?? true }, apps: appsWriter != nil,
                                         rows: rows) { c in
                        c * total + (item - items.lowerBound)
                    }
                    // After events.csv's chunks: the writer of the next apps item
                    // has submitted its events chunks, so it never waits there.
                    appsWriter?.submit(item, result.apps)
                    result.apps = ""
                    return result
                }
                guard let feed else {
                    return WorkQueue.map(items, threads: threads, shouldStop: shouldStop,
                                         progress: { progress($0, total) }) { work($0, nil) }
                }
                return try WorkQueue.map(items, threads: threads, shouldStop: shouldStop,
                                         progress: { progress($0, total) },
                                         input: { try feed.trace(item: $0) }) { item, read in
                    defer { feed.release() }
                    return work(item, read)
                }
            }
            if !shouldStop() { try feed?.finish() }
        } catch {
            writer?.cancel()
            appsWriter?.cancel()
            if let e = error as? TraceFormatError { throw TraceInputError(directory: traceDirectory, error: e) }
            throw error
        }
        guard !shouldStop(), results.allSatisfy({ $0 != nil }) else {
            writer?.cancel()
            appsWriter?.cancel()
            return nil
        }
        let eventsDigest = try writer?.finish()
        let appsDigest = try appsWriter?.finish()

        var keys: [RunKey] = []
        keys.reserveCapacity(labels.count * total)
        for c in labels.indices {
            for item in items { keys.append(RunKey(configuration: c, replication: item / users, user: userID(item % users))) }
        }
        let set = ResultSet(configurations: labels, metrics: Self.metrics(for: spec), keys: keys, values: values)
        var wakes = WakesByHour(configurations: spec.configurations.map(\.label))
        for item in results {
            for (c, hours) in item!.wakesByHour.enumerated() { wakes.add(configuration: c, hours) }
        }
        return Output(results: set, itemCount: total,
                      simulatedEvents: results.reduce(0) { $0 + $1!.simulatedEvents }, wakesByHour: wakes,
                      tracesHeldAtOnce: feed?.mostHeldAtOnce ?? 0, eventsDigest: eventsDigest, appsDigest: appsDigest)
    }

    /// The trace set's directory ("" for a generated world).
    var traceDirectory: String {
        if case let .traces(directory) = spec.world { return directory }
        return ""
    }

    /// Reads and checks every user of the trace set with the stream and the
    /// rules `run` reads them with, simulating nothing (what `validate` does
    /// for a trace-set world); nothing for a generated world.
    public func checkTraceSet() throws {
        guard let traceHeader else { return }
        do {
            let stream = try TraceSetStream(directory: URL(fileURLWithPath: traceDirectory), header: traceHeader)
            while try stream.next() != nil {}
        } catch let e as TraceFormatError {
            throw TraceInputError(directory: traceDirectory, error: e)
        }
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

/// A trace-set format error with the directory in front, so the message
/// names the whole path (`data/set/sessions.csv:12:3: ...`).
public struct TraceInputError: Error, CustomStringConvertible {
    public let directory: String
    public let error: TraceFormatError
    public var description: String { "\((directory as NSString).appendingPathComponent(error.description))" }
}
