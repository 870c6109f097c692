import SimCore

/// Simulates one user's device over its trace under one policy.
///
/// A discrete-event loop over a handful of cursors instead of a general
/// event queue: the exogenous streams (sessions, network, charging) are
/// already time-sorted, and the device has only three endogenous timers
/// (the running task's end, the policy's wake, the next battery threshold;
/// legacy fetches are pending requests, not timers). Each step takes the
/// earliest of these; ties go task end → network → charging → session end
/// → session start → battery → policy wake. Background energy charged
/// during a step comes off the battery at the end of that step; a
/// threshold crossed by it (or by the drain) is handled as a battery event
/// at the same time. Content updates are never
/// events: they are read by cursor at launches and fetches.
///
/// Why cursors and not SimCore's `EventQueue`: a minimum over six values
/// is cheaper than a push and a pop when the timers change several times
/// per event (the policy's wake at every decision, the battery alarm at
/// most events), as they do here with seven apps; the measurement, and
/// where the balance turns with more apps and mechanisms, is in
/// Docs/Performance.md ("The event core"). The loop never goes back in
/// time (checked under `BGBENCH_INVARIANTS`).
///
/// Generic over the policy and the event sink so that both are specialised
/// (no existential or log cost on the hot path). Start from
/// ``simulateDevice(trace:configuration:policy:randomKey:)`` with an
/// existential policy.
public struct DeviceSimulator<Policy: SchedulingPolicy, Sink: DeviceEventSink> {
    public internal(set) var policy: Policy
    public internal(set) var sink: Sink
    let trace: DeviceTrace
    let config: DeviceConfiguration
    let random: DeviceRandom

    // Per-app static data.
    let models: [AppModel]
    /// The OS rules' parameters (`config.rules`, read often).
    let rules: OSRules
    let refreshBudget: SimDuration
    let processingBudget: SimDuration
    let refreshIdentifier: Int32 = 0
    let processingIdentifier: Int32 = 1
    let future: FutureLaunches?
    /// End of the run (`trace.horizon`).
    let horizon: SimTime

    // Exogenous cursors. When one moves, its stream's next boundary is
    // recomputed (`sessionCursorMoved` and friends), not all three at every
    // event: they move at about one event in four.
    var sessionIndex = 0 { didSet { sessionCursorMoved() } }
    var inSession = false { didSet { sessionCursorMoved() } }
    var chargingIndex = 0 { didSet { chargingCursorMoved() } }
    var inCharging = false { didSet { chargingCursorMoved() } }
    let networkSegments: [DeviceTrace.Network]
    var networkIndex = 0 { didSet { networkCursorMoved() } }
    /// The next session boundary, network change and charging boundary
    /// (`.farFuture`: none), and the earliest of the three.
    var nextSessionBoundary: SimTime = .farFuture
    var nextNetworkChange: SimTime = .farFuture
    var nextChargingBoundary: SimTime = .farFuture
    var nextExogenous: SimTime = .farFuture

