/// The queue's storage: one class instance owning raw buffers, so the hot
/// path has no array bounds or uniqueness checks, no reference counting and
/// no allocation per event. All pointer code works through ``EventQueue/Core``,
/// reached only via `storage.core`; ``EventQueue`` keeps value semantics by
/// copying the storage on the first mutation of a shared queue.
extension EventQueue {
    /// One bucket entry: 16 bytes. The id travels with the entry so that a
    /// pop touches the slot table only with a blind store (no load miss).
    @usableFromInline
    struct Entry: Sendable {
        /// The time as an order-preserving unsigned key (see ``EventQueue/key(_:)``).
        @usableFromInline var key: UInt64
        @usableFromInline var id: UInt32
        @usableFromInline var slot: UInt32

        @inlinable @inline(__always)
        init(key: UInt64, id: UInt32, slot: UInt32) {
            self.key = key
            self.id = id
            self.slot = slot
        }
    }

    /// A slot: the caller's id and the generation (push stamp) of the event
    /// holding it. A free slot's `id` is the next free slot, threading the free
    /// list through the table. Whether a slot holds a pending event is a bit
    /// in `Core.live`.
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

        @inlinable @inline(__always)
        init(min: UInt64, first: Int32, last: Int32, fill: Int32) {
            self.min = min
            self.first = first
            self.last = last
            self.fill = fill
        }

        @inlinable static var empty: Bucket { Bucket(min: .max, first: -1, last: -1, fill: 0) }
    }

    /// Bits per radix digit: 2^digitBits buckets per digit position.
    @usableFromInline static let digitBits = 6
    @usableFromInline static let radix = 1 << digitBits
    @usableFromInline static let digitPositions = (64 + digitBits - 1) / digitBits
    /// Bucket 0 plus one bucket per (digit position, digit value).
    @usableFromInline static let bucketCount = 1 + digitPositions * radix
    @usableFromInline static let occupancyWords = (digitPositions * radix + 63) / 64
    @usableFromInline static let chunkSize = 16
    /// A lowest bucket with at most this many entries is sorted into the run
    /// instead of being redistributed.
    @usableFromInline static let runThreshold = 16
    @usableFromInline static let runCapacity = 32
    @usableFromInline static let noSlot = UInt32.max
    /// Stale entries are purged once they exceed both the live count and this.
    @usableFromInline static let compactionFloor = 1024

    /// Owns the buffers of one ``Core``; frees them on deinit.
    @usableFromInline
    final class Storage: @unchecked Sendable {  // mutated only through a uniquely referenced queue
        @usableFromInline let core: UnsafeMutablePointer<Core>

        init(minimumCapacity: Int) {
            core = .allocate(capacity: 1)
            core.initialize(to: Core(minimumCapacity: minimumCapacity))
        }

        @usableFromInline
        init(copying other: Storage) {
            core = .allocate(capacity: 1)
            core.initialize(to: Core(copying: other.core.pointee))
        }

        deinit {
            core.pointee.deallocate()
            core.deinitialize(count: 1)
            core.deallocate()
        }
    }
}

extension EventQueue.Core {
    init(minimumCapacity: Int) {
        let chunks = max(64, (minimumCapacity + EventQueue.chunkSize - 1) / EventQueue.chunkSize + 32)
        pool = .allocate(capacity: chunks * EventQueue.chunkSize)
        chunkNext = .allocate(capacity: chunks)
        chunkCount = 0
        chunkCapacity = chunks
        freeChunk = -1
        buckets = .allocate(capacity: EventQueue.bucketCount)
        buckets.initialize(repeating: .empty, count: EventQueue.bucketCount)
        occupied = .allocate(capacity: EventQueue.occupancyWords)
        occupied.initialize(repeating: 0, count: EventQueue.occupancyWords)
        slotCapacity = max(64, minimumCapacity)
        slots = .allocate(capacity: slotCapacity)
        live = .allocate(capacity: slotCapacity / 64 + 1)
        live.initialize(repeating: 0, count: slotCapacity / 64 + 1)
        run = .allocate(capacity: EventQueue.runCapacity)
        runCount = 0
        runLimit = 0
        slotCount = 0
        freeSlot = EventQueue.noSlot
        spareSlot = EventQueue.noSlot
        pushStamp = 0
        head = 0
        last = 0
        floorKey = 0
        liveCount = 0
        staleCount = 0
    }

