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
/// mechanism did at the same time). None is registered yet: `nextEventTime`
/// is then a constant the optimiser folds, and the loop costs what it did
/// without the seam.
///
/// To register one (say `SilentPush`, a struct conforming to
/// ``DeviceMechanism`` in its own file): add `var push: SilentPush` below,
/// initialise it in `init`, fold `push.nextEventTime` into
/// `nextEventTime`, and dispatch to its handler in
/// `DeviceSimulator.handleRegisteredMechanism` in the same order.
struct RegisteredMechanisms {
    init(trace: DeviceTrace, configuration: DeviceConfiguration) {}

    /// The earliest next event of the registered mechanisms (`.farFuture`: none).
    @inline(__always)
    var nextEventTime: SimTime { .farFuture }
}

extension DeviceSimulator {
    /// Handles the event of the registered mechanism due now (`now` is
    /// `mechanisms.nextEventTime`), the first in registration order if
    /// several are: one event per loop step, like the built-in sources.
    @inline(__always)
    mutating func handleRegisteredMechanism() {
        // One branch per registered mechanism, in registration order:
        // if mechanisms.push.nextEventTime == now { pushArrived(); return }
        preconditionFailure("a registered mechanism's event is due but none is registered")
    }
}