    // Device state.
    /// The current time. Stored in the policy's context (`ctx.now`), like
    /// `state`, and written when time advances rather than just before each
    /// policy call (see `refreshContext`). `ctx.now` is `now` at every
    /// policy call.
    public internal(set) var now: SimTime {
        get { ctx.now }
        set { ctx.now = newValue }
    }
    /// The device state. Stored in the policy's context (`ctx.device`), so
    /// a decision point does not copy it there (see `refreshContext`).
    /// `ctx.device` is the state at every policy call.
    var state: DeviceState {
        get { ctx.device }
        _modify { yield &ctx.device }
    }
    /// The scheduler's rules (registrations, limits, request numbering).
    /// Its own pending list is empty but during one of its calls
    /// (`withScheduler`): the pending requests are kept in the policy's
    /// context, `ctx.pending` (see `pending`).
    var scheduler: BackgroundTaskScheduler
    /// The pending requests, in submission order: the policy's context's
    /// own list, so that nothing is stored to the context just before a
    /// policy call copies it. The swap with the scheduler's list happens
    /// around each scheduler call (`submit`, `restore`) instead, which is
    /// not followed by a copy.
    var pending: [TaskRequest] {
        get { ctx.pending }
        _modify { yield &ctx.pending }
    }
    var radio: RadioModel
    let capacityJoules: Double
    /// Battery percent per joule, `100 / capacityJoules`: the level moves by
    /// a multiplication at every event, not a division (a long-latency
    /// instruction on the loop's critical path).
    let percentPerJoule: Double
    /// `batteryWatts`, kept up to date by `screenOrChargerChanged`.
    var batteryWattsNow = 0.0
    let chargingWatts: Double
    /// The next battery decision point (see ``BatteryAlarm``).
    var alarm: BatteryAlarm
    /// Thresholds the level crossed and the threshold logic has not yet
    /// handled (`BatteryCrossing` bits): the battery event is due now.
    var pendingCrossings: UInt8 = 0
    var energyOnBattery = 0.0       // background joules already taken off the battery
    var lowPowerSince: SimTime? = nil
    /// When the last session ended; stored in the context (`ctx.lastSessionEnd`, see `now`).
    var lastSessionEnd: SimTime? {
        get { ctx.lastSessionEnd }
        set { ctx.lastSessionEnd = newValue }
    }

    /// Stop after this many events (a guard against a policy that wakes in a
    /// busy loop; the conformance check uses it). Default: no limit.
    public var eventLimit: Int = .max
    /// Whether the run stopped at `eventLimit` before the horizon.
    public private(set) var hitEventLimit = false

    /// The observation kinds the policy reads (others are not delivered).
    var observes: ObservationKinds
    /// Consult the policy at session start: it observes launches or asks
    /// for it (``SchedulingPolicy/decidesAtSessionStart``).
    let decidesAtSessionStart: Bool
    /// Non-nil for a ``RequestPlanningPolicy``: the simulator keeps its
    /// plans and decides from them (`consultPlans`) instead of calling
    /// `decide`; observations forget the plans of this scope.
    let planScope: PlanScope?
    /// The plans kept for a planning policy, in step with `pending` (see `KeptPlans`).
    var plans: KeptPlans

    /// The policy's context, kept up to date before each policy call (see `refreshContext`).
    var ctx: PolicyContext

    // Policy timer and the task worker.
    var policyWake: SimTime = .farFuture
    var runQueue: [TaskRequest] = []
    /// The running task, if any (`isRunning`). Why not a `RunningTask?`:
    /// clearing the optional at every task end zeroes its ~100 bytes, and
    /// taking the task out copies them.
    var runningTask = RunningTask.idle
    var isRunning = false
    var taskEnd: SimTime = .farFuture

    /// Per-app bookkeeping (content cursor, last fetch, processing
    /// progress, …), run counts per task slot and wakes by hour (see
    /// `AppStateTable`: not Swift arrays, whose every write checked
    /// uniqueness).
    var appState: AppStateTable
    /// Per task slot (app·3 + kind), `random.prefix(purpose, slot)` for the
    /// failure draw (at 2·slot) and the server-latency draw (at 2·slot + 1).
    /// Why: two of a draw's three mixing rounds depend only on the purpose
    /// and the slot, and every task start makes both draws; the prefixes
    /// depend only on the device key, so they are computed once per run.
    let taskDrawPrefixes: [UInt64]
    /// Per task slot and network (slot·3 + network), the shape of the
    /// slot's transfer on that network's radio (`RadioModel.shape`). Why:
    /// its two divisions and the α energy depend only on the app's work
    /// model and the radio, so they are computed once per run instead of at
    /// every task start. (Offline entries are never read.)
    let transferShapes: [RadioModel.TransferShape]
    /// Per task slot (app·3 + kind), the slot's work model: the app's
    /// `processing` work for a processing task, its `refresh` work
    /// otherwise. Read in place by `start` (see there).
    let slotWork: [WorkModel]
    /// Server latencies already drawn for this device (see `TaskDrawMemo`);
    /// handed in by the caller and back out with `memo` after the run.
    public internal(set) var memo: TaskDrawMemo

