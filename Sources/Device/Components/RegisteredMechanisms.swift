import SimCore
import Traces

/// The device loop's timer slots, numbered in tie order: at equal times
/// the lower slot's event is handled first. One slot per source of events
/// (Docs/Architecture.md, "The loop"; Docs/Semantics.md): the running
/// task's end, the network, charger and session cursors, the battery
/// event, the registered mechanisms in registration order, the policy's
/// wake.
///
/// The loop keeps them in SimCore's ``TimerAgenda`` and fills every slot
/// from its source at the top of each step (`DeviceSimulator.refreshAgenda`):
/// the one place a timer's change reaches the loop, so a handler never has
/// to report one.
enum AgendaSlot: Int, CaseIterable {
    /// `TaskWorker.taskEnd`.
    case taskEnd
    /// `NetworkStream.nextChange`.
    case network
    /// `PowerSupply.nextChargingBoundary`.
    case charging
    /// `SessionStream.nextBoundary` (a session's end or the next start).
    case sessions
    /// Now while the level has crossed a threshold not yet handled, else the
    /// battery alarm (`PowerSupply.nextBatteryEvent`).
    case battery
    // The registered mechanisms (`RegisteredMechanisms`), in registration order.
    /// Silent push.
    case push
    /// `beginBackgroundTask` at session ends.
    case extraTime
    /// Background URLSession.
    case transfers
    /// Continued processing.
    case continued
    /// Dead zones.
    case deadZones
    /// Android's rules (`AndroidPlatform.nextEventTime`; never on iOS).
    case android
    /// The policy's wake (`DeviceSimulator.policyWake`).
    case policyWake
}

extension TimerAgenda {
    /// `update(_:to:)` by the device's slot name.
    @inline(__always)
    func update(_ slot: AgendaSlot, to time: SimTime) { update(slot.rawValue, to: time) }
}

/// A mechanism of the simulated OS with events of its own (a timer or an
/// exogenous stream), registered with the device loop in
/// ``RegisteredMechanisms``.
///
/// The component owns its state and says when its next event falls; the
/// loop keeps that in the mechanism's slot of its agenda (``AgendaSlot``)
/// and, when it is the earliest (after the tie order), calls the
/// mechanism's handler on the simulator
/// (`DeviceSimulator.handleRegisteredMechanism`), which
/// may touch other components (tell the policy, start or expire a task,
/// charge energy). Docs/Architecture.md, "How to add a mechanism".
protocol DeviceMechanism {
    /// When the mechanism's next event falls (`.farFuture`: none). Read at
    /// every event of the loop: keep it a stored value, updated where the
    /// mechanism's state changes, not a search.
    var nextEventTime: SimTime { get }
}

/// The mechanisms registered with the device loop besides its built-in
/// sources (task end, network, charger, sessions, battery, policy wake),
/// stored inline (no existentials: each is a concrete stored property),
/// in tie order: at equal times the first registered goes first.
///
/// Their place in the loop's tie order is fixed: after the battery event,
/// before the policy's wake (so a wake the policy asked for sees what a
/// mechanism did at the same time).
///
/// Registered (Sources/Device/Mechanisms, Docs/Mechanisms.md), in
/// this order: silent push, `beginBackgroundTask` at session ends,
/// background URLSession, continued processing; then dead
/// zones, a world stream (Sources/Device/World/DeadZones.swift) registered
/// here because a zone's start acts on a running transfer without any
/// change the device shows. Each is nil while off (no app uses it): then
/// `nextEventTime` stays `.farFuture` and `isOn` false, and the loop runs
/// as without them.
struct RegisteredMechanisms {
    /// Silent push (`DeviceSimulator+SilentPush.swift`).
    var push: SilentPushComponent?
    /// `beginBackgroundTask` at session ends (`DeviceSimulator+BackgroundTask.swift`).
    var extraTime: BackgroundTaskExtension?
    /// Background URLSession (`DeviceSimulator+BackgroundTransfers.swift`).
    var transfers: BackgroundTransfers?
    /// Continued-processing tasks (`DeviceSimulator+ContinuedProcessing.swift`).
    var continued: ContinuedProcessing?
    /// Dead zones (``DeadZones``; nil unless `device.deadZones` is on).
    var deadZones: DeadZones?
    /// Per app, `random.prefix(transferHanded, app)`: whether it hands a transfer at a session end.
    let transferPrefixes: [UInt64]
    /// Whether any mechanism is registered on this device (the loop's per-step hook).
    let isOn: Bool

