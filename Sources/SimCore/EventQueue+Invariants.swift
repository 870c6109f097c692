/// Structural checks of the radix heap, compiled only with
/// `BGBENCH_INVARIANTS` (debug builds and tests). O(n): call from tests.
extension EventQueue {
    /// Traps with a message if any invariant of the queue is broken; a no-op
    /// when invariant checks are compiled out.
    public func checkInvariants() {
        #if BGBENCH_INVARIANTS
        storage.core.pointee.checkInvariants()
        #endif
    }
}

#if BGBENCH_INVARIANTS
extension EventQueue.Core {
    func checkInvariants() {
        var live = 0, stale = 0
        var slotSeen = Set<UInt32>()
        var chunksInUse = 0

        func visit(_ entry: EventQueue.Entry) {
            precondition(Int(entry.slot) < slotCount, "entry slot out of range")
            precondition(slotSeen.insert(entry.slot).inserted, "slot \(entry.slot) in two entries")
            precondition(entry.key >= last, "key below the pivot")
            if isLive(entry) {
                live += 1
                precondition(slots[Int(entry.slot)].id == entry.id, "slot id differs from entry id")
            } else {
                stale += 1
            }
        }

        // The run: descending, within its limit, and alone at the front.
        for i in 0..<runCount {
            visit(run[i])
            precondition(run[i].key <= runLimit, "run key above runLimit")
            if i > 0 { precondition(run[i - 1].key >= run[i].key, "run not sorted") }
        }
        if runCount > 0 { precondition(buckets[0].first < 0, "bucket 0 and the run both non-empty") }

        for b in 0..<EventQueue.bucketCount {
            let bucket = buckets[b]
            if b > 0 {
                let bit = b - 1
                let occupiedBit = occupied[bit >> 6] & (1 << UInt64(bit & 63)) != 0
                precondition(occupiedBit == (bucket.first >= 0), "occupancy bit of bucket \(b) wrong")
            }
            if bucket.first < 0 {
                precondition(bucket.last < 0, "empty bucket \(b) with a last chunk")
                continue
            }
            precondition(bucket.fill >= 1 && Int(bucket.fill) <= EventQueue.chunkSize, "bucket \(b) fill")
            var chunk = bucket.first
            while chunk >= 0 {
                chunksInUse += 1
                chunk = chunk == bucket.last ? -1 : chunkNext[Int(chunk)]
            }
            var minimum = UInt64.max
            forEachEntry(inBucket: b) { entry in
                visit(entry)
                precondition(bucketIndex(entry.key) == b, "key in bucket \(b) belongs in \(bucketIndex(entry.key))")
                if runCount > 0 { precondition(entry.key > runLimit, "bucketed key not above the run") }
                minimum = Swift.min(minimum, entry.key)
                return true
            }
            if b > 0 { precondition(bucket.min == minimum, "cached minimum of bucket \(b) wrong") }
        }
        precondition(live == liveCount, "live count \(liveCount), found \(live)")
        precondition(stale == staleCount, "stale count \(staleCount), found \(stale)")

        var liveBits = 0
        for s in 0..<slotCount where isLive(slot: UInt32(s)) { liveBits += 1 }
        precondition(liveBits == liveCount, "live bits \(liveBits) but \(liveCount) live events")

        var freeSlots = 0
        var s = freeSlot
        while s != EventQueue.noSlot {
            freeSlots += 1
            precondition(freeSlots <= slotCount, "slot free list cycles")
            precondition(!slotSeen.contains(s), "free slot \(s) still in an entry")
            s = slots[Int(s)].id
        }
        if spareSlot != EventQueue.noSlot {
            precondition(!slotSeen.contains(spareSlot), "spare slot \(spareSlot) still in an entry")
            freeSlots += 1
        }
        precondition(freeSlots + slotSeen.count == slotCount, "slots leaked")

        var freeChunks = 0
        var c = freeChunk
        while c >= 0 {
            freeChunks += 1
            precondition(freeChunks <= chunkCount, "chunk free list cycles")
            c = chunkNext[Int(c)]
        }
        precondition(freeChunks + chunksInUse == chunkCount, "chunks leaked")
    }
}
#endif