    // Metric accumulators.
    var metrics = UserMetrics()
    var ageSum = 0.0
    var ages: [Double] = []
    var sinceRefreshSum = 0.0
    /// Sum of the delays past `earliestBegin`, µs: exact, and no division per task start.
    var delayMicros: Int64 = 0
    var tailLogged = 0.0

    // Issue 18's mechanisms (Sources/Device/Mechanisms/), nil while off.
    /// Silent push (`DeviceSimulator+SilentPush.swift`).
    var push: SilentPushComponent?
    /// `beginBackgroundTask` at session ends (`DeviceSimulator+BackgroundTask.swift`).
    var extraTime: BackgroundTaskExtension?
    /// Background URLSession (`DeviceSimulator+BackgroundTransfers.swift`).
    var transfers: BackgroundTransfers?
    /// Per app, `random.prefix(transferHanded, app)`: whether it hands a transfer at a session end.
    let transferPrefixes: [UInt64]
    /// Whether any of them is on (the loop's per-step hook).
    let mechanismsOn: Bool
    /// The mechanisms' earliest next time (`mechanismsChanged`; `.farFuture`: none).
    var mechanismNext: SimTime = .farFuture

    struct RunningTask {
        var request: TaskRequest
        var start: SimTime
        var dataEnd: SimTime        // when the bytes are in (== start without network)
        var naturalEnd: SimTime
        var cpuSeconds: Double
        var fails: Bool
        var ledger: EnergyLedger    // the task's own promotion + active (+ CPU at its end); no wake, no tail

        /// A placeholder while no task runs.
        static var idle: RunningTask {
            RunningTask(request: TaskRequest(id: RequestID(0), app: 0, identifier: 0, kind: .appRefresh,
                                             earliestBegin: SimTime(microseconds: 0),
                                             submittedAt: SimTime(microseconds: 0)),
                        start: SimTime(microseconds: 0), dataEnd: SimTime(microseconds: 0),
                        naturalEnd: SimTime(microseconds: 0), cpuSeconds: 0, fails: false, ledger: EnergyLedger())
        }
    }

