import XCTest
@testable import SimCore

final class EngineTests: XCTestCase {
    enum Event: Equatable { case ping(Int), wake(String) }

    func testStepDispatchesInTimeOrderAndAdvancesNow() {
        var engine = Engine<Event>()
        engine.schedule(.ping(2), at: SimTime(microseconds: 20))
        engine.schedule(.ping(1), at: SimTime(microseconds: 10))
        engine.schedule(.wake("a"), after: .seconds(1))
        XCTAssertEqual(engine.pendingCount, 3)
        XCTAssertEqual(engine.nextEventTime, SimTime(microseconds: 10))
        var seen: [Event] = []
        var times: [SimTime] = []
        while let (time, event) = engine.step() {
            XCTAssertEqual(engine.now, time)
            seen.append(event)
            times.append(time)
        }
        XCTAssertEqual(seen, [.ping(1), .ping(2), .wake("a")])
        XCTAssertEqual(times, [SimTime(microseconds: 10), SimTime(microseconds: 20), SimTime.zero + .seconds(1)])
        XCTAssertEqual(engine.pendingCount, 0)
        XCTAssertNil(engine.step())
    }

    func testEqualTimesDispatchFirstInFirstOut() {
        var engine = Engine<Int>()
        for i in 0..<50 { engine.schedule(i, at: SimTime(microseconds: 5)) }
        var order: [Int] = []
        while let (_, e) = engine.step() { order.append(e) }
        XCTAssertEqual(order, Array(0..<50))
    }

    func testCancelAndReschedule() {
        var engine = Engine<String>()
        let a = engine.schedule("a", at: SimTime(microseconds: 10))
        let b = engine.schedule("b", at: SimTime(microseconds: 20))
        engine.schedule("c", at: SimTime(microseconds: 30))
        XCTAssertTrue(engine.cancel(a))
        XCTAssertFalse(engine.cancel(a))
        let b2 = engine.reschedule(b, to: SimTime(microseconds: 40))
        XCTAssertNotNil(b2)
        XCTAssertFalse(engine.isPending(b))
        XCTAssertTrue(engine.isPending(b2!))
        XCTAssertNil(engine.reschedule(b, to: SimTime(microseconds: 50)))
        XCTAssertEqual(engine.step()?.event, "c")
        XCTAssertEqual(engine.step()?.event, "b")
        XCTAssertNil(engine.step())
        XCTAssertFalse(engine.cancel(b2!))
    }

    func testRunUntilStopsAtLimitAndHandlersCanSchedule() {
        var engine = Engine<Int>()
        engine.schedule(0, at: .zero)
        var dispatched: [(SimTime, Int)] = []
        // Each event schedules the next one 10 s later: a self-perpetuating chain.
        engine.run(until: SimTime.zero + .seconds(35)) { engine, time, event in
            dispatched.append((time, event))
            engine.schedule(event + 1, after: .seconds(10))
        }
        XCTAssertEqual(dispatched.map(\.1), [0, 1, 2, 3])
        XCTAssertEqual(engine.now, SimTime.zero + .seconds(35), "clock moves to the limit")
        XCTAssertEqual(engine.pendingCount, 1)
        XCTAssertEqual(engine.nextEventTime, SimTime.zero + .seconds(40))
        // Scheduling between the limit and the next event is legal.
        engine.schedule(100, at: SimTime.zero + .seconds(36))
        XCTAssertEqual(engine.step()?.event, 100)
    }

    func testRunUntilDistantFutureDrainsAndKeepsClockAtLastEvent() {
        var engine = Engine<Int>(start: SimTime(day: 2))
        engine.schedule(1, after: .hours(1))
        engine.schedule(2, after: .hours(2))
        var count = 0
        engine.run(until: .distantFuture) { _, _, _ in count += 1 }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(engine.now, SimTime(day: 2, plus: .hours(2)))
    }

    func testPayloadSlotsAreReused() {
        var engine = Engine<[Int]>()
        for round in 0..<1_000 {
            let h = engine.schedule([round], after: .seconds(1))
            if round % 2 == 0 { engine.cancel(h) } else { XCTAssertEqual(engine.step()?.event, [round]) }
        }
        XCTAssertEqual(engine.pendingCount, 0)
        XCTAssertLessThanOrEqual(engine.payloads.count, 2)
    }

    func testRecordingObserverSeesEveryHook() {
        var engine = ObservedEngine<Int, RecordingObserver>(observer: RecordingObserver())
        let a = engine.schedule(1, at: SimTime(microseconds: 5))
        let b = engine.schedule(2, at: SimTime(microseconds: 7))
        engine.cancel(a)
        let b2 = engine.reschedule(b, to: SimTime(microseconds: 9))!
        _ = engine.step()
        XCTAssertEqual(engine.observer.records, [
            .scheduled(a, at: SimTime(microseconds: 5), now: .zero),
            .scheduled(b, at: SimTime(microseconds: 7), now: .zero),
            .cancelled(a, now: .zero),
            .rescheduled(b2, to: SimTime(microseconds: 9), now: .zero),
            .dispatched(at: SimTime(microseconds: 9)),
        ])
        XCTAssertEqual(engine.observer.dispatchTimes, [SimTime(microseconds: 9)])
    }

    func testTimeNeverGoesBackwardsInARandomSimulation() {
        var engine = ObservedEngine<UInt64, RecordingObserver>(observer: RecordingObserver())
        var random = TestRandom(seed: 5)
        var handles: [EventHandle] = []
        for i in 0..<200 { handles.append(engine.schedule(UInt64(i), after: .milliseconds(Int64(random.below(1_000))))) }
        var steps = 0
        engine.run(until: SimTime.zero + .seconds(60)) { engine, _, _ in
            steps += 1
            switch random.below(4) {
            case 0: handles.append(engine.schedule(random.next(), after: .zero))
            case 1: handles.append(engine.schedule(random.next(), after: .milliseconds(Int64(random.below(5_000)))))
            case 2: if let h = handles.randomElement(using: &random) { engine.cancel(h) }
            default:
                if let i = handles.indices.randomElement(using: &random),
                   let moved = engine.reschedule(handles[i], to: engine.now + .milliseconds(Int64(random.below(500)))) {
                    handles[i] = moved
                }
            }
        }
        let times = engine.observer.dispatchTimes
        XCTAssertEqual(times.count, steps)
        XCTAssertGreaterThan(steps, 200)
        XCTAssertEqual(times, times.sorted())
        XCTAssertTrue(times.allSatisfy { $0 <= SimTime.zero + .seconds(60) })
    }

    func testInvariantChecksAreCompiledIntoTests() {
        // Debug builds (what `swift test` uses) define BGBENCH_INVARIANTS for SimCore.
        XCTAssertTrue(SimCoreBuild.invariantChecks)
    }
}
