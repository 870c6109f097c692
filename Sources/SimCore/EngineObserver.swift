/// Hooks into an ``ObservedEngine``'s life: scheduling, cancelling,
/// rescheduling and dispatching events. Every method has a no-op default.
///
/// The engine takes its observer as a generic parameter, not an existential,
/// so with ``NoObserver`` (what ``Engine`` uses) the calls specialise to
/// nothing in release builds: observing costs only when something observes.
public protocol EngineObserver {
    /// An event was scheduled at `time` while the clock read `now`.
    mutating func didSchedule(_ handle: EventHandle, at time: SimTime, now: SimTime)
    /// A pending event was cancelled.
    mutating func didCancel(_ handle: EventHandle, now: SimTime)
    /// A pending event was moved to `time`; `handle` is its new handle.
    mutating func didReschedule(_ handle: EventHandle, to time: SimTime, now: SimTime)
    /// The engine is about to hand the event at `time` to the caller (the
    /// clock already reads `time`).
    mutating func willDispatch(at time: SimTime)
}

extension EngineObserver {
    @inlinable public mutating func didSchedule(_ handle: EventHandle, at time: SimTime, now: SimTime) {}
    @inlinable public mutating func didCancel(_ handle: EventHandle, now: SimTime) {}
    @inlinable public mutating func didReschedule(_ handle: EventHandle, to time: SimTime, now: SimTime) {}
    @inlinable public mutating func willDispatch(at time: SimTime) {}
}

/// The observer that observes nothing; free in release builds.
@frozen
public struct NoObserver: EngineObserver, Sendable {
    @inlinable public init() {}
}

/// Records every hook call, in order; for tests and debugging.
public struct RecordingObserver: EngineObserver, Sendable {
    public enum Record: Hashable, Sendable {
        case scheduled(EventHandle, at: SimTime, now: SimTime)
        case cancelled(EventHandle, now: SimTime)
        case rescheduled(EventHandle, to: SimTime, now: SimTime)
        case dispatched(at: SimTime)
    }

    public private(set) var records: [Record] = []

    public init() {}

    /// The times of the dispatched events, in dispatch order.
    public var dispatchTimes: [SimTime] {
        records.compactMap { if case .dispatched(let t) = $0 { t } else { nil } }
    }

    public mutating func didSchedule(_ handle: EventHandle, at time: SimTime, now: SimTime) {
        records.append(.scheduled(handle, at: time, now: now))
    }

    public mutating func didCancel(_ handle: EventHandle, now: SimTime) {
        records.append(.cancelled(handle, now: now))
    }

    public mutating func didReschedule(_ handle: EventHandle, to time: SimTime, now: SimTime) {
        records.append(.rescheduled(handle, to: time, now: now))
    }

    public mutating func willDispatch(at time: SimTime) {
        records.append(.dispatched(at: time))
    }
}
