/// An indexed priority queue over a fixed set of timer slots: each slot
/// holds at most one time (``SimTime/distantFuture``: none), changed in
/// place by ``update(_:to:)``, and ``earliest()`` answers the earliest
/// slot, ties going to the lowest slot index.
///
/// The shape of a discrete-event simulation whose sources each have one
/// next event (a device's task end, network cursor, battery alarm, policy
/// wake; one timer per app of a per-app mechanism): a source never has two
/// pending events, so there is nothing to push or pop, only a key to move.
/// The slot index is the tie order: number the slots in the order equal
/// times must be handled, and the agenda keeps that order exactly.
///
/// Two layouts, picked from the slot count (``Layout/automatic``):
///
/// - **Scan** (at most ``scanCrossover`` slots): `update` is a store,
///   `earliest` a linear scan of the slots' times. Below the crossover a
///   scan of a few cache lines costs less than keeping any structure up to
///   date, because a device event moves several timers (the fired one, the
///   policy's wake, the battery alarm) and asks for the minimum once.
/// - **Blocks** (above): a two-level tournament of fan-out ``blockSize``.
///   The slots are cut into blocks of ``blockSize`` adjacent slots, each
///   block keeping its winner (time and slot); `earliest` plays the final
///   among the block winners (a scan of `count / blockSize` times). An
///   `update` that makes its slot earlier than its block's winner takes
///   its place; one that moves the block's winner later replays the
///   block (a scan of ``blockSize`` contiguous times); any other is a
///   store. A device event then costs one block and one final instead of
///   every slot: at 203 slots 16 + 13 times instead of 203. A binary
///   tournament tree and a 16-ary tree with a stored root were measured
///   slower at every size up to 203 slots (their per-level bookkeeping
///   costs more than a 16-wide scan of contiguous times):
///   Docs/Performance.md, "The event core". Past about a thousand slots
///   the final would grow long enough to want a third level.
///
/// A fixed allocation, like the simulator's other per-run tables: a class
/// whose storage is allocated once and written in place, so that an update
/// is a few instructions and pays no copy-on-write check (a struct over an
/// array paid one per update, about a third of the cost of a device
/// event at 29 slots: Docs/Performance.md). One owner at a time: a second
/// owner takes a ``copy()``. The storage is reached through one pointer
/// that never leaves the class (the scoped handle of its unchecked
/// accesses, at slots checked against ``count`` and at their blocks'
/// entries); ``checkInvariants()`` replays every block and is compiled
/// only with `BGBENCH_INVARIANTS` (debug builds and tests).
public final class TimerAgenda: @unchecked Sendable {
    /// How the agenda finds its earliest slot.
    public enum Layout: Sendable, Hashable {
        /// A scan up to ``TimerAgenda/scanCrossover`` slots, blocks above.
        case automatic
        /// Always a linear scan (for measuring the crossover).
        case scan
        /// Always blocks (for measuring the crossover).
        case blocks
    }

    /// The largest slot count for which ``Layout/automatic`` scans.
    /// Measured with the `event-core-layout` benchmark (one event moves
    /// three timers and asks for the minimum once): Docs/Performance.md.
    public static let scanCrossover = 32

    /// Slots per block (the fan-out of the tournament's first level).
    public static let blockSize = 16

    /// The number of slots, fixed at creation.
    public let count: Int
    /// Whether blocks are kept (else `earliest` scans every slot).
    public let usesBlocks: Bool
    /// The number of blocks (0 when scanning).
    public let blockCount: Int
    // The storage is internal, not private, so that `update` and
    // `earliest` inline into the device loop (another module).
    /// The slots' times (microseconds, `Int64.max`: none) at
    /// `0 ..< count`; with blocks, each block's winning time at `count + b`
    /// and its winning slot at `count + blockCount + b`.
    @usableFromInline let store: UnsafeMutablePointer<Int64>
    /// The number of `Int64` at `store`.
    @usableFromInline let storeCount: Int

    /// An agenda of `count` slots (at least 1), all empty.
    ///
    /// - Complexity: O(`count`).
    public init(count: Int, layout: Layout = .automatic) {
        precondition(count >= 1 && count <= 1 << 30, "a TimerAgenda holds between 1 and 2^30 slots")
        self.count = count
        let blocks = switch layout {
        case .automatic: count > Self.scanCrossover
        case .scan: false
        case .blocks: true
        }
        usesBlocks = blocks
        blockCount = blocks ? (count + Self.blockSize - 1) / Self.blockSize : 0
        storeCount = count + 2 * blockCount
        store = .allocate(capacity: storeCount)
        store.initialize(repeating: .max, count: count + blockCount)
        // All times equal: each block's winner is its first slot.
        for b in 0..<blockCount { (store + count + blockCount + b).initialize(to: Int64(b * Self.blockSize)) }
    }

