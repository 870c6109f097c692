/// The engine's priority queue: pending events keyed by ``SimTime``, equal
/// times served first-in first-out.
///
/// ## Design: a 16-way radix heap over monotone time
///
/// A discrete-event simulation never schedules before the current time, so
/// the queue only has to be a *monotone* priority queue: every push is at or
/// after the last popped time. That is the setting of the radix heap (Ahuja,
/// Mehlhorn, Orlin and Tarjan, JACM 1990); this one uses 4-bit digits, which
/// makes it a ladder of calendar rungs whose widths are powers of 16.
/// Keys sit in buckets relative to `last`, the most recently extracted
/// minimum: bucket 0 holds keys equal to `last`; the other 256 buckets are
/// indexed by (highest 4-bit digit where the key differs from `last`, the
/// key's value of that digit), and that index order is key order.
///
/// - A push is an append to one bucket: an xor, a `clz`, a shift. O(1).
/// - A pop serves bucket 0 front to back. When it runs dry, the lowest
///   non-empty bucket (a `ctz` over a 256-bit occupancy mask) is emptied into
///   lower buckets around its minimum, which each bucket caches, so no scan
///   is needed. An event moves about log16(its distance from `now` / the gap
///   between events) times, two or three in practice, never more than 16;
///   every move is a sequential read and an append.
///
/// So the per-event cost is O(1) amortised for any time spread, the memory
/// traffic is streaming (no chain of dependent cache misses as in a heap's
/// sift), and there is no bucket width to tune.
///
/// Why not the structures next to it in the literature:
/// - A d-ary heap with a hole (4- or 8-ary) halves the depth and drops the
///   swaps, but still pays log_d(n) dependent misses per pop at 10⁵–10⁶
///   events: measured elsewhere at 1.5–2× a binary heap, short of 3×.
/// - Calendar queues (Brown 1988) and ladder queues (Tang, Goh and Thng 2005)
///   are O(1) amortised but steer bucket widths by sampling the time
///   distribution, and Furfaro and Sacco (2018) found ladder queues no better
///   than heaps on some distributions. A phone simulation mixes sub-second
///   task steps with day-long charge intervals. Radix buckets are fixed
///   powers of 16 relative to `now`: they fit any spread without resizing.
/// - FIFO on ties comes free: equal keys always share a bucket, appends and
///   moves preserve their order and bucket 0 is served front to back, so no
///   insertion sequence number is stored or compared. The key is one
///   `UInt64`, the order-preserving image of the signed microseconds.
///
/// Storage: every bucket is a list of 16-entry chunks in one contiguous pool
/// with a free list, so memory follows the pending count rather than the sum
/// of each bucket's peak, and nothing is allocated per event.
///
/// ## Cancelling and rescheduling: lazy deletion with generations
///
/// Each push takes a slot (id plus generation, 8 bytes) from a table with an
/// intrusive free list; the bucket entry (16 bytes: key, slot, generation)
/// refers to it. ``cancel(_:)`` bumps the slot's generation and frees it: O(1),
/// no search. The orphaned entry stays in its bucket until it reaches the
/// front, where the generation mismatch marks it stale and it is skipped;
/// when stale entries outnumber live ones (and at least 1024), one O(n) pass
/// drops them, so cancelling costs amortised O(1) and memory stays within 2×
/// the live events. ``reschedule(_:to:)`` is a cancel plus a push and returns
/// a new handle; the old one goes stale (see ``EventHandle``).
///
/// Memory: 24 bytes of structure per pending event (16-byte entry, 8-byte
/// slot), plus one partly filled chunk per non-empty bucket and 25 % growth
/// slack; ``allocatedBytes`` reports the total.
///
/// - Precondition: no push earlier than the last popped time, ``floorTime``
///   (checked when `BGBENCH_INVARIANTS` is compiled in; otherwise such an
///   event is served at the current radix pivot, never lost).
public struct EventQueue: Sendable {
    /// One bucket entry: 16 bytes.
    @usableFromInline
    struct Entry: Sendable {
        /// The time as an order-preserving unsigned key (see ``EventQueue/key(_:)``).
        @usableFromInline var key: UInt64
        @usableFromInline var slot: UInt32
        @usableFromInline var generation: UInt32

