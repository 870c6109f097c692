import Foundation
import SimCore

// Continued-processing tasks (`ContinuedProcessing`, Docs/Mechanisms.md):
// submitted by the user's action at a session start, run beside the worker
// as a `PlannedBackgroundRun` (no wake: the app is in the foreground),
// ended by completion, failure, the user's cancel, or resource pressure.
extension DeviceSimulator {
    /// At the start of a session of `app` (after its launch is recorded):
    /// the user may start a job, which starts now, queues or fails.
    mutating func userMayStartContinuedProcessing(app: Int32, sessionStart: SimTime) {
        let a = Int(app)
        guard let job = apps.models[a].continuedProcessing, job.probability > 0,
              DeviceRandom.uniform(prefix: mechanisms.continued!.startPrefixes[a],
                                   UInt64(bitPattern: sessionStart.microseconds)) < job.probability
        else { return }
        let n = mechanisms.continued!.submitted[a]
        mechanisms.continued!.submitted[a] = n &+ 1
        metrics.user.continuedProcessing[.requested] &+= 1
        let entry = ContinuedProcessingEntry(app: app, number: n, submitted: now)
        let rules = mechanisms.continued!.rules
        if mechanisms.continued!.running.count < rules.maxRunning && !rules.underPressure(state, lowBatteryPercent: self.rules.lowBatteryPercent) {
            startContinued(entry)
        } else if job.strategy == .queue {
            mechanisms.continued!.queue.append(entry)
            metrics.user.continuedProcessing[.queued] &+= 1
            logContinued(entry, "queued")
        } else {
            metrics.user.continuedProcessing[.failedToStart] &+= 1
            logContinued(entry, "failed_to_start")
        }
        mechanisms.continued!.recomputeNextTime()
    }

    /// Starts `entry` now: its planned run, and the user's cancel time.
    private mutating func startContinued(_ entry: ContinuedProcessingEntry) {
        var e = entry
        let a = Int(e.app)
        let job = apps.models[a].continuedProcessing!
        // No budget of the system's: a long one (the run ends by its work,
        // the user or pressure).
        let run = startPlannedRun(app: e.app, work: job.work, wakes: false, budget: .seconds(365 * 86_400 as Int64),
                                  draws: mechanisms.continued!.draws, run: e.number)
        e.run = run
        if job.cancelPerHour > 0 {
            let u = DeviceRandom.uniform(prefix: mechanisms.continued!.cancelPrefixes[a], e.number)
            e.cancelAt = now + .seconds(-log1p(-u) / job.cancelPerHour * 3_600)
        }
        metrics.user.continuedProcessing[.started] &+= 1
        metrics.user.continuedProcessing[.energyJoules] += run.ledger.promotion + run.ledger.active
        metrics.user.continuedProcessing[.queueWaitSeconds] += (now - e.submitted).seconds
        mechanisms.continued!.running.append(e)
        logContinued(e, "started")
    }

    /// Running jobs that end now (work done or failed, or the user's cancel).
    mutating func continuedProcessingEvent() {
        var i = 0
        while i < mechanisms.continued!.running.count {
            let e = mechanisms.continued!.running[i]
            guard e.nextTime <= now else { i += 1; continue }
            mechanisms.continued!.running.remove(at: i)
            if e.cancelAt <= now && e.cancelAt < e.run!.end {
                endContinuedEarly(e, detail: "cancelled_by_user")
                metrics.user.continuedProcessing[.cancelledByUser] &+= 1
            } else {
                let run = settleCPU(of: e.run!)
                metrics.user.continuedProcessing[.energyJoules] += run.ledger.cpu
                var done = e
                done.run = run
                if run.outcome == .success {
                    metrics.user.continuedProcessing[.completed] &+= 1
                } else {
                    metrics.user.continuedProcessing[.failed] &+= 1
                    metrics.user.continuedProcessing[.wastedJoules] += run.ledger.total
                }
                logContinued(done, run.outcome == .success ? "completed" : "failed")
            }
        }
        startQueuedContinued()
        mechanisms.continued!.recomputeNextTime()
    }