    /// A second agenda with the same times, for another owner.
    ///
    /// - Complexity: O(`count`).
    public func copy() -> TimerAgenda {
        let c = TimerAgenda(count: count, layout: usesBlocks ? .blocks : .scan)
        c.store.update(from: store, count: storeCount)
        return c
    }

    deinit { store.deallocate() }

    /// The time in `slot` (``SimTime/distantFuture``: none).
    ///
    /// - Complexity: O(1).
    @inlinable
    public subscript(slot: Int) -> SimTime {
        precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "slot out of range")
        return SimTime(microseconds: store[slot])
    }

    /// Sets the time in `slot` (``SimTime/distantFuture`` empties it): the
    /// one call by which every timer source reports a change.
    ///
    /// - Complexity: O(1), but O(``blockSize``) when `slot` held its
    ///   block's winning time and moves later.
    @inlinable @inline(__always)
    public func update(_ slot: Int, to time: SimTime) {
        precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "slot out of range")
        let t = time.microseconds
        let p = store
        guard usesBlocks else {
            p[slot] = t
            return
        }
        // Unchanged (as most of the device's timers are at a given step):
        // nothing to replay.
        guard p[slot] != t else { return }
        p[slot] = t
        do {
            let n = count, nb = blockCount
            let b = slot / Self.blockSize
            let winTime = p[n &+ b], winSlot = Int(truncatingIfNeeded: p[n &+ nb &+ b])
            if t < winTime || (t == winTime && slot < winSlot) {
                p[n &+ b] = t
                p[n &+ nb &+ b] = Int64(slot)
            } else if winSlot == slot {
                // The block's winner moved later: the block's match again.
                let first = b &* Self.blockSize
                let end = Swift.min(first &+ Self.blockSize, n)
                let (best, bestTime) = Self.minimum(UnsafePointer(p), from: first, to: end)
                p[n &+ b] = bestTime
                p[n &+ nb &+ b] = Int64(best)
            }
        }
    }

    /// The earliest slot and its time; ties go to the lowest slot. Every
    /// slot empty: slot 0 at ``SimTime/distantFuture``.
    ///
    /// - Complexity: O(`count`) when scanning; O(`count` / ``blockSize``)
    ///   with blocks.
    @inlinable @inline(__always)
    public func earliest() -> (time: SimTime, slot: Int) {
        let p = UnsafePointer(store)
        guard usesBlocks else {
            let (slot, t) = Self.minimum(p, from: 0, to: count)
            return (SimTime(microseconds: t), slot)
        }
        // The final among the block winners' times (blocks are in slot
        // order, so the first of equal times is the lowest slot).
        let (best, t) = Self.minimum(p, from: count, to: count &+ blockCount)
        return (SimTime(microseconds: t), Int(truncatingIfNeeded: p[best &+ blockCount]))
    }

    /// The index and value of the first minimum of `p[first ..< end]` (not empty).
    @inlinable @inline(__always)
    static func minimum(_ p: UnsafePointer<Int64>, from first: Int, to end: Int) -> (Int, Int64) {
        var best = first
        var t = p[first]
        // `<`, not `<=`: the first of equal times stays.
        for i in (first &+ 1)..<end where p[i] < t { t = p[i]; best = i }
        return (best, t)
    }

    /// Traps if a block does not hold the winner of its slots' match; a
    /// no-op unless `BGBENCH_INVARIANTS` is defined.
    ///
    /// - Complexity: O(`count`).
    public func checkInvariants() {
        #if BGBENCH_INVARIANTS
        precondition(storeCount == count + 2 * blockCount, "store holds the slots and two entries per block")
        for b in 0..<blockCount {
            let first = b * Self.blockSize
            var best = first
            for i in first..<min(first + Self.blockSize, count) where store[i] < store[best] { best = i }
            precondition(store[count + b] == store[best] && store[count + blockCount + b] == Int64(best),
                         "block \(b) holds slot \(store[count + blockCount + b]), its match gives \(best)")
        }
        #endif
    }
}
