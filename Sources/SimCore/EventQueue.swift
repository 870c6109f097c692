/// The engine's priority queue: pending events keyed by ``SimTime``, equal
/// times served first-in first-out.
///
/// ## Design: a 64-way radix heap over monotone time, with a sorted front run
///
/// A discrete-event simulation never schedules before the current time, so
/// the queue only has to be a *monotone* priority queue: every push is at or
/// after the last popped time. That is the setting of the radix heap (Ahuja,
/// Mehlhorn, Orlin and Tarjan, JACM 1990). This one uses 6-bit digits, which
/// makes it a ladder (in the sense of Tang, Goh and Thng's ladder queue) of
/// calendar rungs whose bucket widths are fixed powers of 64:
///
/// - Keys sit in buckets relative to `last`, the latest radix pivot. Bucket 0
///   holds keys equal to `last`; the other 704 buckets are indexed by
///   (highest 6-bit digit position where the key differs from `last`, the
///   key's digit there), and that index order is key order.
/// - A push is an append to one bucket: an xor, a `clz`, a shift. O(1).
/// - A pop serves the front. When it runs dry, the lowest non-empty bucket
///   (a `ctz` over an 11-word occupancy mask) is either emptied into lower
///   buckets around its cached minimum, which becomes the pivot, or, when it
///   holds at most ``runThreshold`` entries, insertion-sorted into a small
///   "run" served from its end, as a ladder queue's bottom list. The run
///   ends the cascade of tiny redistributions near `now`.
/// - An event moves about log64(distance from `now` / gap between events)
///   times, one or two in practice, never more than 11; every move is a
///   sequential read and an append. So the per-event cost is O(1) amortised
///   for any spread of times, memory traffic is streaming rather than a
///   heap's chain of dependent cache misses, and there is no bucket width
///   to tune.
///
/// Why not the structures next to it in the literature:
/// - A d-ary heap with a hole (4- or 8-ary) halves the depth and drops the
///   swaps, but still pays log_d(n) dependent misses per pop at 10⁵–10⁶
///   events: typically 1.5–2× a binary heap, short of the 3× wanted here.
/// - Calendar queues (Brown 1988) and ladder queues (Tang, Goh and Thng 2005)
///   are O(1) amortised but steer bucket widths by sampling the time
///   distribution, and Furfaro and Sacco (2018) found ladder queues no better
///   than heaps on some distributions. A phone simulation mixes sub-second
///   task steps with day-long charge intervals. Radix buckets are powers of
///   64 relative to `now`: they fit any spread without resizing.
/// - FIFO on ties comes free: equal keys always share a bucket, appends and
///   moves preserve their order, bucket 0 is served front to back and the
///   run's insertion puts a new key after equal ones, so no insertion
///   sequence number is stored or compared. The key is one `UInt64`, the
///   order-preserving image of the signed microseconds.
///
/// Storage: every bucket is a list of 16-entry chunks in one contiguous pool
/// with a free list, so memory follows the pending count rather than the sum
/// of each bucket's peak, and nothing is allocated per event. The raw
/// buffers live behind one class (``EventQueue/Storage``), copied on write.
///
/// ## Cancelling and rescheduling: lazy deletion, generation-stamped handles
///
/// Each push takes a slot (id plus generation, 8 bytes) from a table with an
/// intrusive free list, sets the slot's bit in a liveness bitmap, and files
/// a 16-byte entry (key, id, slot). A handle is (slot, generation).
/// ``cancel(_:)`` checks the generation and clears the live bit: O(1), no
/// search. The orphaned entry stays in its bucket until it reaches the front,
/// where the clear bit marks it stale: it is skipped and only then is its
/// slot reused, so a live bit always belongs to the entry in front. A pop
/// reads just the bitmap (1 bit per slot, cache-resident) and only stores to
/// the slot; a push stores a fresh stamp rather than incrementing one, so
/// neither waits on a slot-table load (at 10⁶ events the write miss to the
/// slot table is the main remaining cost). Cancelling costs one slot load
/// (the generation check) and a bit; the price is paid later: the stale
/// entry keeps its 16 bytes and its slot until it reaches the front, and is
/// skipped there. When stale entries outnumber live ones (and at least
/// 1024), one O(n) pass drops them, so cancelling is amortised O(1) and
/// memory stays within about 2× the live events. ``reschedule(_:to:)`` is a cancel plus a push and returns
/// a new handle; the old one goes stale (see ``EventHandle``).
///
/// Memory: 24 bytes of structure per pending event (16-byte entry, 8-byte
/// slot, 1 bit), plus one partly filled chunk per non-empty bucket, 25 %
/// growth slack and a fixed ~17 KB bucket table; ``allocatedBytes`` reports
/// the total (about 28–31 bytes per event from 10⁴ events up).
///
/// - Precondition: no push earlier than the last popped time, ``floorTime``
///   (checked when `BGBENCH_INVARIANTS` is compiled in; otherwise such an
///   event is served at the current radix pivot, never lost).
public struct EventQueue: Sendable {
    @usableFromInline var storage: Storage