    init(trace: DeviceTrace, configuration: DeviceConfiguration, models: [AppModel], random: DeviceRandom) {
        // On Android the channel has FCM's rules: no throttle (AndroidPlatform.md A15).
        push = SilentPushComponent(trace: trace, models: models,
                                   rules: configuration.platform == .android
                                       ? configuration.silentPush.withoutThrottle : configuration.silentPush,
                                   random: random)
        extraTime = BackgroundTaskExtension(models: models, rules: configuration.beginBackgroundTask, random: random)
        let hands = models.contains(where: { ($0.backgroundTransfer?.probability ?? 0) > 0 })
        transfers = hands ? BackgroundTransfers(apps: models.count, rules: configuration.backgroundURLSession) : nil
        transferPrefixes = hands
            ? (0..<UInt64(models.count)).map { random.prefix(RandomPurpose.transferHanded.rawValue, $0) } : []
        continued = ContinuedProcessing(models: models, rules: configuration.continuedProcessing, random: random)
        deadZones = DeadZones(model: configuration.deadZones, horizon: trace.horizon, random: random)
        isOn = push != nil || extraTime != nil || transfers != nil || continued != nil || deadZones != nil
    }

    /// Fills each mechanism's slot of the loop's agenda with its next event
    /// (`.farFuture`: none, or the mechanism is off): part of
    /// `DeviceSimulator.refreshAgenda`, at the top of every step.
    @inline(__always)
    func report(to agenda: TimerAgenda) {
        agenda.update(.push, to: push?.nextTime ?? .farFuture)
        agenda.update(.extraTime, to: extraTime?.runs.nextEnd ?? .farFuture)
        agenda.update(.transfers, to: transfers?.nextTime ?? .farFuture)
        agenda.update(.continued, to: continued?.nextTime ?? .farFuture)
        agenda.update(.deadZones, to: deadZones?.nextEventTime ?? .farFuture)
    }
}

// What each mechanism adds outside its component, listed here beside its
// registration so that adding a mechanism edits this file and not the
// device's: its OS rules, its per-app model and its metrics. Their JSON
// keys are written flat in their owners' objects (`device.silentPush`,
// `device.apps.<name>.silentPush`), declared once in these tables and
// lifted into the owner's; the owners read them as their own members
// (`configuration.silentPush`, `model.silentPush`, `metrics.silentPush`)
// through `@dynamicMemberLookup`.

/// Each mechanism's OS rules (keys of `device`; ``DeviceConfiguration/mechanisms``).
public struct MechanismRules: Sendable, Hashable {
    public var silentPush = SilentPushRules()
    public var beginBackgroundTask = BackgroundTaskRules()
    public var backgroundURLSession = BackgroundTransferRules()
    public var continuedProcessing = ContinuedProcessingRules()

    static let parameters: [Parameter<MechanismRules>] = [
        .object("silentPush", \.silentPush),
        .object("beginBackgroundTask", \.beginBackgroundTask),
        .object("backgroundURLSession", \.backgroundURLSession),
        .object("continuedProcessing", \.continuedProcessing),
    ]
}

/// Each mechanism's per-app model (keys of an app model; ``AppModel/mechanisms``;
/// their meaning: Docs/Mechanisms.md). Off by default: an app uses none of them.
public struct AppMechanismModels: Sendable, Hashable {
    public var silentPush: PushStrategy = .none
    public var beginBackgroundTask: FinishingWork? = nil
    public var backgroundTransfer: BackgroundTransferModel? = nil
    public var continuedProcessing: ContinuedProcessingJob? = nil

    static let parameters: [Parameter<AppMechanismModels>] = [
        .value("silentPush", \.silentPush, source: "none (Docs/Mechanisms.md)"),
        .object("beginBackgroundTask", \.beginBackgroundTask),
        .object("backgroundTransfer", \.backgroundTransfer),
        .object("continuedProcessing", \.continuedProcessing),
    ]
}

