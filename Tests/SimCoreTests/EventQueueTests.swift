import TestSupport
import XCTest
@testable import SimCore

private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }

final class EventQueueTests: XCTestCase {
    func testEmptyQueue() {
        var q = EventQueue()
        XCTAssertTrue(q.isEmpty)
        XCTAssertEqual(q.count, 0)
        XCTAssertNil(q.peekTime())
        XCTAssertNil(q.popMin())
        XCTAssertNil(q.popMin())
        XCTAssertFalse(q.cancel(EventHandle(slot: 0, generation: 1)))
        XCTAssertFalse(q.cancel(EventHandle(slot: 12345, generation: 7)))
        XCTAssertNil(q.reschedule(EventHandle(slot: 0, generation: 1), to: t(5)))
        q.checkInvariants()
    }

    func testSingleElement() {
        var q = EventQueue(minimumCapacity: 1)
        let h = q.push(t(42), id: 9)
        XCTAssertEqual(q.count, 1)
        XCTAssertEqual(q.peekTime(), t(42))
        XCTAssertTrue(q.contains(h))
        XCTAssertEqual(q.id(of: h), 9)
        q.checkInvariants()
        let popped = q.popMin()
        XCTAssertEqual(popped?.time, t(42))
        XCTAssertEqual(popped?.id, 9)
        XCTAssertTrue(q.isEmpty)
        XCTAssertNil(q.popMin())
        XCTAssertFalse(q.contains(h))
        XCTAssertFalse(q.cancel(h), "a popped event's handle is stale")
        q.checkInvariants()
    }

    func testOrdersByTime() {
        var q = EventQueue()
        for (i, us) in [50, 10, 40, 20, 30, 0, 1_000_000_000_000].enumerated() { q.push(t(Int64(us)), id: UInt32(i)) }
        var times: [Int64] = []
        while let (time, _) = q.popMin() { times.append(time.microseconds) }
        XCTAssertEqual(times, [0, 10, 20, 30, 40, 50, 1_000_000_000_000])
    }

    func testTiesAreFirstInFirstOut() {
        var q = EventQueue()
        for id in 0..<100 { q.push(t(Int64(id % 3) * 1_000), id: UInt32(id)) }
        var order: [UInt32] = []
        while let (_, id) = q.popMin() { order.append(id) }
        let expected = (0..<100).filter { $0 % 3 == 0 } + (0..<100).filter { $0 % 3 == 1 } + (0..<100).filter { $0 % 3 == 2 }
        XCTAssertEqual(order, expected.map(UInt32.init))
    }

    func testTiesPushedAtTheCurrentTimeWhilePopping() {
        var q = EventQueue()
        q.push(t(5), id: 0)
        q.push(t(5), id: 1)
        q.push(t(9), id: 2)
        XCTAssertEqual(q.popMin()?.id, 0)
        q.push(t(5), id: 3)  // same time as the front: goes after 1
        q.push(t(9), id: 4)  // after 2
        XCTAssertEqual(q.popMin()?.id, 1)
        XCTAssertEqual(q.popMin()?.id, 3)
        XCTAssertEqual(q.popMin()?.id, 2)
        XCTAssertEqual(q.popMin()?.id, 4)
    }

    func testNegativeAndExtremeTimes() {
        var q = EventQueue()
        q.push(t(-5), id: 0)
        q.push(.distantFuture, id: 1)
        q.push(t(Int64.min), id: 2)
        q.push(t(0), id: 3)
        XCTAssertEqual(q.popMin()?.id, 2)
        XCTAssertEqual(q.popMin()?.id, 0)
        XCTAssertEqual(q.peekTime(), t(0))
        XCTAssertEqual(q.popMin()?.id, 3)
        XCTAssertEqual(q.popMin()?.time, .distantFuture)
        q.checkInvariants()
    }

    func testCancelAndStaleHandles() {
        var q = EventQueue()
        let a = q.push(t(10), id: 1)
        let b = q.push(t(20), id: 2)
        let c = q.push(t(30), id: 3)
        XCTAssertTrue(q.cancel(b))
        XCTAssertFalse(q.cancel(b), "second cancel of the same handle")
        XCTAssertEqual(q.count, 2)
        q.checkInvariants()
        XCTAssertEqual(q.popMin()?.id, 1)
        XCTAssertFalse(q.cancel(a), "popped")
        XCTAssertEqual(q.peekTime(), t(30))
        XCTAssertEqual(q.popMin()?.id, 3)
        XCTAssertFalse(q.cancel(c))
        XCTAssertNil(q.popMin())
        // Slots are reused; old handles must not reach the new occupants.
        let d = q.push(t(40), id: 4)
        XCTAssertFalse(q.cancel(a))
        XCTAssertFalse(q.cancel(b))
        XCTAssertFalse(q.cancel(c))
        XCTAssertTrue(q.contains(d))
        XCTAssertEqual(q.popMin()?.id, 4)
        q.checkInvariants()
    }

    func testCancelFrontEventUpdatesPeek() {
        var q = EventQueue()
        let first = q.push(t(1), id: 0)
        q.push(t(2), id: 1)
        XCTAssertEqual(q.peekTime(), t(1))
        q.cancel(first)
        XCTAssertEqual(q.peekTime(), t(2))
        XCTAssertEqual(q.popMin()?.time, t(2))
        XCTAssertNil(q.peekTime())
    }