    /// An empty queue with room for `minimumCapacity` pending events before
    /// anything grows.
    public init(minimumCapacity: Int = 0) {
        storage = Storage(minimumCapacity: minimumCapacity)
    }

    /// A queue holding `events`; equal times keep their order in the array.
    /// The i-th event's handle is `EventHandle(slot: UInt32(i), generation: UInt32(i + 1))`,
    /// as if pushed one by one into an empty queue.
    ///
    /// - Complexity: O(n): each event is one append to a bucket.
    public init(loading events: [(SimTime, UInt32)]) {
        self.init(minimumCapacity: events.count)
        for (time, id) in events { push(time, id: id) }
    }

    /// Copies the storage if it is shared (value semantics), before a mutation.
    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
    }

    /// The number of pending (not cancelled, not popped) events.
    @inlinable
    public var count: Int { storage.core.pointee.liveCount }

    /// Whether no event is pending.
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// The earliest time a push may use: the last popped time.
    @inlinable
    public var floorTime: SimTime { Self.time(storage.core.pointee.floorKey) }

    /// Bytes allocated for entries, chunk links, buckets and slots (capacity,
    /// not count): the queue's whole memory apart from the struct itself.
    public var allocatedBytes: Int { storage.core.pointee.allocatedBytes }
}

// MARK: - Keys

extension EventQueue {
    /// Maps signed microseconds to `UInt64` preserving order (flip the sign bit).
    @inlinable @inline(__always)
    static func key(_ time: SimTime) -> UInt64 {
        UInt64(bitPattern: time.microseconds) ^ (1 &<< 63)
    }

    @inlinable @inline(__always)
    static func time(_ key: UInt64) -> SimTime {
        SimTime(microseconds: Int64(bitPattern: key ^ (1 &<< 63)))
    }
}

// MARK: - Operations

extension EventQueue {
    /// Adds an event at `time` carrying `id` and returns its handle.
    ///
    /// - Precondition: `time` is not before ``floorTime``.
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func push(_ time: SimTime, id: UInt32) -> EventHandle {
        #if BGBENCH_INVARIANTS
        precondition(time >= floorTime, "EventQueue: push at \(time) before the last popped time \(floorTime)")
        #endif
        makeUnique()
        return storage.core.pointee.push(Self.key(time), id: id)
    }

    /// Removes and returns the earliest pending event (the first pushed among
    /// equal times).
    ///
    /// - Complexity: O(1) amortised; an event moves between buckets at most
    ///   11 times over its life, typically once or twice.
    @inlinable
    public mutating func popMin() -> (time: SimTime, id: UInt32)? {
        makeUnique()
        guard let (key, id) = storage.core.pointee.popMin() else { return nil }
        return (Self.time(key), id)
    }

    /// The time of the earliest pending event, without removing it.
    ///
    /// - Complexity: O(1) unless cancelled events wait at the front; then a
    ///   scan of the lowest bucket holding a live event. ``popMin()`` never
    ///   needs it.
    @inlinable
    public func peekTime() -> SimTime? {
        storage.core.pointee.peekKey().map(Self.time)
    }

    /// Whether `handle` names a pending event.
    @inlinable
    public func contains(_ handle: EventHandle) -> Bool {
        storage.core.pointee.contains(handle)
    }

    /// The id of the pending event `handle` names, or `nil` if it is stale.
    @inlinable
    public func id(of handle: EventHandle) -> UInt32? {
        storage.core.pointee.id(of: handle)
    }

    /// Cancels the pending event `handle` names; `false` if it was already
    /// popped or cancelled.
    ///
    /// - Complexity: O(1) amortised (lazy deletion; see the type's notes).
    @inlinable
    @discardableResult
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        remove(handle) != nil
    }

    /// Cancels the pending event `handle` names and returns its id, or `nil`
    /// (and no change) if the handle is stale.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    public mutating func remove(_ handle: EventHandle) -> UInt32? {
        guard contains(handle) else { return nil }
        makeUnique()
        return storage.core.pointee.remove(handle)
    }

    /// Moves the pending event `handle` names to `time`, keeping its id, and
    /// returns its new handle; the old handle becomes stale. `nil`, and no
    /// change, if `handle` is stale. The event goes after events already
    /// pending at `time`.
    ///
    /// - Precondition: `time` is not before ``floorTime``.
    /// - Complexity: O(1) amortised.
    @inlinable
    public mutating func reschedule(_ handle: EventHandle, to time: SimTime) -> EventHandle? {
        guard let id = remove(handle) else { return nil }
        return push(time, id: id)
    }
}