/// Each mechanism's metrics (``UserMetrics/mechanisms``; all zero while it is off).
public struct MechanismMetrics: Sendable, Hashable {
    public var silentPush = SilentPushMetrics()
    public var backgroundTask = BackgroundTaskMetrics()
    public var urlSession = BackgroundTransferMetrics()
    public var continuedProcessing = ContinuedProcessingMetrics()

    /// Their `runs.csv` columns, group after group, one line per column:
    /// the group, the counter or sum read, the column's name and description
    /// (``UserMetrics/columns`` places them after the device's own; the
    /// group's `url_cancelled_force_quit` comes later, appended).
    static let columns: [MetricColumn<MechanismMetrics>] = [
        .count(\.silentPush, .sent, "push_sent", "silent pushes sent by the app servers"),
        .count(\.silentPush, .deliveredBackground, "push_delivered_bg", "push deliveries that woke an app in the background (coalesced: once)"),
        .count(\.silentPush, .deliveredForeground, "push_delivered_fg", "push deliveries to the app in the foreground"),
        .count(\.silentPush, .coalesced, "push_coalesced", "pushes folded into a held push"),
        .count(\.silentPush, .dropped, "push_dropped", "pushes dropped (force-quit app, Background App Refresh off)"),
        .count(\.silentPush, .heldAtEnd, "push_held_at_end", "pushes still held at the end of the run"),
        .count(\.silentPush, .succeeded, "push_succeeded", "background push handler runs that succeeded"),
        .count(\.silentPush, .failed, "push_failed", "background push handler runs that failed (server, connection lost)"),
        .count(\.silentPush, .expired, "push_expired", "background push handler runs expired at the handler budget"),
        .count(\.silentPush, .newData, "push_new_data", "successful push handler runs that fetched new content"),
        .sum(\.silentPush, .energyJoules, "push_energy_j", unit: "J", "background energy of push deliveries (wake, promotion, active, CPU; tails excluded), included in energy_total_j"),
        .mean(\.silentPush, .delaySumSeconds, per: [.deliveredBackground, .deliveredForeground], "push_mean_delay_s", unit: "s", "mean delay from the first push a delivery announces to the delivery; NaN without deliveries"),
        .count(\.backgroundTask, .started, "bg_task_started", "beginBackgroundTask runs at session ends"),
        .count(\.backgroundTask, .alreadyRunning, "bg_task_already_running", "asks while the app's previous extra time still ran (not started)"),
        .count(\.backgroundTask, .ended, "bg_task_ended", "runs whose work finished in time (endBackgroundTask)"),
        .count(\.backgroundTask, .expired, "bg_task_expired", "runs expired at the extra-time budget"),
        .count(\.backgroundTask, .failed, "bg_task_failed", "runs failed (server, no network, connection lost)"),
        .sum(\.backgroundTask, .energyJoules, "bg_task_energy_j", unit: "J", "energy of the extra-time runs (promotion, active, CPU; tails excluded), included in energy_total_j"),
        .sum(\.backgroundTask, .wastedJoules, "bg_task_wasted_j", unit: "J", "bg_task_energy_j of expired and failed runs"),
        .count(\.urlSession, .handed, "url_handed", "transfers handed to a background URLSession at session ends"),
        .count(\.urlSession, .alreadyPending, "url_already_pending", "hands while the app's previous transfer was pending (not handed)"),
        .count(\.urlSession, .runs, "url_runs", "transfer runs started on the radio (restarts included)"),
        .count(\.urlSession, .paused, "url_paused", "runs paused when their condition ended before the bytes were in"),
        .count(\.urlSession, .completed, "url_completed", "transfers whose bytes were all in"),
        .count(\.urlSession, .timedOut, "url_timed_out", "transfers failed at the resource timeout"),
        .count(\.urlSession, .relaunches, "url_relaunches", "background relaunches for completed transfers"),
        .count(\.urlSession, .deliveredForeground, "url_delivered_fg", "completions handled by the app in the foreground"),
        .count(\.urlSession, .newData, "url_new_data", "completions that brought new content"),
        .sum(\.urlSession, .energyJoules, "url_energy_j", unit: "J", "transfer promotion and active energy plus relaunch wake and CPU (tails excluded), included in energy_total_j"),
        .mean(\.urlSession, .relaunchWaitSumSeconds, per: [.relaunches], "url_mean_relaunch_wait_s", unit: "s", "mean wait from bytes in to background relaunch (rate limit); NaN without relaunches"),
        .count(\.continuedProcessing, .requested, "cp_requested", "continued-processing jobs the user started (requests submitted)"),
        .count(\.continuedProcessing, .started, "cp_started", "continued-processing requests that started running"),
        .count(\.continuedProcessing, .queued, "cp_queued", ".queue requests that had to wait"),
        .count(\.continuedProcessing, .failedToStart, "cp_failed_to_start", ".fail requests that could not start at once"),
        .count(\.continuedProcessing, .droppedForceQuit, "cp_dropped_force_quit", "queued requests dropped when the user force-quit the app"),
        .count(\.continuedProcessing, .completed, "cp_completed", "jobs whose work finished"),
        .count(\.continuedProcessing, .failed, "cp_failed", "jobs whose work failed (server, no network, connection lost)"),
        .count(\.continuedProcessing, .cancelledByUser, "cp_cancelled_by_user", "jobs the user cancelled while they ran"),
        .count(\.continuedProcessing, .expiredPressure, "cp_expired_pressure", "jobs the system ended under resource pressure (least progress first)"),
        .sum(\.continuedProcessing, .energyJoules, "cp_energy_j", unit: "J", "energy of the continued-processing runs (promotion, active, CPU; tails excluded), included in energy_total_j"),
        .sum(\.continuedProcessing, .wastedJoules, "cp_wasted_j", unit: "J", "cp_energy_j of runs that did not complete"),
        .sum(\.continuedProcessing, .queueWaitSeconds, "cp_queue_wait_s", unit: "s", "total wait from submission to start of the started jobs"),
    ]
}