    func testPushAfterSkippingCancelledEventsStaysLegal() {
        // Popping past a cancelled event at 15 must not forbid a push at 12.
        var q = EventQueue()
        q.push(t(10), id: 0)
        let h = q.push(t(15), id: 1)
        XCTAssertEqual(q.popMin()?.time, t(10))
        q.cancel(h)
        XCTAssertNil(q.popMin())
        q.push(t(12), id: 2)
        XCTAssertEqual(q.popMin()?.time, t(12))
        q.checkInvariants()
    }

    func testRescheduleMovesEventAndKeepsId() {
        var q = EventQueue()
        let h = q.push(t(100), id: 7)
        q.push(t(50), id: 8)
        q.push(t(60), id: 9)
        guard let moved = q.reschedule(h, to: t(55)) else { return XCTFail("reschedule failed") }
        XCTAssertFalse(q.contains(h))
        XCTAssertTrue(q.contains(moved))
        XCTAssertNil(q.reschedule(h, to: t(70)), "old handle is stale")
        XCTAssertEqual(q.count, 3)
        XCTAssertEqual(q.popMin()?.id, 8)
        XCTAssertEqual(q.popMin()?.id, 7)
        XCTAssertEqual(q.popMin()?.id, 9)
        q.checkInvariants()
    }

    func testRescheduledEventGoesAfterEqualTimes() {
        var q = EventQueue()
        let h = q.push(t(5), id: 0)
        q.push(t(5), id: 1)
        _ = q.reschedule(h, to: t(5))
        XCTAssertEqual(q.popMin()?.id, 1)
        XCTAssertEqual(q.popMin()?.id, 0)
    }

    func testBulkLoadKeepsOrderAndDocumentedHandles() {
        let events: [(SimTime, UInt32)] = [(t(3), 0), (t(1), 1), (t(3), 2), (t(2), 3), (t(1), 4)]
        var q = EventQueue(loading: events)
        XCTAssertEqual(q.count, 5)
        q.checkInvariants()
        XCTAssertTrue(q.cancel(EventHandle(slot: 3, generation: 4)))  // the event with id 3
        var order: [UInt32] = []
        while let (_, id) = q.popMin() { order.append(id) }
        XCTAssertEqual(order, [1, 4, 0, 2])
    }

    /// The sorted front run: pushes into its range (and past its capacity,
    /// which puts it back into the buckets) keep time order and FIFO ties.
    func testPushesIntoAndBeyondTheFrontRun() {
        var q = EventQueue()
        for i in 0..<10 { q.push(t(Int64(i) * 3), id: UInt32(i)) }  // small bucket: becomes the run
        XCTAssertEqual(q.popMin()?.id, 0)
        XCTAssertGreaterThan(q.storage.core.pointee.runCount, 0, "test meant to exercise the run")
        var expected: [(Int64, UInt32)] = (1..<10).map { (Int64($0) * 3, UInt32($0)) }
        for i in 0..<60 {
            let time = Int64(3 + (i % 5) * 3)  // 3, 6, ..., 15: inside the run's range, many ties
            q.push(t(time), id: UInt32(100 + i))
            expected.append((time, UInt32(100 + i)))
            if i % 20 == 0 { q.checkInvariants() }
        }
        q.checkInvariants()
        // Stable sort by time gives the FIFO order the queue must produce.
        let order = expected.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        for (_, want) in order {
            let got = q.popMin()
            XCTAssertEqual(got?.time, t(want.0))
            XCTAssertEqual(got?.id, want.1)
        }
        XCTAssertNil(q.popMin())
        q.checkInvariants()
    }

    func testValueSemantics() {
        var a = EventQueue()
        for i in 0..<100 { a.push(t(Int64(i * 7 % 50)), id: UInt32(i)) }
        var b = a
        _ = b.popMin()
        b.push(t(1_000), id: 999)
        XCTAssertEqual(a.count, 100)
        XCTAssertEqual(b.count, 100)
        var fromA: [UInt32] = [], fromB: [UInt32] = []
        while let (_, id) = a.popMin() { fromA.append(id) }
        while let (_, id) = b.popMin() { fromB.append(id) }
        XCTAssertEqual(Array(fromA.dropFirst()), Array(fromB.dropLast()))
        XCTAssertEqual(fromB.last, 999)
    }

    func testManyCancellationsArePurgedAndMemoryRecovered() {
        var q = EventQueue()
        var handles: [EventHandle] = []
        for i in 0..<20_000 { handles.append(q.push(t(Int64(i) * 1_000), id: UInt32(i))) }
        for (i, h) in handles.enumerated() where i % 10 != 0 { XCTAssertTrue(q.cancel(h)) }
        q.checkInvariants()
        XCTAssertEqual(q.count, 2_000)
        XCTAssertEqual(q.storage.core.pointee.staleCount <= max(EventQueue.compactionFloor, q.count), true)
        var expected: UInt32 = 0
        while let (_, id) = q.popMin() {
            XCTAssertEqual(id, expected)
            expected += 10
        }
        XCTAssertEqual(expected, 20_000)
        q.checkInvariants()
    }

    func testMemoryPerPendingEventIsCompact() {
        XCTAssertEqual(MemoryLayout<EventQueue.Entry>.stride, 16)
        XCTAssertEqual(MemoryLayout<EventQueue.Slot>.stride, 8)
        var q = EventQueue()
        var random = TestRandom(seed: 3)
        for i in 0..<200_000 { q.push(t(Int64(random.below(1_000_000_000))), id: UInt32(i)) }
        let perEvent = Double(q.allocatedBytes) / Double(q.count)
        XCTAssertLessThanOrEqual(perEvent, 40, "bytes per pending event: \(perEvent)")
    }
}
