/// The radix heap itself, on raw buffers. All pointer code of the queue is
/// in methods of `Core` (this file, `+Run`, `+Slots`, `+Invariants`) and in
/// ``EventQueue/Storage``, which owns the buffers; callers reach a `Core`
/// only through a uniquely referenced ``EventQueue``.
extension EventQueue {
    @usableFromInline
    struct Core {
        /// Chunk `c` is `pool[c * chunkSize ..< (c + 1) * chunkSize]`.
        @usableFromInline var pool: UnsafeMutablePointer<Entry>
        /// Next chunk in a bucket's list or in the free list; -1 ends a list.
        @usableFromInline var chunkNext: UnsafeMutablePointer<Int32>
        @usableFromInline var chunkCount: Int
        @usableFromInline var chunkCapacity: Int
        @usableFromInline var freeChunk: Int32
        /// Bucket 0 holds keys equal to `last`; bucket `b` ≥ 1, see ``bucketIndex(_:)``.
        @usableFromInline var buckets: UnsafeMutablePointer<Bucket>
        /// Bit `(b - 1) % 64` of word `(b - 1) / 64` is set when bucket `b` ≥ 1 is non-empty.
        @usableFromInline var occupied: UnsafeMutablePointer<UInt64>
        @usableFromInline var slots: UnsafeMutablePointer<Slot>
        /// Bit `s % 64` of word `s / 64` is set while slot `s` holds a pending
        /// event. 1 bit per event, so it stays in cache where the slot table
        /// would not: a pop tests liveness here.
        @usableFromInline var live: UnsafeMutablePointer<UInt64>
        @usableFromInline var slotCount: Int
        @usableFromInline var slotCapacity: Int
        @usableFromInline var freeSlot: UInt32
        /// One free slot kept out of the list: a pop parks its slot here and
        /// the next push takes it, so a pop+push pair touches the slot table
        /// once (the push's store) instead of linking and unlinking it.
        @usableFromInline var spareSlot: UInt32
        /// Counts pushes (wrapping); each push's value is its handle's generation.
        @usableFromInline var pushStamp: UInt32
        /// The run: a few of the earliest entries sorted by key, descending
        /// (ties: later pushes first), served from the end. When it is
        /// non-empty, every key in it is ≤ `runLimit` < every bucketed key,
        /// and bucket 0 is empty.
        @usableFromInline var run: UnsafeMutablePointer<Entry>
        @usableFromInline var runCount: Int
        @usableFromInline var runLimit: UInt64
        /// Read position in bucket 0's first chunk.
        @usableFromInline var head: Int
        /// The radix pivot: the key of the last extracted minimum.
        @usableFromInline var last: UInt64
        /// The key of the last event actually returned by `popMin`.
        @usableFromInline var floorKey: UInt64
        @usableFromInline var liveCount: Int
        /// Entries still in buckets whose event was cancelled.
        @usableFromInline var staleCount: Int
    }
}

// MARK: - Keys and buckets

extension EventQueue.Core {
    /// 0 when `key == last`; otherwise 1 + 16 × (highest 4-bit digit position
    /// where `key` differs from `last`) + (the key's digit there). For keys
    /// ≥ `last` this index order is key order.
    @inlinable @inline(__always)
    func bucketIndex(_ key: UInt64) -> Int {
        let x = key ^ last
        if x == 0 { return 0 }
        let position = (63 &- x.leadingZeroBitCount) / EventQueue.digitBits
        let shift = UInt64(truncatingIfNeeded: position &* EventQueue.digitBits)
        let digit = Int(truncatingIfNeeded: (key &>> shift) & UInt64(EventQueue.radix &- 1))
        return 1 &+ position &* EventQueue.radix &+ digit
    }

    /// Files `entry` in the bucket its key belongs to relative to `last`.
    @inlinable @inline(__always)
    mutating func insert(_ entry: EventQueue.Entry) {
        let b = bucketIndex(entry.key)
        append(entry, to: b)
        if b != 0 {
            let bit = b &- 1
            occupied[bit &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: bit & 63)
        }
    }

