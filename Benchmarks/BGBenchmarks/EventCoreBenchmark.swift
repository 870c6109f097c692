// The device loop's event core at 7, 30 and 60 apps: one timer per app
// (what a per-app mechanism such as silent push or URLSession adds) plus
// the device's three (task end, battery alarm, policy wake). One op = one
// simulated event: take the earliest timer, move it forward by Exp(10 min),
// and move the battery alarm and the policy wake (timers 0 and 1) to
// now + Exp(10 min), as nearly every event does in the simulator.
// Candidate: SimCore's `EventQueue` (pop, push, two reschedules). Baseline:
// the cursor merge the simulator uses (a minimum over all the timers,
// ties to the lowest index). Docs/Performance.md, "The event core".
import SimCore

extension BenchmarkFamily {
    static let eventCore = BenchmarkFamily(
        name: "event-core",
        summary: "one device event at n timers (apps + 3): earliest out, it and two device timers moved",
        candidateTitle: "queue ns/event", baselineTitle: "min-scan ns/event"
    ) {
        let increments = ExponentialIncrements(mean: 600e6)
        return selectedSizes([10, 33, 63]).map { n in
            let ops = 2_000_000
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: 3,
                candidate: { eventCoreQueue(n: n, ops: ops, increments: increments) },
                baseline: { eventCoreScan(n: n, ops: ops, increments: increments) })
            return Measurement(benchmark: "event-core", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline, note: "\(n - 3) apps")
        }
    }
}

func eventCoreQueue(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 11)
    var queue = EventQueue(minimumCapacity: n)
    var handles = (0..<n).map { queue.push(SimTime(microseconds: increments.next(&rng)), id: UInt32($0)) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let (now, id) = queue.popMin()!
            check &+= UInt64(bitPattern: now.microseconds) &+ UInt64(id)
            handles[Int(id)] = queue.push(SimTime(microseconds: now.microseconds &+ increments.next(&rng)), id: id)
            for timer in 0..<2 where timer != Int(id) {
                let later = SimTime(microseconds: now.microseconds &+ increments.next(&rng))
                handles[timer] = queue.reschedule(handles[timer], to: later)!
            }
        }
    }
    consume(check)
    return ns
}

func eventCoreScan(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 11)
    var times = (0..<n).map { _ in increments.next(&rng) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        times.withUnsafeMutableBufferPointer { t in
            for _ in 0..<ops {
                var id = 0
                var now = t[0]
                for i in 1..<n where t[i] < now { now = t[i]; id = i }
                check &+= UInt64(bitPattern: now) &+ UInt64(id)
                t[id] = now &+ increments.next(&rng)
                for timer in 0..<2 where timer != id { t[timer] = now &+ increments.next(&rng) }
            }
        }
    }
    consume(check)
    return ns
}