    public init(trace: DeviceTrace, configuration: DeviceConfiguration, policy: Policy,
                randomKey: UInt64, sink: Sink, memo: TaskDrawMemo = TaskDrawMemo()) {
        self.trace = trace
        self.config = configuration
        self.policy = policy
        self.sink = sink
        self.random = DeviceRandom(key: randomKey)
        let n = trace.appNames.count
        // Per-user setup is on the whole-suite path (one simulator per user
        // and configuration): no String work here. With no per-app
        // overrides every app has the default model (no name lookups).
        models = configuration.apps.isEmpty
            ? Array(repeating: configuration.defaultApp, count: n)
            : trace.appNames.map { configuration.model(forApp: $0) }
        horizon = trace.horizon
        refreshBudget = configuration.rules.refreshBudget
        processingBudget = configuration.rules.processingBudget
        rules = configuration.rules
        // Identifiers are interned as their index (refresh 0, processing 1,
        // fetch 2, as submitted below); the simulator never submits or
        // cancels by name, so every app shares one identifier list instead
        // of building "\(app).refresh" and friends per user.
        var registrations: [BackgroundTaskScheduler.App] = []
        registrations.reserveCapacity(n)
        for i in 0..<n {
            // Refresh runs only if both allow it: the app model (an app that
            // does not use Background App Refresh) and the user's switch in
            // Settings (the trace's; on when the trace gives none). Either
            // one off turns it off (Docs/Semantics.md).
            let bar = (trace.backgroundAppRefreshEnabled?[i] ?? true) && models[i].backgroundAppRefreshEnabled
            registrations.append(.init(identifiers: internedIdentifiers, backgroundAppRefreshEnabled: bar))
        }
        scheduler = BackgroundTaskScheduler(apps: registrations, rules: configuration.rules)
        radio = RadioModel(parameters: configuration.energy)
        capacityJoules = (configuration.batteryCapacityWh ?? trace.batteryCapacityWh) * 3600
        percentPerJoule = 100 / capacityJoules
        alarm = BatteryAlarm(capacityJoules: capacityJoules)
        chargingWatts = trace.chargingWatts ?? configuration.chargingWatts
        networkSegments = Self.tile(trace.network, horizon: trace.horizon)
        appState = AppStateTable(appCount: n)
        // One pending request at most per app and interned identifier.
        plans = KeptPlans(capacity: n * internedIdentifiers.count)
        var prefixes: [UInt64] = []
        prefixes.reserveCapacity(n * 6)
        for slot in 0..<UInt64(n * 3) {
            prefixes.append(random.prefix(RandomPurpose.taskFailure.rawValue, slot))
            prefixes.append(random.prefix(RandomPurpose.serverLatency.rawValue, slot))
        }
        taskDrawPrefixes = prefixes
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
        ages.reserveCapacity(trace.sessions.count)
        // A boxed policy answers for the type inside the box.
        let needsFuture = (policy as? AnyPolicy)?.needsFuture ?? Policy.needsFutureKnowledge
        observes = (policy as? AnyPolicy)?.observes ?? Policy.observedKinds
        decidesAtSessionStart = observes.contains(.launch)
            || ((policy as? AnyPolicy)?.decidesAtStart ?? Policy.decidesAtSessionStart)
        planScope = (policy as? AnyPolicy).map(\.plans) ?? Policy.planScope
        if needsFuture {
            var launches = Array(repeating: [SimTime](), count: n)
            for s in trace.sessions { launches[Int(s.app)].append(s.start) }
            future = FutureLaunches(launches: launches, contentUpdates: trace.contentUpdates)
        } else {
            future = nil
        }
        var initial = DeviceState()
        initial.batteryPercent = trace.initialBatteryPercent
        initial.network = .offline
        ctx = PolicyContext(now: .zero, device: initial, pending: [], appCount: n, radioUpUntil: nil,
                            lastSessionEnd: nil, random: random, future: future, backgroundJoules: 0,
                            rules: configuration.rules)
        ctx.model = trace.model
        push = SilentPushComponent(trace: trace, models: models, rules: configuration.silentPush, random: random)
        extraTime = BackgroundTaskExtension(models: models, rules: configuration.beginBackgroundTask, random: random)
        let hands = models.contains(where: { ($0.backgroundTransfer?.probability ?? 0) > 0 })
        transfers = hands ? BackgroundTransfers(apps: n, rules: configuration.backgroundURLSession) : nil
        let deviceRandom = random
        transferPrefixes = hands ? (0..<UInt64(n)).map { deviceRandom.prefix(RandomPurpose.transferHanded.rawValue, $0) } : []
        mechanismsOn = push != nil || extraTime != nil || transfers != nil
        mechanismsChanged()
        // The lowest level so far is the level the run starts at (not 100:
        // a trace may start lower).
        metrics.minBatteryPercent = min(100, max(0, trace.initialBatteryPercent))
        // The pending requests live in the context (see `pending`).
        scheduler.swapPending(with: &ctx.pending)
        screenOrChargerChanged()
        sessionCursorMoved()
        networkCursorMoved()
        chargingCursorMoved()
    }

    /// Delivers every observation to the policy from now on, whatever its
    /// `observedKinds` (decision points stay as declared): how
    /// `PolicyConformance` checks that the declaration only saves work.
    @_spi(BuiltInPolicies)
    public mutating func deliverEveryObservation() { observes = .all }

