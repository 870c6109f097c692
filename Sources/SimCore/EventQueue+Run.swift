/// The sorted front run of ``EventQueue``: a ladder-queue-style bottom list
/// that serves the last few entries near `now` without redistributing them.

extension EventQueue.Core {
    /// Sorts bucket `b` (the lowest non-empty one, a single chunk, bucket 0
    /// and the run being empty) into the run. Cheaper than redistributing a
    /// handful of entries over and over down to bucket 0.
    @inlinable
    mutating func formRun(_ b: Int) {
        let bucket = buckets[b]
        buckets[b] = .empty
        let bit = b &- 1
        occupied[bit &>> 6] &= ~(1 &<< UInt64(truncatingIfNeeded: bit & 63))
        let base = pool + Int(bucket.first) &* EventQueue.chunkSize
        var limit: UInt64 = 0
        for i in 0..<Int(bucket.fill) {
            insertIntoRun(base[i])
            if base[i].key > limit { limit = base[i].key }
        }
        releaseChunk(bucket.first)
        runLimit = limit
    }

    /// Inserts into the descending run after every larger key and before
    /// equal ones (so equal keys leave first-in first-out).
    ///
    /// - Complexity: O(run length), at most `runCapacity`.
    @inlinable @inline(__always)
    mutating func insertIntoRun(_ entry: EventQueue.Entry) {
        var i = runCount
        while i > 0 && run[i &- 1].key <= entry.key {
            run[i] = run[i &- 1]
            i &-= 1
        }
        run[i] = entry
        runCount &+= 1
    }

    /// Puts the run back into the buckets (when a push would overflow it).
    /// Its keys are all ≥ `last` and differ from every bucketed key, so
    /// appending them in serving order keeps ties FIFO.
    @usableFromInline
    mutating func dissolveRun() {
        while runCount > 0 {
            runCount -= 1
            insert(run[runCount])
        }
    }
}
