/// Bucket storage: chunk lists in one pool, the occupancy mask, and the
/// redistribution step of the radix heap.
extension EventQueue {
    /// Files `entry` in the bucket its key belongs to relative to `last`.
    @inlinable @inline(__always)
    mutating func insert(_ entry: Entry) {
        let b = bucketIndex(entry.key)
        append(entry, to: b)
        if b != 0 {
            let bit = b &- 1
            occupied[bit &>> 6] |= 1 &<< UInt64(bit & 63)
        }
    }

    @inlinable @inline(__always)
    mutating func append(_ entry: Entry, to b: Int) {
        var bucket = buckets[b]
        if bucket.last < 0 || Int(bucket.fill) == Self.chunkSize {
            let chunk = allocateChunk()
            if bucket.last < 0 { bucket.first = chunk } else { chunkNext[Int(bucket.last)] = chunk }
            bucket.last = chunk
            bucket.fill = 0
        }
        pool[Int(bucket.last) &* Self.chunkSize &+ Int(bucket.fill)] = entry
        bucket.fill &+= 1
        if entry.key < bucket.min { bucket.min = entry.key }
        buckets[b] = bucket
    }

    @inlinable @inline(__always)
    mutating func allocateChunk() -> Int32 {
        if freeChunk >= 0 {
            let chunk = freeChunk
            freeChunk = chunkNext[Int(chunk)]
            chunkNext[Int(chunk)] = -1
            return chunk
        }
        return growPool()
    }

    /// Adds a chunk to the pool, growing capacity by a quarter (not the
    /// standard doubling) to keep spare memory per event small.
    @usableFromInline
    mutating func growPool() -> Int32 {
        precondition(chunkNext.count < Int(Int32.max), "EventQueue: pool exhausted")
        if pool.count &+ Self.chunkSize > pool.capacity {
            pool.reserveCapacity(pool.count + max(64 * Self.chunkSize, pool.count / 4))
        }
        if chunkNext.count == chunkNext.capacity {
            chunkNext.reserveCapacity(chunkNext.count + max(64, chunkNext.count / 4))
        }
        let chunk = Int32(chunkNext.count)
        pool.append(contentsOf: repeatElement(Entry(key: 0, slot: 0, generation: 0), count: Self.chunkSize))
        chunkNext.append(-1)
        return chunk
    }

    @inlinable @inline(__always)
    mutating func releaseChunk(_ chunk: Int32) {
        chunkNext[Int(chunk)] = freeChunk
        freeChunk = chunk
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

    /// The non-empty bucket ≥ 1 holding the smallest keys, if any.
    @inlinable @inline(__always)
    func lowestOccupiedBucket() -> Int? {
        for word in 0..<4 where occupied[word] != 0 {
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
        occupied[bit &>> 6] &= ~(1 &<< UInt64(bit & 63))
        last = moving.min
        var chunk = moving.first
        while chunk >= 0 {
            let end = chunk == moving.last ? Int(moving.fill) : Self.chunkSize
            let base = Int(chunk) &* Self.chunkSize
            for i in base..<(base &+ end) { insert(pool[i]) }
            // Read the link before freeing: the chunk may be reused right away.
            let next = chunkNext[Int(chunk)]
            releaseChunk(chunk)
            chunk = next
        }
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
    func forEachEntry(inBucket b: Int, _ body: (Entry) -> Bool) {
        let bucket = buckets[b]
        var chunk = bucket.first
        var start = b == 0 ? head : 0
        while chunk >= 0 {
            let end = chunk == bucket.last ? Int(bucket.fill) : Self.chunkSize
            let base = Int(chunk) &* Self.chunkSize
            for i in (base &+ start)..<(base &+ end) where !body(pool[i]) { return }
            start = 0
            chunk = chunkNext[Int(chunk)]
        }
    }
}
