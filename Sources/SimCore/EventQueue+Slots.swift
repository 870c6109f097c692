/// The slot table behind ``EventHandle``s: ids, generations and a free list.
extension EventQueue {
    @inlinable @inline(__always)
    mutating func allocateSlot(_ id: UInt32) -> EventHandle {
        if freeHead != Self.noSlot {
            let slot = freeHead
            let i = Int(slot)
            freeHead = slots[i].id
            slots[i].id = id
            slots[i].generation &+= 1  // even (free) -> odd (occupied)
            return EventHandle(slot: slot, generation: slots[i].generation)
        }
        precondition(slots.count < Int(Self.noSlot), "EventQueue: more than 2^32 - 1 pending events")
        if slots.count == slots.capacity {
            // Grow by a quarter rather than doubling: less spare memory per event.
            slots.reserveCapacity(slots.count + max(64, slots.count / 4))
        }
        slots.append(Slot(id: id, generation: 1))
        return EventHandle(slot: UInt32(truncatingIfNeeded: slots.count &- 1), generation: 1)
    }

    @inlinable @inline(__always)
    mutating func releaseSlot(_ slot: UInt32) {
        let i = Int(slot)
        slots[i].generation &+= 1  // odd -> even: every handle to it is now stale
        slots[i].id = freeHead
        freeHead = slot
    }

    /// Whether `handle` names a pending event.
    @inlinable
    public func contains(_ handle: EventHandle) -> Bool {
        Int(handle.slot) < slots.count && handle.generation & 1 == 1
            && slots[Int(handle.slot)].generation == handle.generation
    }

    /// The id of the pending event `handle` names, or `nil` if it is stale.
    @inlinable
    public func id(of handle: EventHandle) -> UInt32? {
        contains(handle) ? slots[Int(handle.slot)].id : nil
    }
}

// MARK: - Cancel and reschedule

extension EventQueue {
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
    /// if the handle is stale.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    public mutating func remove(_ handle: EventHandle) -> UInt32? {
        guard contains(handle) else { return nil }
        let id = slots[Int(handle.slot)].id
        releaseSlot(handle.slot)
        liveCount &-= 1
        staleCount &+= 1
        if staleCount > Self.compactionFloor && staleCount > count { purgeStale() }
        return id
    }

    /// Moves the pending event `handle` names to `time` (keeping its id) and
    /// returns its new handle; the old handle becomes stale. `nil`, and no
    /// change, if `handle` is stale. The event goes after events already
    /// pending at `time`.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable
    public mutating func reschedule(_ handle: EventHandle, to time: SimTime) -> EventHandle? {
        guard let id = remove(handle) else { return nil }
        return push(time, id: id)
    }

    /// Drops every stale entry, keeping the order of the rest.
    ///
    /// - Complexity: O(number of entries).
    @usableFromInline
    mutating func purgeStale() {
        for b in 0..<Self.bucketCount where buckets[b].first >= 0 {
            // Detach the bucket and append its live entries back. Chunks are
            // freed only after being read, so reuse cannot clobber unread ones.
            let old = buckets[b]
            var start = b == 0 ? head : 0
            buckets[b] = .empty
            if b == 0 { head = 0 }
            var chunk = old.first
            while chunk >= 0 {
                let end = chunk == old.last ? Int(old.fill) : Self.chunkSize
                let base = Int(chunk) &* Self.chunkSize
                for i in (base + start)..<(base + end) where isLive(pool[i]) { append(pool[i], to: b) }
                start = 0
                let next = chunkNext[Int(chunk)]
                releaseChunk(chunk)
                chunk = next
            }
            if b != 0 && buckets[b].first < 0 {
                let bit = b - 1
                occupied[bit >> 6] &= ~(1 << UInt64(bit & 63))
            }
        }
        staleCount = 0
    }

    /// Bytes currently allocated for entries, chunk links, buckets and slots
    /// (capacity, not count).
    public var allocatedBytes: Int {
        pool.capacity * MemoryLayout<Entry>.stride
            + chunkNext.capacity * MemoryLayout<Int32>.stride
            + buckets.capacity * MemoryLayout<Bucket>.stride
            + slots.capacity * MemoryLayout<Slot>.stride
    }
}