        @inlinable @inline(__always)
        init(key: UInt64, slot: UInt32, generation: UInt32) {
            self.key = key
            self.slot = slot
            self.generation = generation
        }
    }

    /// A slot: the caller's id and a generation (odd while occupied). A free
    /// slot's `id` is the next free slot, threading the free list through the table.
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var id: UInt32
        @usableFromInline var generation: UInt32

        @inlinable @inline(__always)
        init(id: UInt32, generation: UInt32) {
            self.id = id
            self.generation = generation
        }
    }

    /// A bucket: a list of chunks in the pool, and the smallest key placed in
    /// it since it was last emptied (possibly a cancelled event's: still a
    /// valid pivot, as it is not larger than any key in the bucket).
    @usableFromInline
    struct Bucket: Sendable {
        @usableFromInline var min: UInt64
        @usableFromInline var first: Int32
        @usableFromInline var last: Int32
        /// Entries in chunk `last`.
        @usableFromInline var fill: Int32

        @inlinable static var empty: Bucket { Bucket(min: .max, first: -1, last: -1, fill: 0) }

        @inlinable @inline(__always)
        init(min: UInt64, first: Int32, last: Int32, fill: Int32) {
            self.min = min
            self.first = first
            self.last = last
            self.fill = fill
        }
    }

    @usableFromInline static let digitBits = 4
    /// Bucket 0 plus 16 digit positions × 16 digit values.
    @usableFromInline static let bucketCount = 1 + 256
    @usableFromInline static let chunkSize = 16
    @usableFromInline static let noSlot = UInt32.max
    /// Stale entries are purged once they exceed both the live count and this.
    @usableFromInline static let compactionFloor = 1024

    @usableFromInline var buckets: [Bucket]
    /// Bit `b - 1` (word `(b - 1) / 64`) is set when bucket `b` ≥ 1 is non-empty.
    @usableFromInline var occupied: [UInt64] = [0, 0, 0, 0]
    /// Chunk storage for every bucket: chunk `c` is `pool[c * chunkSize ..< (c + 1) * chunkSize]`.
    @usableFromInline var pool: [Entry] = []
    /// Next chunk in a bucket's list or in the free list; -1 ends a list.
    @usableFromInline var chunkNext: [Int32] = []
    @usableFromInline var freeChunk: Int32 = -1
    /// Read position in bucket 0's first chunk.
    @usableFromInline var head: Int = 0
    /// The radix pivot: the key of the last extracted minimum.
    @usableFromInline var last: UInt64 = 0
    /// The key of the last event actually returned by ``popMin()``.
    @usableFromInline var floorKey: UInt64 = 0
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeHead: UInt32 = EventQueue.noSlot
    @usableFromInline var liveCount: Int = 0
    /// Entries still in buckets whose event was cancelled.
    @usableFromInline var staleCount: Int = 0

    /// The number of pending (not cancelled, not popped) events.
    @inlinable
    public var count: Int { liveCount }

    /// Whether no event is pending.
    @inlinable
    public var isEmpty: Bool { liveCount == 0 }

    /// An empty queue with room for `minimumCapacity` pending events before
    /// anything grows.
    public init(minimumCapacity: Int = 0) {
        buckets = Array(repeating: .empty, count: Self.bucketCount)
        slots.reserveCapacity(minimumCapacity)
        let chunks = (minimumCapacity + Self.chunkSize - 1) / Self.chunkSize + 32
        pool.reserveCapacity(chunks * Self.chunkSize)
        chunkNext.reserveCapacity(chunks)
    }

    /// A queue holding `events`; equal times keep their order in the array.
    /// The i-th event's handle is `EventHandle(slot: UInt32(i), generation: 1)`.
    ///
    /// - Complexity: O(n): each event is one append to a bucket.
    public init(loading events: [(SimTime, UInt32)]) {
        self.init(minimumCapacity: events.count)
        for (time, id) in events { push(time, id: id) }
    }
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

    /// 0 when `key == last`; otherwise 1 + 16 × (highest differing digit
    /// position) + (the key's digit there).
    @inlinable @inline(__always)
    func bucketIndex(_ key: UInt64) -> Int {
        let x = key ^ last
        if x == 0 { return 0 }
        let position = (63 &- x.leadingZeroBitCount) &>> 2
        let digit = Int(truncatingIfNeeded: (key &>> UInt64(position &<< 2)) & 15)
        return 1 &+ (position &<< 4) &+ digit
    }

    /// The earliest time a push may use: the last popped time.
    @inlinable
    public var floorTime: SimTime { Self.time(floorKey) }
}