    @inlinable @inline(__always)
    mutating func append(_ entry: EventQueue.Entry, to b: Int) {
        let bucket = buckets + b
        if bucket.pointee.last < 0 || Int(bucket.pointee.fill) == EventQueue.chunkSize {
            let chunk = allocateChunk()
            if bucket.pointee.last < 0 {
                bucket.pointee.first = chunk
            } else {
                chunkNext[Int(bucket.pointee.last)] = chunk
            }
            bucket.pointee.last = chunk
            bucket.pointee.fill = 0
        }
        pool[Int(bucket.pointee.last) &* EventQueue.chunkSize &+ Int(bucket.pointee.fill)] = entry
        bucket.pointee.fill &+= 1
        if entry.key < bucket.pointee.min { bucket.pointee.min = entry.key }
    }

    @inlinable @inline(__always)
    mutating func allocateChunk() -> Int32 {
        if freeChunk >= 0 {
            let chunk = freeChunk
            freeChunk = chunkNext[Int(chunk)]
            chunkNext[Int(chunk)] = -1
            return chunk
        }
        if chunkCount == chunkCapacity { growPool() }
        let chunk = Int32(truncatingIfNeeded: chunkCount)
        chunkNext[chunkCount] = -1
        chunkCount &+= 1
        return chunk
    }

    @inlinable @inline(__always)
    mutating func releaseChunk(_ chunk: Int32) {
        chunkNext[Int(chunk)] = freeChunk
        freeChunk = chunk
    }

    /// The non-empty bucket ≥ 1 holding the smallest keys, if any.
    @inlinable @inline(__always)
    func lowestOccupiedBucket() -> Int? {
        for word in 0..<EventQueue.occupancyWords where occupied[word] != 0 {
            return word &<< 6 &+ occupied[word].trailingZeroBitCount &+ 1
        }
        return nil
    }

    /// Empties bucket `b` (the lowest non-empty one, bucket 0 being empty)
    /// into lower buckets around its minimum, which becomes the new pivot.
    /// Entries keep their relative order, so ties stay FIFO.
    @inlinable
    mutating func redistribute(_ b: Int) {
        let moving = buckets[b]
        buckets[b] = .empty
        let bit = b &- 1
        occupied[bit &>> 6] &= ~(1 &<< UInt64(truncatingIfNeeded: bit & 63))
        last = moving.min
        var chunk = moving.first
        while chunk >= 0 {
            let end = chunk == moving.last ? Int(moving.fill) : EventQueue.chunkSize
            // Index from `pool` each time: an insert may grow (move) the pool.
            let base = Int(chunk) &* EventQueue.chunkSize
            for i in base..<(base &+ end) { insert(pool[i]) }
            // Read the link before freeing: the chunk may be reused right away.
            let next = chunkNext[Int(chunk)]
            releaseChunk(chunk)
            chunk = next
        }
    }
}

// MARK: - Push, pop, peek

extension EventQueue.Core {
    @inlinable @inline(__always)
    mutating func push(_ key: UInt64, id: UInt32) -> EventHandle {
        var key = key
        if key < last { key = last }  // release builds: a past event is served at the pivot
        let handle = allocateSlot(id)
        let entry = EventQueue.Entry(key: key, id: id, slot: handle.slot)
        if runCount > 0 && key <= runLimit {
            if runCount == EventQueue.runCapacity { dissolveRun() ; insert(entry) } else { insertIntoRun(entry) }
        } else {
            insert(entry)
        }
        liveCount &+= 1
        return handle
    }

    /// An entry leaving the queue (from the run or the front bucket):
    /// releases its slot and returns it if it is live; a cancelled entry is
    /// dropped (nil). A cancelled event's slot is only reclaimed here, once
    /// its entry has left the buckets, so the live bit cannot belong to a
    /// newer event.
    @inlinable @inline(__always)
    mutating func take(_ entry: EventQueue.Entry) -> (key: UInt64, id: UInt32)? {
        releaseSlot(entry.slot)
        guard isLive(entry) else {
            staleCount &-= 1
            return nil
        }
        clearLive(entry.slot)
        liveCount &-= 1
        floorKey = entry.key
        return (entry.key, entry.id)
    }

