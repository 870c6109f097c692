@testable import Device
import SimCore
import XCTest

/// A task's start worked out as one value (`TaskStart`), rule by rule, in
/// closed form: what fails a run, what it asks of the radio, its CPU, and
/// when the worker ends it.
final class TaskStartTests: XCTestCase {
    let now = SimTime(day: 1, plus: .hours(9))
    let shape = RadioModel.TransferShape(upSeconds: 0.5, downSeconds: 1.5, alphaJoules: 2)

    /// A start with the given conditions (a slot of run number 7).
    func start(kind: TaskKind = .appRefresh, network: NetworkType = .wifi, failureDraw: Double = 0.5,
               failureProbability: Double = 0.1, cpu: Double = 4, usesNetwork: Bool = true, progress: Double = 0,
               style: HandlerStyle = .completionHandler, neverP: Double = 0, neverDraw: Double = 0.5,
               block: NetworkedRunBlock? = nil) -> TaskStart {
        TaskStart(kind: kind, run: 7, at: now, network: network, failureDraw: failureDraw,
                  failureProbability: failureProbability, cpuSeconds: cpu, usesNetwork: usesNetwork,
                  processingProgress: progress, budget: .seconds(30), cancellationGrace: .seconds(5),
                  handlerStyle: style, neverCompletesProbability: neverP,
                  neverCompletesDraw: { neverDraw },
                  block: { block }, deadZoneTimeout: { .seconds(20) },
                  shape: { self.shape }, serverLatency: { .milliseconds(300) })
    }

    func testAnUnblockedNetworkedRunAsksForItsTransfer() {
        let s = start()
        XCTAssertFalse(s.fails, "draw 0.5 is not below 0.1")
        XCTAssertEqual(s.network, .wifi)
        XCTAssertNil(s.block)
        XCTAssertEqual(s.transfer?.shape, shape)
        XCTAssertEqual(s.transfer?.latency, .milliseconds(300))
        XCTAssertNil(s.transferredFraction)
        XCTAssertEqual(s.cpuSeconds, 4)
        let dataEnd = now + .seconds(2)
        XCTAssertEqual(s.naturalEnd(dataEnd: dataEnd), dataEnd + .seconds(4))
        XCTAssertEqual(s.end(naturalEnd: dataEnd + .seconds(4)), dataEnd + .seconds(4), "before the budget")
        XCTAssertEqual(s.end(naturalEnd: now + .seconds(60)), now + .seconds(30), "the budget ends it")
        XCTAssertTrue(start(failureDraw: 0.05).fails, "draw 0.05 is below 0.1")
    }

    func testADeadZoneFailsTheRunAndMovesNothing() {
        let s = start(block: .deadZone)
        XCTAssertTrue(s.fails)
        XCTAssertEqual(s.block, .deadZone)
        XCTAssertEqual(s.transfer?.latency, .seconds(20), "it waits for the request timeout")
        XCTAssertEqual(s.transfer?.shape, RadioModel.TransferShape(upSeconds: 0, downSeconds: 0, alphaJoules: 0))
        XCTAssertEqual(s.transferredFraction, 0)
        let dataEnd = now + .seconds(20)
        XCTAssertEqual(s.naturalEnd(dataEnd: dataEnd), dataEnd, "a failure computes nothing")
    }

    func testABackendOutageFailsAfterTheTransfer() {
        let s = start(block: .backendOutage)
        XCTAssertTrue(s.fails)
        XCTAssertEqual(s.transfer?.shape, shape, "the request goes out")
        XCTAssertNil(s.transferredFraction)
    }

    func testOfflineOrWithoutNetworkWork() {
        let offline = start(network: .offline, block: .deadZone)
        XCTAssertTrue(offline.fails, "a networked run without a network fails")
        XCTAssertNil(offline.transfer)
        XCTAssertNil(offline.block, "nothing to block without a transfer")
        XCTAssertEqual(offline.network, .offline)
        let local = start(network: .offline, usesNetwork: false)
        XCTAssertFalse(local.fails)
        XCTAssertNil(local.transfer)
        XCTAssertEqual(local.naturalEnd(dataEnd: now), now + .seconds(4))
    }

    func testProcessingComputesWhatItsCheckpointLeft() {
        XCTAssertEqual(start(kind: .processing, progress: 1.5).cpuSeconds, 2.5)
        XCTAssertEqual(start(kind: .processing, progress: 9).cpuSeconds, 0)
        XCTAssertEqual(start(kind: .appRefresh, progress: 1.5).cpuSeconds, 4, "only processing checkpoints")
    }

    func testHeldAndOverrunningHandlers() {
        let held = start(neverP: 0.6, neverDraw: 0.5)
        XCTAssertTrue(held.holds)
        XCTAssertEqual(held.end(naturalEnd: now + .seconds(3)), now + .seconds(30), "held to its budget")
        XCTAssertFalse(start(neverP: 0.4, neverDraw: 0.5).holds)
        XCTAssertFalse(start(style: .swiftUICooperative, neverP: 1, neverDraw: 0).holds, "SwiftUI handlers complete")
        XCTAssertEqual(start(failureDraw: 0, neverP: 1, neverDraw: 0).cpuSeconds, 0, "a held failure computes nothing")
        let overrun = start(style: .swiftUINonCooperative)
        XCTAssertTrue(overrun.ignoresCancellation)
        XCTAssertEqual(overrun.hardLimit, now + .seconds(35))
        XCTAssertEqual(overrun.end(naturalEnd: now + .seconds(60)), now + .seconds(35))
        XCTAssertEqual(start().hardLimit, now + .seconds(30))
    }

    /// The CPU of a run cut at `now`, one computation for its end and for
    /// the run censored at the horizon: from its data end, at most its
    /// CPU; none charged for a failure unless it was cut short first.
    func testCPUOfARunCutNow() {
        var run = TaskWorker.RunningTask.idle
        run.dataEnd = now
        run.cpuSeconds = 4
        let at = now + .seconds(3)
        XCTAssertEqual(TaskEnd.cpu(of: run, at: at, cpuWatts: 2, expired: false).seconds, 3)
        XCTAssertEqual(TaskEnd.cpu(of: run, at: at, cpuWatts: 2, expired: false).joules, 6)
        XCTAssertEqual(TaskEnd.cpu(of: run, at: now + .seconds(10), cpuWatts: 2, expired: false).seconds, 4)
        XCTAssertEqual(TaskEnd.cpu(of: run, at: now - .seconds(1), cpuWatts: 2, expired: false).seconds, 0,
                       "cut before its data was in")
        run.fails = true
        XCTAssertEqual(TaskEnd.cpu(of: run, at: at, cpuWatts: 2, expired: false).joules, 0)
        XCTAssertEqual(TaskEnd.cpu(of: run, at: at, cpuWatts: 2, expired: true).joules, 6)
    }
}
