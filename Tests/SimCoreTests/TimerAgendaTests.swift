import XCTest
@testable import SimCore
import TestSupport

private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }

final class TimerAgendaTests: XCTestCase {
    private let layouts: [TimerAgenda.Layout] = [.scan, .blocks, .automatic]

    func testEmptyAgendaAnswersSlotZeroAtDistantFuture() {
        for layout in layouts {
            for count in [1, 2, 5, 17, 40] {
                let agenda = TimerAgenda(count: count, layout: layout)
                let e = agenda.earliest()
                XCTAssertEqual(e.time, .distantFuture, "\(layout) \(count)")
                XCTAssertEqual(e.slot, 0, "\(layout) \(count)")
                agenda.checkInvariants()
            }
        }
    }

    func testTiesGoToTheLowestSlot() {
        for layout in layouts {
            let agenda = TimerAgenda(count: 20, layout: layout)
            agenda.update(13, to: t(100))
            agenda.update(7, to: t(100))
            agenda.update(19, to: t(100))
            XCTAssertEqual(agenda.earliest().slot, 7, "\(layout)")
            agenda.update(2, to: t(100))
            XCTAssertEqual(agenda.earliest().slot, 2, "\(layout)")
            agenda.update(2, to: t(101))
            XCTAssertEqual(agenda.earliest().slot, 7, "\(layout)")
            agenda.update(7, to: .distantFuture)
            XCTAssertEqual(agenda.earliest().slot, 13, "\(layout)")
            XCTAssertEqual(agenda.earliest().time, t(100), "\(layout)")
            agenda.checkInvariants()
        }
    }

    func testAutomaticLayoutFollowsTheCrossover() {
        XCTAssertFalse(TimerAgenda(count: TimerAgenda.scanCrossover).usesBlocks)
        XCTAssertTrue(TimerAgenda(count: TimerAgenda.scanCrossover + 1).usesBlocks)
        XCTAssertTrue(TimerAgenda(count: 3, layout: .blocks).usesBlocks)
        XCTAssertFalse(TimerAgenda(count: 300, layout: .scan).usesBlocks)
    }

    func testSubscriptReadsWhatUpdateWrote() {
        for layout in layouts {
            let agenda = TimerAgenda(count: 9, layout: layout)
            agenda.update(4, to: t(55))
            XCTAssertEqual(agenda[4], t(55))
            XCTAssertEqual(agenda[3], .distantFuture)
            agenda.update(4, to: .distantFuture)
            XCTAssertEqual(agenda[4], .distantFuture)
        }
    }

    /// Random updates (moves earlier and later, equal times, emptied
    /// slots) against a plain minimum over the same times, at sizes on
    /// both sides of the crossover and at non-powers of two.
    func testMatchesAPlainMinimumUnderRandomUpdates() {
        var rng = TestRandom(seed: 2026)
        for layout in layouts {
            for count in [1, 2, 3, 7, 8, 9, 16, 17, 29, 33, 64, 100, 203] {
                let agenda = TimerAgenda(count: count, layout: layout)
                var model = Array(repeating: Int64.max, count: count)
                for step in 0..<3_000 {
                    let slot = rng.below(count)
                    // Few distinct times, so ties are frequent.
                    let time: Int64 = rng.chance(0.1) ? .max : Int64(rng.below(40))
                    agenda.update(slot, to: t(time))
                    model[slot] = time
                    var best = 0
                    for i in 1..<count where model[i] < model[best] { best = i }
                    let e = agenda.earliest()
                    XCTAssertEqual(e.slot, best, "\(layout) count \(count) step \(step)")
                    XCTAssertEqual(e.time, t(model[best]), "\(layout) count \(count) step \(step)")
                    if step % 97 == 0 { agenda.checkInvariants() }
                }
                agenda.checkInvariants()
            }
        }
    }

    func testCopyIsIndependent() {
        for layout in layouts {
            let a = TimerAgenda(count: 40, layout: layout)
            a.update(30, to: t(9))
            let b = a.copy()
            b.update(30, to: t(50))
            b.update(2, to: t(20))
            XCTAssertEqual(a.earliest().slot, 30, "\(layout)")
            XCTAssertEqual(a[2], .distantFuture, "\(layout)")
            XCTAssertEqual(b.earliest().slot, 2, "\(layout)")
            a.checkInvariants()
            b.checkInvariants()
        }
    }

    /// The device's pattern: the earliest slot fires and moves later, and
    /// two fixed slots move at every event (possibly to the current time,
    /// as a timer set for now); the agenda never goes back in time and
    /// always answers the (time, slot) minimum.
    func testDevicePatternNeverGoesBackInTime() {
        var rng = TestRandom(seed: 7)
        for layout in layouts {
            let agenda = TimerAgenda(count: 50, layout: layout)
            var model = Array(repeating: Int64.max, count: 50)
            for i in 0..<50 {
                model[i] = Int64(rng.below(1_000))
                agenda.update(i, to: t(model[i]))
            }
            var last = Int64.min
            for _ in 0..<5_000 {
                let (now, slot) = agenda.earliest()
                let expected = model.indices.min { (model[$0], $0) < (model[$1], $1) }!
                XCTAssertEqual(slot, expected, "\(layout)")
                XCTAssertGreaterThanOrEqual(now.microseconds, last, "\(layout)")
                last = now.microseconds
                model[slot] = now.microseconds + 1 + Int64(rng.below(500))
                agenda.update(slot, to: t(model[slot]))
                for fixed in 0..<2 where fixed != slot {
                    model[fixed] = now.microseconds + Int64(rng.below(500))
                    agenda.update(fixed, to: t(model[fixed]))
                }
            }
            agenda.checkInvariants()
        }
    }
}