    /// Fills gaps in the network intervals with offline so the segments tile [0, horizon).
    static func tile(_ intervals: [DeviceTrace.Network], horizon: SimTime) -> [DeviceTrace.Network] {
        var out: [DeviceTrace.Network] = []
        out.reserveCapacity(intervals.count + 2)
        var t = SimTime.zero
        for iv in intervals where iv.end > t {
            if iv.start > t { out.append(.init(start: t, end: iv.start, network: .offline)) }
            out.append(.init(start: max(t, iv.start), end: iv.end, network: iv.network))
            t = iv.end
        }
        if t < horizon { out.append(.init(start: t, end: horizon, network: .offline)) }
        return out
    }

    // MARK: - The loop

    /// Runs the whole horizon and returns the user's metrics.
    public mutating func run() -> UserMetrics {
        let horizon = trace.horizon
        // A copy of this simulator shares the table (a class): run on its own.
        if !isKnownUniquelyReferenced(&appState) { appState = appState.copy() }
        if !isKnownUniquelyReferenced(&plans) { plans = plans.copy() }
        if Sink.isEnabled { logUpdates() }
        // Time 0: the initial state, then legacy fetch arming and a first decision.
        applyNetwork(networkSegments.first?.network ?? .offline, notify: false)
        networkIndex = 0
        if let c = trace.charging.first, c.start <= .zero { chargingIndex = 0; setCharging(true, notify: false) }
        for a in 0..<models.count where models[a].usesLegacyFetch { armLegacyFetch(app: Int32(a), after: .zero) }
        if Sink.isEnabled { logState("initial") }
        scheduleBatteryAlarm()
        consultPolicy()
        settleBackgroundEnergy()

        while true {
            let tOthers = min(taskEnd, nextExogenous, policyWake, mechanismNext)
            let tBattery = pendingCrossings == 0 ? alarm.time(unlessAfter: tOthers) : now
            var t = min(tOthers, tBattery)
            if t >= horizon { t = horizon }
            #if BGBENCH_INVARIANTS
            precondition(t >= now, "simulated time went backwards: \(now) -> \(t)")
            #endif
            drainBattery(to: t)   // also moves `now` to `t`
            if t >= horizon { break }
            // `&+=`: a count of events cannot reach Int.max; no overflow test at every event.
            metrics.events &+= 1
            if metrics.events > eventLimit { hitEventLimit = true; break }
            if taskEnd == t {
                finishRunningTask(interrupted: false)
            } else if nextExogenous == t {
                if nextNetworkChange == t {
                    networkIndex += 1
                    applyNetwork(networkSegments[networkIndex].network, notify: true)
                } else if nextChargingBoundary == t {
                    chargingBoundary()
                } else if inSession {
                    endSession()
                } else {
                    startSession()
                }
            } else {
                // The alarm may have been left unresolved above (later
                // than the other events): resolve it to compare.
                alarm.resolve()
                if pendingCrossings != 0 || alarm.time == t {
                    batteryThresholdReached()
                } else if mechanismNext != t || policyWake == t {
                    // Ties: the policy's wake before a mechanism's event.
                    policyWake = .farFuture
                    consultPolicy()
                } else {
                    mechanismEvent()
                }
            }
            if mechanismsOn { mechanismsAfterStep() }
            settleBackgroundEnergy()
        }
        finish()
        return metrics
    }

    // The next boundary of one exogenous stream, recomputed from its cursor.
    mutating func sessionCursorMoved() {
        if sessionIndex < trace.sessions.count {
            let s = trace.sessions[sessionIndex]
            nextSessionBoundary = inSession ? s.end : s.start
        } else {
            nextSessionBoundary = .farFuture
        }
        nextExogenous = min(nextNetworkChange, nextChargingBoundary, nextSessionBoundary)
    }