// MARK: - Push, pop, peek

extension EventQueue {
    /// Adds an event at `time` carrying `id` and returns its handle.
    ///
    /// - Precondition: `time` is not before ``floorTime``.
    /// - Complexity: O(1) amortised.
    @inlinable
    @discardableResult
    public mutating func push(_ time: SimTime, id: UInt32) -> EventHandle {
        var key = Self.key(time)
        #if BGBENCH_INVARIANTS
        precondition(key >= floorKey, "EventQueue: push at \(time) before the last popped time \(floorTime)")
        #endif
        if key < last { key = last }  // release builds: a past event is served at the pivot
        let handle = allocateSlot(id)
        insert(Entry(key: key, slot: handle.slot, generation: handle.generation))
        liveCount &+= 1
        return handle
    }

    /// Removes and returns the earliest pending event (the first pushed among
    /// equal times).
    ///
    /// - Complexity: O(1) amortised; an event is moved between buckets at
    ///   most 16 times over its life, typically two or three.
    @inlinable
    public mutating func popMin() -> (time: SimTime, id: UInt32)? {
        while true {
            let front = buckets[0]
            if front.first >= 0 {
                let chunk = Int(front.first)
                let entry = pool[chunk &* Self.chunkSize &+ head]
                head &+= 1
                let end = front.first == front.last ? Int(front.fill) : Self.chunkSize
                if head == end { advanceFrontChunk() }
                let slot = Int(entry.slot)
                if slots[slot].generation == entry.generation {
                    let id = slots[slot].id
                    releaseSlot(entry.slot)
                    liveCount &-= 1
                    floorKey = entry.key
                    return (Self.time(entry.key), id)
                }
                staleCount &-= 1
                continue
            }
            guard let b = lowestOccupiedBucket() else {
                // Nothing left, not even stale entries: fall back to the last
                // served time so pushes after it but before a skipped stale key stay legal.
                last = floorKey
                return nil
            }
            redistribute(b)
        }
    }

    /// The time of the earliest pending event, without removing it.
    ///
    /// - Complexity: O(1) unless cancelled events wait at the front; then a
    ///   scan of the lowest bucket holding a live event. ``popMin()`` never
    ///   needs it.
    @inlinable
    public func peekTime() -> SimTime? {
        if liveCount == 0 { return nil }
        if let _ = firstLiveKey(inBucket: 0, stopAtFirst: true) { return Self.time(last) }
        for word in 0..<4 {
            var mask = occupied[word]
            while mask != 0 {
                let b = word &<< 6 &+ mask.trailingZeroBitCount &+ 1
                if staleCount == 0 { return Self.time(buckets[b].min) }
                if let key = firstLiveKey(inBucket: b, stopAtFirst: false) { return Self.time(key) }
                mask &= mask &- 1
            }
        }
        return nil
    }

    @inlinable @inline(__always)
    func isLive(_ entry: Entry) -> Bool {
        slots[Int(entry.slot)].generation == entry.generation
    }
}
