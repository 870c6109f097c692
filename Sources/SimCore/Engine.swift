/// The discrete-event engine with no observer: what simulations use.
///
///     var engine = Engine<DeviceEvent>()
///     engine.schedule(.wake, at: SimTime(day: 0, plus: .hours(7)))
///     while let (time, event) = engine.step() { ... dispatch, schedule more ... }
public typealias Engine<Event> = ObservedEngine<Event, NoObserver>

/// A small discrete-event run loop: a clock, an ``EventQueue`` and the
/// payloads of pending events.
///
/// Payloads stay out of the queue: the queue holds (time, id) and the
/// engine keeps each payload in a side table slot indexed by that id, with a
/// free list, so the queue never copies, retains or releases a payload.
///
/// A value type, not a class: each simulation run owns its engine on one
/// thread, so a struct keeps the clock, queue and table inline with no
/// reference counting and lets handlers take the engine `inout`. Copying an
/// engine makes an independent snapshot (copy-on-write storage).
///
/// Time never goes backwards: `step()` only advances ``now``. Scheduling
/// before ``now`` is a programming error, trapped when `BGBENCH_INVARIANTS`
/// is compiled in (debug builds, tests); release builds serve such an event
/// at the current time instead.
public struct ObservedEngine<Event, Observer: EngineObserver> {
    @usableFromInline var clock: SimTime
    @usableFromInline var queue: EventQueue
    /// Payloads of pending events, indexed by queue id; `nil` when free.
    @usableFromInline var payloads: [Event?] = []
    @usableFromInline var freeIDs: [UInt32] = []
    /// Receives every hook; ``NoObserver`` compiles to nothing.
    public var observer: Observer

    /// An engine whose clock starts at `start`.
    public init(start: SimTime = .zero, observer: Observer, minimumCapacity: Int = 0) {
        clock = start
        queue = EventQueue(minimumCapacity: minimumCapacity)
        payloads.reserveCapacity(minimumCapacity)
        self.observer = observer
    }

    /// The current simulated time: the time of the event last stepped to.
    @inlinable
    public var now: SimTime { clock }

    /// The number of pending events.
    @inlinable
    public var pendingCount: Int { queue.count }

    /// The time of the next pending event, if any (see ``EventQueue/peekTime()``).
    @inlinable
    public var nextEventTime: SimTime? { queue.peekTime() }
}

/// An engine can move to another thread (for example into a task running one
/// simulated user) when its payloads and observer can.
extension ObservedEngine: Sendable where Event: Sendable, Observer: Sendable {}

extension ObservedEngine where Observer == NoObserver {
    /// An engine with no observer whose clock starts at `start`.
    public init(start: SimTime = .zero, minimumCapacity: Int = 0) {
        self.init(start: start, observer: NoObserver(), minimumCapacity: minimumCapacity)
    }
}

// MARK: - Scheduling

extension ObservedEngine {
    /// Schedules `event` at `time` and returns a handle to cancel or move it.
    ///
    /// - Precondition: `time >= now`.
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func schedule(_ event: Event, at time: SimTime) -> EventHandle {
        #if BGBENCH_INVARIANTS
        precondition(time >= clock, "Engine: scheduling at \(time), before now (\(clock))")
        #endif
        let id: UInt32
        if let free = freeIDs.popLast() {
            id = free
            payloads[Int(id)] = event
        } else {
            id = UInt32(payloads.count)
            payloads.append(event)
        }
        let handle = queue.push(time, id: id)
        observer.didSchedule(handle, at: time, now: clock)
        return handle
    }

    /// Schedules `event` `delay` after ``now``.
    ///
    /// - Precondition: `delay >= .zero`.
    @inlinable
    @discardableResult
    public mutating func schedule(_ event: Event, after delay: SimDuration) -> EventHandle {
        schedule(event, at: clock + delay)
    }

    /// Cancels a pending event; `false` if `handle` is stale (the event ran
    /// or was cancelled already).
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        guard let id = queue.remove(handle) else { return false }
        payloads[Int(id)] = nil
        freeIDs.append(id)
        observer.didCancel(handle, now: clock)
        return true
    }

    /// Moves a pending event to `time`, keeping its payload; returns the new
    /// handle, or `nil` if `handle` is stale. Among events at `time` it goes last.
    ///
    /// - Precondition: `time >= now`.
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func reschedule(_ handle: EventHandle, to time: SimTime) -> EventHandle? {
        #if BGBENCH_INVARIANTS
        precondition(time >= clock, "Engine: rescheduling to \(time), before now (\(clock))")
        #endif
        guard let moved = queue.reschedule(handle, to: time) else { return nil }
        observer.didReschedule(moved, to: time, now: clock)
        return moved
    }

    /// Whether `handle` names a pending event.
    @inlinable
    public func isPending(_ handle: EventHandle) -> Bool { queue.contains(handle) }
}

// MARK: - Running

extension ObservedEngine {
    /// Removes the next event, advances ``now`` to its time and returns it
    /// for the caller to dispatch; `nil` when nothing is pending.
    ///
    ///     while let (time, event) = engine.step() { handle(time, event) }
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    public mutating func step() -> (time: SimTime, event: Event)? {
        guard let (popped, id) = queue.popMin() else { return nil }
        #if BGBENCH_INVARIANTS
        precondition(popped >= clock, "Engine: time went backwards from \(clock) to \(popped)")
        #endif
        // Never backwards, even if a release build was handed a past event.
        let time = popped > clock ? popped : clock
        clock = time
        // Move the payload out (one access, no copy, no retain/release pair).
        let event = payloads[Int(id)].take().unsafelyUnwrapped
        freeIDs.append(id)
        observer.willDispatch(at: time)
        return (time, event)
    }

    /// Steps through every event at or before `limit`, passing each to
    /// `handle` (which may schedule, cancel and reschedule), then moves
    /// ``now`` to `limit` (unless `limit` is ``SimTime/distantFuture``).
    @inlinable
    public mutating func run(until limit: SimTime, _ handle: (inout Self, SimTime, Event) -> Void) {
        while let next = queue.peekTime(), next <= limit {
            guard let (time, event) = step() else { break }
            handle(&self, time, event)
        }
        if limit != .distantFuture { advance(to: limit) }
    }

    /// Moves the clock forward to `time` without dispatching anything.
    ///
    /// - Precondition: no pending event is earlier than `time` (checked with
    ///   invariants on); a `time` before ``now`` leaves the clock unchanged.
    @inlinable
    public mutating func advance(to time: SimTime) {
        #if BGBENCH_INVARIANTS
        if let next = queue.peekTime() {
            precondition(next >= time, "Engine: advancing to \(time) past a pending event at \(next)")
        }
        #endif
        if time > clock { clock = time }
    }
}