    mutating func networkCursorMoved() {
        nextNetworkChange = networkIndex + 1 < networkSegments.count
            ? networkSegments[networkIndex + 1].start : .farFuture
        nextExogenous = min(nextNetworkChange, nextChargingBoundary, nextSessionBoundary)
    }

    mutating func chargingCursorMoved() {
        if chargingIndex < trace.charging.count {
            let c = trace.charging[chargingIndex]
            nextChargingBoundary = inCharging ? c.end : c.start
        } else {
            nextChargingBoundary = .farFuture
        }
        nextExogenous = min(nextNetworkChange, nextChargingBoundary, nextSessionBoundary)
    }
}

/// Simulates `trace` under an existential policy. The policy goes in a
/// concrete box (``AnyPolicy``) rather than being opened: the simulator's
/// generic code is then specialised in this module for concrete types, which
/// opening the existential here could not give (the policy types live in
/// other modules).
public func simulateDevice(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                           policy: any SchedulingPolicy, randomKey: UInt64) -> UserMetrics {
    var memo = TaskDrawMemo()
    return simulateDevice(trace: trace, configuration: configuration, policy: policy, randomKey: randomKey, memo: &memo)
}

/// As ``simulateDevice(trace:configuration:policy:randomKey:)``, reusing
/// and extending `memo`: pass the same memo to every configuration
/// simulated on one device (same trace, key and device configuration) to
/// draw each task's latency once (see ``TaskDrawMemo``). Same results as
/// without it.
public func simulateDevice(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                           policy: any SchedulingPolicy, randomKey: UInt64, memo: inout TaskDrawMemo) -> UserMetrics {
    var sim = DeviceSimulator(trace: trace, configuration: configuration, policy: AnyPolicy(policy),
                              randomKey: randomKey, sink: NoEventLog(), memo: memo)
    memo = TaskDrawMemo()   // the simulator holds the only reference while it runs (no copy on write)
    let metrics = sim.run()
    memo = sim.memo
    return metrics
}

/// As ``simulateDevice(trace:configuration:policy:randomKey:)``, also returning the event log.
public func simulateDeviceWithLog(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                  policy: any SchedulingPolicy, randomKey: UInt64) -> (UserMetrics, EventRecorder) {
    var memo = TaskDrawMemo()
    return simulateDeviceWithLog(trace: trace, configuration: configuration, policy: policy, randomKey: randomKey,
                                 memo: &memo)
}

/// As ``simulateDevice(trace:configuration:policy:randomKey:memo:)``, also returning the event log.
public func simulateDeviceWithLog(trace: DeviceTrace, configuration: DeviceConfiguration = DeviceConfiguration(),
                                  policy: any SchedulingPolicy, randomKey: UInt64,
                                  memo: inout TaskDrawMemo) -> (UserMetrics, EventRecorder) {
    var sim = DeviceSimulator(trace: trace, configuration: configuration, policy: AnyPolicy(policy),
                              randomKey: randomKey, sink: EventRecorder(), memo: memo)
    memo = TaskDrawMemo()
    let m = sim.run()
    memo = sim.memo
    return (m, sim.sink)
}

extension SimTime {
    /// Equal to `SimTime.distantFuture`, as a constant the optimiser folds:
    /// a `static let` of another module is read through an accessor call
    /// with a once-check, several times per simulated event.
    @inline(__always)
    static var farFuture: SimTime { SimTime(microseconds: .max) }
}

/// The permitted identifiers of every simulated app, by index: the
/// simulator's `refreshIdentifier` (0), `processingIdentifier` (1) and the
/// legacy fetch (2). Named by role only: the simulator never looks an
/// identifier up by name. One shared array, so per-user setup allocates
/// no strings.
let internedIdentifiers: [(name: String, kind: TaskKind)] =
    [("refresh", .appRefresh), ("processing", .processing), ("fetch", .legacyFetch)]
