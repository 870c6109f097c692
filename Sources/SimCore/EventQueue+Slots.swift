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
        let table = slots
        func stale(_ e: Entry) -> Bool { table[Int(e.slot)].generation != e.generation }
        buckets[0].removeSubrange(0..<head)
        head = 0
        for b in 0..<Self.bucketCount where !buckets[b].isEmpty {
            buckets[b].removeAll(where: stale)
            bucketMin[b] = .max
            if b == 0 { continue }
            if buckets[b].isEmpty {
                occupied &= ~(1 &<< UInt64(b &- 1))
            } else {
                for e in buckets[b] where e.key < bucketMin[b] { bucketMin[b] = e.key }
            }
        }
        staleCount = 0
    }

    /// Bytes currently allocated for entries and slots (capacity, not count).
    public var allocatedBytes: Int {
        var total = slots.capacity * MemoryLayout<Slot>.stride
        for bucket in buckets { total += bucket.capacity * MemoryLayout<Entry>.stride }
        return total
    }
}
