/// The slot table behind ``EventHandle``s (ids, generation stamps, liveness
/// bits, free list), cancellation, and the purge of stale entries.

extension EventQueue.Core {
    @inlinable @inline(__always)
    mutating func allocateSlot(_ id: UInt32) -> EventHandle {
        let index: UInt32
        if spareSlot != EventQueue.noSlot {
            index = spareSlot
            spareSlot = EventQueue.noSlot
        } else if freeSlot != EventQueue.noSlot {
            index = freeSlot
            freeSlot = slots[Int(index)].id
        } else {
            if slotCount == slotCapacity { growSlots() }
            index = UInt32(truncatingIfNeeded: slotCount)
            slotCount &+= 1
        }
        // The generation is a stamp unique to this push, not a per-slot
        // counter: writing it is a blind store, whereas incrementing would
        // load the slot's cache line, a miss on the hot path of big queues.
        pushStamp &+= 1
        slots[Int(index)] = EventQueue.Slot(id: id, generation: pushStamp)
        setLive(index)
        return EventHandle(slot: index, generation: pushStamp)
    }

    /// Puts a slot whose entry has left the buckets back on the free list
    /// (stores only: the slot's line need not be read).
    @inlinable @inline(__always)
    mutating func releaseSlot(_ index: UInt32) {
        if spareSlot == EventQueue.noSlot {
            spareSlot = index
            return
        }
        slots[Int(index)].id = freeSlot
        freeSlot = index
    }

    @inlinable @inline(__always)
    func contains(_ handle: EventHandle) -> Bool {
        Int(handle.slot) < slotCount && isLive(slot: handle.slot)
            && slots[Int(handle.slot)].generation == handle.generation
    }

    @inlinable @inline(__always)
    func id(of handle: EventHandle) -> UInt32? {
        contains(handle) ? slots[Int(handle.slot)].id : nil
    }

    @inlinable
    mutating func remove(_ handle: EventHandle) -> UInt32? {
        guard contains(handle) else { return nil }
        let id = slots[Int(handle.slot)].id
        // The slot stays taken until its entry leaves the buckets (pop or purge).
        clearLive(handle.slot)
        liveCount &-= 1
        staleCount &+= 1
        if staleCount > EventQueue.compactionFloor && staleCount > liveCount { purgeStale() }
        return id
    }

    /// Drops every stale entry, keeping the order of the rest.
    ///
    /// - Complexity: O(number of entries).
    @usableFromInline
    mutating func purgeStale() {
        var kept = 0
        for i in 0..<runCount {
            if isLive(run[i]) { run[kept] = run[i]; kept += 1 } else { releaseSlot(run[i].slot) }
        }
        runCount = kept
        for b in 0..<EventQueue.bucketCount where buckets[b].first >= 0 {
            // Detach the bucket and append its live entries back. Chunks are
            // freed only after being read, so reuse cannot clobber unread ones.
            let old = buckets[b]
            var start = b == 0 ? head : 0
            buckets[b] = .empty
            if b == 0 { head = 0 }
            var chunk = old.first
            while chunk >= 0 {
                let end = chunk == old.last ? Int(old.fill) : EventQueue.chunkSize
                let base = Int(chunk) * EventQueue.chunkSize  // not a pointer: appends may move the pool
                for i in (base + start)..<(base + end) {
                    let entry = pool[i]
                    if isLive(entry) { append(entry, to: b) } else { releaseSlot(entry.slot) }
                }
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
}
