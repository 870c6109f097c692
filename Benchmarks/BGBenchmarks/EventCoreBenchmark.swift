// The device loop's event core at 8, 26, 60 and 200 installed apps: one
// timer per app (what a per-app mechanism such as silent push or
// URLSession adds) plus the device's three (task end, battery alarm,
// policy wake). One op = one simulated event: take the earliest timer,
// move it forward by Exp(10 min), and move the battery alarm and the
// policy wake (timers 0 and 1) to now + Exp(10 min), as nearly every event
// does in the simulator.
// Candidate: SimCore's `TimerAgenda`, the simulator's agenda (its
// automatic layout). Baseline: the loop before it, a minimum over all the
// timers, ties to the lowest index. `event-core-layout` compares the
// agenda's two layouts at small sizes, where the crossover lies.
// Docs/Performance.md, "The event core".
import SimCore

extension BenchmarkFamily {
    static let eventCore = BenchmarkFamily(
        name: "event-core",
        summary: "one device event at n timers (apps + 3): earliest out, it and two device timers moved",
        candidateTitle: "agenda ns/event", baselineTitle: "min-scan ns/event"
    ) {
        let increments = ExponentialIncrements(mean: 600e6)
        return selectedSizes([11, 29, 63, 203]).map { n in
            let ops = 2_000_000
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: 3,
                candidate: { eventCoreAgenda(n: n, layout: .automatic, ops: ops, increments: increments) },
                baseline: { eventCoreScan(n: n, ops: ops, increments: increments) })
            return Measurement(benchmark: "event-core", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline, note: "\(n - 3) apps")
        }
    }

    static let eventCoreLayout = BenchmarkFamily(
        name: "event-core-layout",
        summary: "the event-core workload on the agenda's blocks layout against its scan layout (the crossover)",
        candidateTitle: "blocks ns/event", baselineTitle: "scan ns/event"
    ) {
        let increments = ExponentialIncrements(mean: 600e6)
        return selectedSizes([8, 16, 24, 32, 40, 48, 64]).map { n in
            let ops = 2_000_000
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: 3,
                candidate: { eventCoreAgenda(n: n, layout: .blocks, ops: ops, increments: increments) },
                baseline: { eventCoreAgenda(n: n, layout: .scan, ops: ops, increments: increments) })
            return Measurement(benchmark: "event-core-layout", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline)
        }
    }
}

func eventCoreAgenda(n: Int, layout: TimerAgenda.Layout, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 11)
    let agenda = TimerAgenda(count: n, layout: layout)
    for i in 0..<n { agenda.update(i, to: SimTime(microseconds: increments.next(&rng))) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let (now, id) = agenda.earliest()
            check &+= UInt64(bitPattern: now.microseconds) &+ UInt64(id)
            agenda.update(id, to: SimTime(microseconds: now.microseconds &+ increments.next(&rng)))
            for timer in 0..<2 where timer != id {
                agenda.update(timer, to: SimTime(microseconds: now.microseconds &+ increments.next(&rng)))
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
