import SimCore

/// Simulates one user's device over its trace under one policy.
///
/// The simulator is the wiring of the phone's components, each a struct
/// stored inline that owns its state and says what it decides and which
/// events it raises (Sources/Device/Components, Docs/Architecture.md):
/// `sessions` (``SessionStream``), `networks` (``NetworkStream``, with the
/// radio), `power` (``PowerSupply``, with the battery alarm), `worker`
/// (``TaskWorker``), `scheduler` (``BackgroundTaskScheduler``), `apps`
/// (``InstalledApps``), `metrics` (``MetricsAccumulator``), the event log
/// (`sink`) and the mechanisms registered with the loop (`mechanisms`,
/// ``RegisteredMechanisms``). The handlers of events that touch several
/// components (a session start touches sessions, power, the worker,
/// metrics and the policy) are the simulator's, in its extensions.
///
/// A discrete-event loop over SimCore's ``TimerAgenda``: one slot per
/// source of events (``AgendaSlot``: the running task's end, the network,
/// charger and session cursors, the battery event, each registered
/// mechanism, the policy's wake), filled from the components at the top of
/// each step (`refreshAgenda`), so that no handler has to report a timer
/// it moved. The slots are numbered in tie order: task end → network →
/// charging → session end or start → battery → registered mechanisms (in
/// registration order) → policy wake. Background energy charged during a
/// step comes off the battery at the end of that step; a threshold crossed
/// by it (or by the drain) is handled as a battery event at the same time.
/// Content updates are never events: they are read by cursor at launches
/// and fetches. The loop never goes back in time (checked under
/// `BGBENCH_INVARIANTS`). Docs/Architecture.md, "The loop".
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
    /// The OS rules' parameters (`config.rules`, read often).
    let rules: OSRules
    let refreshIdentifier: Int32 = 0
    let processingIdentifier: Int32 = 1
    let future: FutureLaunches?
    /// End of the run (`trace.horizon`).
    let horizon: SimTime

    // The components.
    var sessions: SessionStream
    var networks: NetworkStream
    var power: PowerSupply
    /// The scheduler's rules (registrations, limits, request numbering).
    /// Its own pending list is empty but during one of its calls
    /// (`withScheduler`): the pending requests are kept in the policy's
    /// context, `ctx.pending` (see `pending`).
    var scheduler: BackgroundTaskScheduler
    var worker: TaskWorker
    /// Outages of the apps' backends (none unless configured).
    let outages: BackendOutages
    var apps: InstalledApps
    var metrics: MetricsAccumulator
    var mechanisms: RegisteredMechanisms

    /// The loop's timers, one slot per source (``AgendaSlot``), filled from
    /// the components by `refreshAgenda` at the top of every step.
    var agenda = TimerAgenda(count: AgendaSlot.allCases.count)

    // The state the policy sees, kept in its context.
    /// The current time. Stored in the policy's context (`ctx.now`), like
    /// `state`, and written when time advances rather than just before each
    /// policy call (see `refreshContext`). `ctx.now` is `now` at every
    /// policy call.
    public internal(set) var now: SimTime {
        get { ctx.now }
        set { ctx.now = newValue }
    }
    /// The device state (screen, foreground app, network, charger, level,
    /// Low Power Mode): what the components' handlers publish. Stored in
    /// the policy's context (`ctx.device`), so a decision point does not
    /// copy it there (see `refreshContext`). `ctx.device` is the state at
    /// every policy call.
    var state: DeviceState {
        get { ctx.device }
        _modify { yield &ctx.device }
    }
    /// The pending requests, in submission order: the policy's context's
    /// own list, so that nothing is stored to the context just before a
    /// policy call copies it. The swap with the scheduler's list happens
    /// around each scheduler call (`submit`, `restore`) instead, which is
    /// not followed by a copy.
    var pending: [TaskRequest] {
        get { ctx.pending }
        _modify { yield &ctx.pending }
    }
    /// When the last session ended; stored in the context (`ctx.lastSessionEnd`, see `now`).
    var lastSessionEnd: SimTime? {
        get { ctx.lastSessionEnd }
        set { ctx.lastSessionEnd = newValue }
    }
    /// Server latencies already drawn for this device (the worker's, see
    /// `TaskDrawMemo`); handed in by the caller and back out after the run.
    public internal(set) var memo: TaskDrawMemo {
        get { worker.memo }
        set { worker.memo = newValue }
    }

    /// Stop after this many events (a guard against a policy that wakes in a
    /// busy loop; the conformance check uses it). Default: no limit.
    public var eventLimit: Int = .max
    /// Whether the run stopped at `eventLimit` before the horizon.
    public private(set) var hitEventLimit = false

    // The policy seam (DeviceSimulator+Policy.swift).
    /// The observation kinds the policy reads (others are not delivered).
    var observes: ObservationKinds
    /// Consult the policy at session start: it observes launches or asks
    /// for it (``PolicyTraits/consultedAtSessionStart``).
    let decidesAtSessionStart: Bool
    /// Non-nil for a ``RequestPlanningPolicy``: the simulator keeps its
    /// plans and decides from them (`consultPlans`) instead of calling
    /// `decide`; observations forget the plans of this scope.
    let planScope: PlanScope?
    /// The plans kept for a planning policy, in step with `pending` (see `KeptPlans`).
    var plans: KeptPlans
    /// The policy's context, kept up to date before each policy call (see `refreshContext`).
    var ctx: PolicyContext
    /// The policy's wake (`.farFuture`: none).
    var policyWake: SimTime = .farFuture
    /// Android's rules (nil on iOS: `device.platform`).
    let android: AndroidPlatform?

    public init(trace: DeviceTrace, configuration: DeviceConfiguration, policy: Policy,
                randomKey: UInt64, sink: Sink, memo: TaskDrawMemo = TaskDrawMemo()) {
        // A platform's budgets replace iOS's (the same on iOS).
        let configuration = configuration.effectiveForPlatform
        self.trace = trace
        self.config = configuration
        self.policy = policy
        self.sink = sink
        let random = DeviceRandom(key: randomKey)
        self.random = random
        let n = trace.appNames.count
        // Per-user setup is on the whole-suite path (one simulator per user
        // and configuration): no String work here. With no per-app
        // overrides every app has the default model (no name lookups).
        let models = configuration.apps.isEmpty
            ? Array(repeating: configuration.defaultApp, count: n)
            : trace.appNames.map { configuration.model(forApp: $0) }
        horizon = trace.horizon
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
        sessions = SessionStream(trace.sessions)
        networks = NetworkStream(trace.network, horizon: trace.horizon, energy: configuration.energy)
        power = PowerSupply(trace: trace, configuration: configuration)
        apps = InstalledApps(models: models, contentUpdates: trace.contentUpdates)
        worker = TaskWorker(models: models, configuration: configuration, random: random, randomKey: randomKey,
                            memo: memo)
        metrics = MetricsAccumulator(launches: trace.sessions.count,
                                     initialBatteryPercent: trace.initialBatteryPercent)
        outages = BackendOutages(model: configuration.backendOutages, apps: n, horizon: trace.horizon, random: random)
        mechanisms = RegisteredMechanisms(trace: trace, configuration: configuration, models: models, random: random)
        // One pending request at most per app and interned identifier.
        plans = KeptPlans(capacity: n * internedIdentifiers.count)
        // A boxed policy answers for the type inside the box.
        let traits = policy.instanceTraits
        observes = traits.observedKinds
        decidesAtSessionStart = traits.consultedAtSessionStart
        let android = configuration.platform == .android
            ? AndroidPlatform(rules: configuration.android, apps: n) : nil
        self.android = android
        // The kept plans' fast path folds iOS's rules (`EligibilityTest`):
        // on Android the policy decides through `decide`, which a planning
        // policy derives from the same plans.
        planScope = android == nil ? ((policy as? AnyPolicy).map(\.plans) ?? Policy.planScope) : nil
        if traits.needsFutureKnowledge {
            var launches = Array(repeating: [SimTime](), count: n)
            for s in trace.sessions { launches[Int(s.app)].append(s.start) }
            // The outages and dead zones are part of the future a
            // bound sees (empty when off).
            let outageIntervals = outages.any ? outages.perApp : []
            future = FutureLaunches(launches: launches, contentUpdates: trace.contentUpdates,
                                    backendOutages: outageIntervals,
                                    deadZones: mechanisms.deadZones?.zones ?? .none)
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
        ctx.android = android
        android?.logs = Sink.isEnabled
        android?.sync(now: .zero, state: initial)
        // The pending requests live in the context (see `pending`).
        scheduler.swapPending(with: &ctx.pending)
        screenOrChargerChanged()
    }

    /// Delivers every observation to the policy from now on, whatever its
    /// `traits.observedKinds` (decision points stay as declared): how
    /// `PolicyConformance` checks that the declaration only saves work.
    @_spi(BuiltInPolicies)
    public mutating func deliverEveryObservation() { observes = .all }

    // MARK: - The loop

    /// Runs the whole horizon and returns the user's metrics.
    public mutating func run() -> UserMetrics {
        let horizon = trace.horizon
        // A copy of this simulator shares the tables (classes): run on its own.
        apps.makeStateUnique()
        if !isKnownUniquelyReferenced(&plans) { plans = plans.copy() }
        if !isKnownUniquelyReferenced(&agenda) { agenda = agenda.copy() }
        if Sink.isEnabled { logUpdates() }
        // Time 0: the initial state, then legacy fetch arming and a first decision.
        applyNetwork(networks.initial, notify: false)
        if power.startsOnCharger {
            power.plugInAtStart()
            setCharging(true, notify: false)
        }
        for a in 0..<apps.models.count where apps.models[a].usesLegacyFetch { armLegacyFetch(app: Int32(a), after: .zero) }
        if Sink.isEnabled { logState("initial") }
        scheduleBatteryAlarm()
        consultPolicy()
        settleBackgroundEnergy()

        while true {
            refreshAgenda()
            var (t, slot) = agenda.earliest()
            if t >= horizon { t = horizon }
            #if BGBENCH_INVARIANTS
            precondition(t >= now, "simulated time went backwards: \(now) -> \(t)")
            #endif
            drainBattery(to: t)   // also moves `now` to `t`
            if t >= horizon { break }
            // `&+=`: a count of events cannot reach Int.max; no overflow test at every event.
            metrics.user.events &+= 1
            if metrics.user.events > eventLimit { hitEventLimit = true; break }
            // A threshold the drain to `t` crossed is a battery event at
            // `t`, ahead of the slots after the battery's in the tie order.
            if slot > AgendaSlot.battery.rawValue && power.pendingCrossings != 0 { slot = AgendaSlot.battery.rawValue }
            // One event per step, the first in the tie order.
            switch AgendaSlot(rawValue: slot)! {
            case .taskEnd:
                finishRunningTask(interrupted: false)
            case .network:
                applyNetwork(networks.advance(), notify: true)
            case .charging:
                chargingBoundary()
            case .sessions:
                if sessions.inSession { endSession() } else { startSession() }
            case .battery:
                batteryThresholdReached()
            case .android:
                androidEvent()
            case .policyWake:
                policyWake = .farFuture
                consultPolicy()
            default:
                // The registered mechanisms' slots (Components/RegisteredMechanisms.swift).
                handleRegisteredMechanism(AgendaSlot(rawValue: slot)!)
            }
            if mechanisms.isOn { mechanismsAfterStep() }
            if let android {
                android.sync(now: now, state: state)
                if Sink.isEnabled { logAndroid(android) }
            }
            settleBackgroundEnergy()
        }
        finish()
        return metrics.user
    }

    /// Fills every slot of the agenda from its source: the one place
    /// where the loop learns that a timer moved, at the top of each step
    /// (a handler never reports one). An unchanged slot costs a store.
    @inline(__always)
    mutating func refreshAgenda() {
        agenda.update(.taskEnd, to: worker.taskEnd)
        agenda.update(.network, to: networks.nextChange)
        agenda.update(.charging, to: power.nextChargingBoundary)
        agenda.update(.sessions, to: sessions.nextBoundary)
        agenda.update(.battery, to: power.nextBatteryEvent(now: now))
        if mechanisms.isOn { mechanisms.report(to: agenda) }
        if let android { agenda.update(.android, to: android.nextEventTime) }
        agenda.update(.policyWake, to: policyWake)
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