    @inlinable @inline(__always)
    mutating func popMin() -> (key: UInt64, id: UInt32)? {
        while true {
            if runCount > 0 {
                runCount &-= 1
                if let popped = take(run[runCount]) { return popped }
                continue
            }
            let front = buckets[0]
            if front.first >= 0 {
                let entry = pool[Int(front.first) &* EventQueue.chunkSize &+ head]
                head &+= 1
                let end = front.first == front.last ? Int(front.fill) : EventQueue.chunkSize
                if head == end { advanceFrontChunk() }
                if let popped = take(entry) { return popped }
                continue
            }
            guard let b = lowestOccupiedBucket() else {
                // Nothing left, not even stale entries: fall back to the last
                // served key so pushes after it but before a skipped stale key stay legal.
                last = floorKey
                return nil
            }
            let lowest = buckets[b]
            if lowest.first == lowest.last && Int(lowest.fill) <= EventQueue.runThreshold {
                formRun(b)
            } else {
                redistribute(b)
            }
        }
    }

    /// Bucket 0's first chunk is used up: free it and move to the next.
    @inlinable @inline(__always)
    mutating func advanceFrontChunk() {
        let front = buckets[0]
        head = 0
        if front.first == front.last {
            releaseChunk(front.first)
            buckets[0] = .empty
        } else {
            let next = chunkNext[Int(front.first)]
            releaseChunk(front.first)
            buckets[0].first = next
        }
    }

    @inlinable
    func peekKey() -> UInt64? {
        if liveCount == 0 { return nil }
        var i = runCount
        while i > 0 {
            i &-= 1
            if isLive(run[i]) { return run[i].key }
        }
        if firstLiveKey(inBucket: 0, stopAtFirst: true) != nil { return last }
        for word in 0..<EventQueue.occupancyWords {
            var mask = occupied[word]
            while mask != 0 {
                let b = word &<< 6 &+ mask.trailingZeroBitCount &+ 1
                if staleCount == 0 { return buckets[b].min }
                if let key = firstLiveKey(inBucket: b, stopAtFirst: false) { return key }
                mask &= mask &- 1
            }
        }
        return nil
    }

    @inlinable @inline(__always)
    func isLive(_ entry: EventQueue.Entry) -> Bool {
        isLive(slot: entry.slot)
    }

    @inlinable @inline(__always)
    func isLive(slot: UInt32) -> Bool {
        live[Int(slot &>> 6)] & (1 &<< UInt64(slot & 63)) != 0
    }

    @inlinable @inline(__always)
    mutating func setLive(_ slot: UInt32) {
        live[Int(slot &>> 6)] |= 1 &<< UInt64(slot & 63)
    }

    @inlinable @inline(__always)
    mutating func clearLive(_ slot: UInt32) {
        live[Int(slot &>> 6)] &= ~(1 &<< UInt64(slot & 63))
    }

    /// The smallest live key in bucket `b` (bucket 0: from `head`), or the
    /// first live one when `stopAtFirst`; `nil` if the bucket has none.
    @inlinable
    func firstLiveKey(inBucket b: Int, stopAtFirst: Bool) -> UInt64? {
        var best: UInt64? = nil
        forEachEntry(inBucket: b) { entry in
            guard isLive(entry) else { return true }
            if best == nil || entry.key < best! { best = entry.key }
            return !stopAtFirst
        }
        return best
    }

    /// Calls `body` on the entries of bucket `b` in order until it returns false.
    @inlinable
    func forEachEntry(inBucket b: Int, _ body: (EventQueue.Entry) -> Bool) {
        let bucket = buckets[b]
        var chunk = bucket.first
        var start = b == 0 ? head : 0
        while chunk >= 0 {
            let end = chunk == bucket.last ? Int(bucket.fill) : EventQueue.chunkSize
            let base = pool + Int(chunk) &* EventQueue.chunkSize
            for i in start..<end where !body(base[i]) { return }
            start = 0
            chunk = chunkNext[Int(chunk)]
        }
    }
}