    /// A running job ended before its work: the CPU it ran is charged, all
    /// its energy counted as wasted.
    private mutating func endContinuedEarly(_ entry: ContinuedProcessingEntry, detail: String) {
        var e = entry
        var run = e.run!
        run.ledger.cpu = censorCPU(of: run)
        run.end = now
        e.run = run
        metrics.user.continuedProcessing[.energyJoules] += run.ledger.cpu
        metrics.user.continuedProcessing[.wastedJoules] += run.ledger.total
        logContinued(e, detail)
    }

    /// Queued requests start, first in first out, while there is room and
    /// no pressure.
    private mutating func startQueuedContinued() {
        let rules = mechanisms.continued!.rules
        guard !rules.underPressure(state, lowBatteryPercent: self.rules.lowBatteryPercent) else { return }
        while !mechanisms.continued!.queue.isEmpty && mechanisms.continued!.running.count < rules.maxRunning {
            startContinued(mechanisms.continued!.queue.removeFirst())
        }
    }

    /// After every loop step: under pressure the system ends running jobs,
    /// least progress first, down to `maxRunningUnderPressure`; without it
    /// queued requests start if there is room.
    mutating func continuedProcessingAfterStep() {
        guard mechanisms.continued != nil else { return }
        let rules = mechanisms.continued!.rules
        if rules.underPressure(state, lowBatteryPercent: self.rules.lowBatteryPercent) {
            guard mechanisms.continued!.running.count > rules.maxRunningUnderPressure else { return }
            while mechanisms.continued!.running.count > rules.maxRunningUnderPressure,
                  let i = mechanisms.continued!.leastProgress(at: now) {
                let e = mechanisms.continued!.running.remove(at: i)
                endContinuedEarly(e, detail: "expired_pressure")
                metrics.user.continuedProcessing[.expiredPressure] &+= 1
            }
        } else {
            guard !mechanisms.continued!.queue.isEmpty else { return }
            startQueuedContinued()
        }
        mechanisms.continued!.recomputeNextTime()
    }

    /// The user force-quit `app`: its queued requests are dropped (Apple:
    /// "The system cancels queued BGContinuedProcessingTaskRequest objects
    /// if someone closes your app using the app switcher"). Its running
    /// jobs go on (Apple says nothing of them; assumption).
    mutating func continuedProcessingForceQuit(app: Int32) {
        guard mechanisms.continued != nil else { return }
        var kept: [ContinuedProcessingEntry] = []
        for e in mechanisms.continued!.queue {
            if e.app == app {
                metrics.user.continuedProcessing[.droppedForceQuit] &+= 1
                logContinued(e, "dropped_force_quit")
            } else {
                kept.append(e)
            }
        }
        mechanisms.continued!.queue = kept
    }

    /// At the horizon: a running job counts the CPU it ran, no outcome.
    mutating func finishContinuedProcessing() {
        guard mechanisms.continued != nil else { return }
        for e in mechanisms.continued!.running {
            metrics.user.continuedProcessing[.energyJoules] += censorAtHorizon(e.run!)
        }
        mechanisms.continued!.running = []
    }

    private mutating func logContinued(_ e: ContinuedProcessingEntry, _ detail: String) {
        guard Sink.isEnabled else { return }
        var d = DeviceEvent(kind: .continuedProcessing, time: now, device: state)
        d.app = e.app; d.requestedAt = e.submitted; d.detail = detail
        if let r = e.run {
            d.start = r.start; d.end = detail == "started" ? nil : r.end
            if detail != "started" { d.energy = r.ledger }
            switch detail {
            case "completed": d.outcome = .success
            case "failed": d.outcome = .failed
            case "expired_pressure", "cancelled_by_user": d.outcome = .expired
            default: break
            }
        }
        sink.record(d)
    }
}