extension DeviceSimulator {
    /// Handles the event of the registered mechanism in `slot`, due now
    /// (the agenda's earliest, so the first in registration order if
    /// several are): one event per loop step, like the built-in sources.
    mutating func handleRegisteredMechanism(_ slot: AgendaSlot) {
        switch slot {
        case .push: silentPushEvent()
        case .extraTime: backgroundTaskEvent()
        case .transfers: backgroundTransferEvent()
        case .continued: continuedProcessingEvent()
        case .deadZones: deadZoneBoundary()
        default: preconditionFailure("slot \(slot) is not a registered mechanism's")
        }
    }

    // What the registered mechanisms react to in the device's own
    // handlers: each handler calls one of these (when a mechanism is on),
    // so a new mechanism's reaction is a line here, not in the handler's
    // file.

    /// A session started (the app's launch, after its foreground fetch).
    mutating func mechanismsSeeLaunch(_ s: DeviceTrace.Session) {
        if mechanisms.transfers != nil { transfersSeeForegroundLaunch(app: s.app) }
        if mechanisms.continued != nil { userMayStartContinuedProcessing(app: s.app, sessionStart: s.start) }
    }

    /// Session number `session` of `app` ended (after the app's own
    /// behaviour at the end: resubmission, cancellation, force-quit).
    mutating func mechanismsSeeSessionEnd(app: Int32, session: Int) {
        // A force-quit app is terminated: it neither finishes work in extra
        // time nor hands a new transfer (Docs/Mechanisms.md, "Force-quit").
        guard !appIsForceQuit(app) else { return }
        if mechanisms.extraTime != nil { appMayAskForExtraTime(app: app, session: session) }
        if mechanisms.transfers != nil { appMayHandTransfer(app: app, session: session) }
    }

    /// The user force-quit `app` in the app switcher.
    mutating func mechanismsSeeForceQuit(app: Int32) {
        if mechanisms.continued != nil { continuedProcessingForceQuit(app: app) }
        if mechanisms.transfers != nil { transfersSeeForceQuit(app: app) }
    }

    /// After every loop step, when a mechanism is on: held pushes and
    /// waiting transfers whose condition was not met are re-examined (the
    /// step may have met it: charger, network, battery level).
    mutating func mechanismsAfterStep() {
        silentPushAfterStep()
        if let t = mechanisms.transfers, t.waitingCount > 0 { examineTransfers() }
        continuedProcessingAfterStep()
    }

    /// At the horizon, before the metrics are final.
    mutating func finishMechanisms() {
        finishSilentPush()
        finishBackgroundTasks()
        finishContinuedProcessing()
    }
}
