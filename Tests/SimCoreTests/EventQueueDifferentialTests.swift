import TestSupport
import XCTest
@testable import SimCore

/// Randomized differential tests: the queue against a sorted reference
/// (a plain array scanned for the minimum by (time, insertion sequence)).
final class EventQueueDifferentialTests: XCTestCase {
    struct Pending {
        var time: Int64
        var sequence: Int
        var id: UInt32
        var handle: EventHandle
    }

    /// How the next push time is chosen: shapes that stress different buckets.
    enum Spread: CaseIterable { case ties, small, wide, huge, boundaries }

    func nextTime(floor: Int64, spread: Spread, random: inout TestRandom) -> Int64 {
        switch spread {
        case .ties: return floor + Int64(random.below(4))
        case .small: return floor + Int64(random.below(300))
        case .wide: return floor + Int64(random.below(1 << 24))
        case .huge: return floor + Int64(random.bits() >> UInt64(22 + random.below(40)))
        case .boundaries:
            // Just below and above powers of 16 and 2 relative to the floor.
            let shift = Int64(random.below(40))
            return floor + max(0, (Int64(1) << shift) - Int64(random.below(3)))
        }
    }

    /// One seeded case; returns the number of operations checked.
    @discardableResult
    func runCase(seed: UInt64, operations: Int, checkEvery: Int) -> Int {
        var random = TestRandom(seed: seed)
        let spread = Spread.allCases[random.below(Spread.allCases.count)]
        var queue = random.chance(0.5) ? EventQueue() : EventQueue(minimumCapacity: random.below(500))
        var reference: [Pending] = []
        var stale: [EventHandle] = []
        var sequence = 0
        var floor = Int64(random.below(3)) == 0 ? -Int64(random.below(1 << 40)) : Int64(random.below(1 << 30))
        var nextID: UInt32 = 0
        // Phases of growth and shrinkage.
        var pushBias = 0.7
        for step in 0..<operations {
            if step % 64 == 0 { pushBias = [0.25, 0.5, 0.7, 0.9][random.below(4)] }
            let r = random.below(100)
            if Double(r) < pushBias * 80 {
                let time = nextTime(floor: floor, spread: spread, random: &random)
                let h = queue.push(SimTime(microseconds: time), id: nextID)
                reference.append(Pending(time: time, sequence: sequence, id: nextID, handle: h))
                sequence += 1
                nextID &+= 1
            } else if r < 85 {
                let got = queue.popMin()
                if reference.isEmpty {
                    XCTAssertNil(got, "seed \(seed) step \(step): popped from empty")
                } else {
                    let i = reference.indices.min { (reference[$0].time, reference[$0].sequence) < (reference[$1].time, reference[$1].sequence) }!
                    let want = reference.remove(at: i)
                    guard let got else { XCTFail("seed \(seed) step \(step): queue empty, expected \(want.time)"); return step }
                    XCTAssertEqual(got.time.microseconds, want.time, "seed \(seed) step \(step)")
                    XCTAssertEqual(got.id, want.id, "seed \(seed) step \(step)")
                    if got.id != want.id { return step }
                    stale.append(want.handle)
                    floor = want.time
                }
            } else if r < 93 {
                if !reference.isEmpty && random.chance(0.85) {
                    let i = random.below(reference.count)
                    let victim = reference.remove(at: i)
                    if random.chance(0.5) {
                        XCTAssertTrue(queue.cancel(victim.handle), "seed \(seed) step \(step): cancel")
                    } else {
                        XCTAssertEqual(queue.remove(victim.handle), victim.id, "seed \(seed) step \(step): remove")
                    }
                    stale.append(victim.handle)
                } else if !stale.isEmpty {
                    let h = random.pick(stale)
                    XCTAssertFalse(queue.cancel(h), "seed \(seed) step \(step): stale cancel succeeded")
                }
            } else if r < 97 {
                if !reference.isEmpty {
                    let i = random.below(reference.count)
                    let time = nextTime(floor: floor, spread: spread, random: &random)
                    guard let moved = queue.reschedule(reference[i].handle, to: SimTime(microseconds: time)) else {
                        XCTFail("seed \(seed) step \(step): reschedule of a pending event failed"); return step
                    }
                    stale.append(reference[i].handle)
                    reference[i].handle = moved
                    reference[i].time = time
                    reference[i].sequence = sequence
                    sequence += 1
                } else if !stale.isEmpty {
                    let h = random.pick(stale)
                    XCTAssertNil(queue.reschedule(h, to: SimTime(microseconds: floor)))
                }
            } else {
                let want = reference.map { $0.time }.min()
                XCTAssertEqual(queue.peekTime()?.microseconds, want, "seed \(seed) step \(step): peek")
            }
            XCTAssertEqual(queue.count, reference.count, "seed \(seed) step \(step): count")
            if step % checkEvery == 0 { queue.checkInvariants() }
        }
        // Drain and compare the rest.
        reference.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        for want in reference {
            let got = queue.popMin()
            XCTAssertEqual(got?.time.microseconds, want.time, "seed \(seed) drain")
            XCTAssertEqual(got?.id, want.id, "seed \(seed) drain")
        }
        XCTAssertNil(queue.popMin())
        queue.checkInvariants()
        return operations
    }

    func testThousandsOfSeededCases() {
        for seed in 0..<3_000 as Range<UInt64> {
            runCase(seed: seed, operations: 150 + Int(seed % 7) * 40, checkEvery: seed < 200 ? 1 : 37)
        }
    }

    func testLongCasesWithGrowthAndShrink() {
        for seed in 10_000..<10_012 as Range<UInt64> {
            runCase(seed: seed, operations: 20_000, checkEvery: 997)
        }
    }

    /// Heavy cancellation crosses the purge threshold many times.
    func testCancelHeavyAgainstReference() {
        var random = TestRandom(seed: 99)
        var queue = EventQueue()
        var pending: [UInt32: (time: Int64, sequence: Int, handle: EventHandle)] = [:]
        var sequence = 0
        var floor: Int64 = 0
        for id in 0..<1_100 as Range<UInt32> {
            let time = Int64(random.below(1_000_000))
            pending[id] = (time, sequence, queue.push(SimTime(microseconds: time), id: id))
            sequence += 1
        }
        var maximumStale = 0
        for round in 0..<20_000 {
            // Reschedule four random events, then pop one and push it back.
            for _ in 0..<4 {
                let id = UInt32(random.below(1_100))
                guard let p = pending[id] else { continue }
                let time = floor + Int64(random.below(1_000_000))
                let h = queue.reschedule(p.handle, to: SimTime(microseconds: time))!
                pending[id] = (time, sequence, h)
                sequence += 1
            }
            let want = pending.min { ($0.value.time, $0.value.sequence) < ($1.value.time, $1.value.sequence) }!
            let got = queue.popMin()!
            XCTAssertEqual(got.id, want.key, "round \(round)")
            XCTAssertEqual(got.time.microseconds, want.value.time)
            if got.id != want.key { return }
            floor = got.time.microseconds
            let time = floor + Int64(random.below(1_000_000))
            pending[got.id] = (time, sequence, queue.push(SimTime(microseconds: time), id: got.id))
            sequence += 1
            if round % 4_999 == 0 { queue.checkInvariants() }
            maximumStale = max(maximumStale, queue.storage.core.pointee.staleCount)
        }
        queue.checkInvariants()
        // Stale entries are purged once they pass both the floor and the live count.
        XCTAssertLessThanOrEqual(maximumStale, max(EventQueue.compactionFloor, 1_100) + 1)
    }
}