    init(copying other: EventQueue.Core) {
        self = other
        pool = .allocate(capacity: other.chunkCapacity * EventQueue.chunkSize)
        pool.initialize(from: other.pool, count: other.chunkCount * EventQueue.chunkSize)
        chunkNext = .allocate(capacity: other.chunkCapacity)
        chunkNext.initialize(from: other.chunkNext, count: other.chunkCount)
        buckets = .allocate(capacity: EventQueue.bucketCount)
        buckets.initialize(from: other.buckets, count: EventQueue.bucketCount)
        occupied = .allocate(capacity: EventQueue.occupancyWords)
        occupied.initialize(from: other.occupied, count: EventQueue.occupancyWords)
        slots = .allocate(capacity: other.slotCapacity)
        slots.initialize(from: other.slots, count: other.slotCount)
        live = .allocate(capacity: other.slotCapacity / 64 + 1)
        live.initialize(from: other.live, count: other.slotCapacity / 64 + 1)
        run = .allocate(capacity: EventQueue.runCapacity)
        run.initialize(from: other.run, count: other.runCount)
    }

    func deallocate() {
        pool.deallocate()
        chunkNext.deallocate()
        buckets.deallocate()
        occupied.deallocate()
        slots.deallocate()
        live.deallocate()
        run.deallocate()
    }

    /// Adds chunks to the pool, growing by a quarter (not doubling) to keep
    /// spare memory per event small. Amortised O(1) per chunk.
    @usableFromInline
    mutating func growPool() {
        let capacity = chunkCapacity + max(64, chunkCapacity / 4)
        precondition(capacity < Int(Int32.max), "EventQueue: pool exhausted")
        let newPool = UnsafeMutablePointer<EventQueue.Entry>.allocate(capacity: capacity * EventQueue.chunkSize)
        newPool.moveInitialize(from: pool, count: chunkCount * EventQueue.chunkSize)
        pool.deallocate()
        pool = newPool
        let newNext = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        newNext.moveInitialize(from: chunkNext, count: chunkCount)
        chunkNext.deallocate()
        chunkNext = newNext
        chunkCapacity = capacity
    }

    /// Grows the slot table by a quarter.
    @usableFromInline
    mutating func growSlots() {
        let capacity = slotCapacity + max(64, slotCapacity / 4)
        precondition(capacity < Int(EventQueue.noSlot), "EventQueue: more than 2^32 - 1 pending events")
        let newSlots = UnsafeMutablePointer<EventQueue.Slot>.allocate(capacity: capacity)
        newSlots.moveInitialize(from: slots, count: slotCount)
        slots.deallocate()
        slots = newSlots
        let newLive = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity / 64 + 1)
        newLive.moveInitialize(from: live, count: slotCapacity / 64 + 1)
        (newLive + slotCapacity / 64 + 1).initialize(repeating: 0, count: capacity / 64 - slotCapacity / 64)
        live.deallocate()
        live = newLive
        slotCapacity = capacity
    }

    /// Bytes allocated (capacity, not count).
    var allocatedBytes: Int {
        chunkCapacity * (EventQueue.chunkSize * MemoryLayout<EventQueue.Entry>.stride + MemoryLayout<Int32>.stride)
            + EventQueue.bucketCount * MemoryLayout<EventQueue.Bucket>.stride
            + EventQueue.occupancyWords * MemoryLayout<UInt64>.stride
            + EventQueue.runCapacity * MemoryLayout<EventQueue.Entry>.stride
            + slotCapacity * MemoryLayout<EventQueue.Slot>.stride
            + (slotCapacity / 64 + 1) * MemoryLayout<UInt64>.stride
    }
}
