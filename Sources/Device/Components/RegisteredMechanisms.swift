import SimCore

/// A mechanism of the simulated OS with events of its own (a timer or an
/// exogenous stream), registered with the device loop in
/// ``RegisteredMechanisms``.
///
/// The component owns its state and says when its next event falls; the
/// loop takes the minimum of that with the other events' times and, when
/// it is the earliest (after the tie order), calls the mechanism's handler
/// on the simulator (`DeviceSimulator.handleRegisteredMechanism`), which
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
/// Registered (issue 18, Sources/Device/Mechanisms, Docs/Mechanisms.md), in
/// this order: silent push, `beginBackgroundTask` at session ends,
/// background URLSession, continued processing; then (issue 19) dead
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
    /// Issue 19: dead zones (``DeadZones``; nil unless `device.deadZones` is on).
    var deadZones: DeadZones?
    /// Per app, `random.prefix(transferHanded, app)`: whether it hands a transfer at a session end.
    let transferPrefixes: [UInt64]
    /// Whether any mechanism is registered on this device (the loop's per-step hook).
    let isOn: Bool
    /// The earliest next event of the registered mechanisms (`.farFuture`:
    /// none), kept up to date by ``changed()``.
    private(set) var nextEventTime = SimTime.farFuture

    init(trace: DeviceTrace, configuration: DeviceConfiguration, models: [AppModel], random: DeviceRandom) {
        push = SilentPushComponent(trace: trace, models: models, rules: configuration.silentPush, random: random)
        extraTime = BackgroundTaskExtension(models: models, rules: configuration.beginBackgroundTask, random: random)
        let hands = models.contains(where: { ($0.backgroundTransfer?.probability ?? 0) > 0 })
        transfers = hands ? BackgroundTransfers(apps: models.count, rules: configuration.backgroundURLSession) : nil
        transferPrefixes = hands
            ? (0..<UInt64(models.count)).map { random.prefix(RandomPurpose.transferHanded.rawValue, $0) } : []
        continued = ContinuedProcessing(models: models, rules: configuration.continuedProcessing, random: random)
        deadZones = DeadZones(model: configuration.deadZones, horizon: trace.horizon, random: random)
        isOn = push != nil || extraTime != nil || transfers != nil || continued != nil || deadZones != nil
        changed()
    }

    /// Recomputes ``nextEventTime`` from the mechanisms' own next times:
    /// called wherever one of them changes.
    mutating func changed() {
        nextEventTime = min(push?.nextTime ?? .farFuture, extraTime?.nextEnd ?? .farFuture,
                            transfers?.nextTime ?? .farFuture, continued?.nextTime ?? .farFuture,
                            deadZones?.nextEventTime ?? .farFuture)
    }
}

extension DeviceSimulator {
    /// Handles the event of the registered mechanism due now (`now` is
    /// `mechanisms.nextEventTime`), the first in registration order if
    /// several are: one event per loop step, like the built-in sources.
    mutating func handleRegisteredMechanism() {
        if let t = mechanisms.push?.nextTime, t <= now {
            silentPushEvent()
        } else if let t = mechanisms.extraTime?.nextEnd, t <= now {
            backgroundTaskEvent()
        } else if let t = mechanisms.transfers?.nextTime, t <= now {
            backgroundTransferEvent()
        } else if let t = mechanisms.continued?.nextTime, t <= now {
            continuedProcessingEvent()
        } else if let t = mechanisms.deadZones?.nextEventTime, t <= now {
            deadZoneBoundary()
        }
        mechanisms.changed()
    }

    /// After every loop step, when a mechanism is on: held pushes and
    /// waiting transfers whose condition was not met are re-examined (the
    /// step may have met it: charger, network, battery level).
    mutating func mechanismsAfterStep() {
        silentPushAfterStep()
        if let t = mechanisms.transfers, t.waitingCount > 0 { examineTransfers() }
        continuedProcessingAfterStep()
        mechanisms.changed()
    }

    /// At the horizon, before the metrics are final.
    mutating func finishMechanisms() {
        finishSilentPush()
        finishBackgroundTasks()
        finishContinuedProcessing()
    }
}
