// The classic hold model (Jones 1986; Rönngren and Ayani 1997): fill the
// queue with n events, then repeatedly pop the minimum and push it back at
// its time plus an exponential increment. One op = one pop + one push.
import SimCore

extension BenchmarkFamily {
    /// Continuous-like times: Exp(mean 1 s) in whole microseconds.
    static let hold = BenchmarkFamily(
        name: "hold", summary: "pop+push, Exp(1 s) increments in µs"
    ) {
        holdFamily(name: "hold", sizes: [1_000, 10_000, 100_000, 1_000_000],
                   increments: ExponentialIncrements(mean: 1e6))
    }

    /// Tie-heavy times: Exp(mean 60 s) rounded to whole seconds, so many
    /// pending events share a time, as wakes and timers do in the simulator.
    static let holdTies = BenchmarkFamily(
        name: "hold-ties", summary: "pop+push, Exp(60 s) rounded to 1 s (many ties)"
    ) {
        holdFamily(name: "hold-ties", sizes: [1_000, 100_000, 1_000_000],
                   increments: ExponentialIncrements(mean: 60e6, granularity: 1_000_000))
    }
}

func holdFamily(name: String, sizes: [Int], increments: ExponentialIncrements) -> [Measurement] {
    selectedSizes(sizes).map { n in
        let ops = 2_000_000
        let reps = n >= 1_000_000 ? 2 : 3
        var bytes = 0
        let (candidate, baseline) = interleavedBest(operations: ops, repetitions: reps,
            candidate: { holdEventQueue(n: n, ops: ops, increments: increments, bytes: &bytes) },
            baseline: { holdTextbook(n: n, ops: ops, increments: increments) })
        return Measurement(benchmark: name, n: n, operations: ops, nsPerOp: candidate,
                           baselineNsPerOp: baseline, bytesPerEvent: Double(bytes) / Double(n))
    }
}

/// Returns the ns spent in the hold phase (the fill is not timed).
func holdEventQueue(n: Int, ops: Int, increments: ExponentialIncrements, bytes: inout Int) -> Double {
    var rng = SplitMix64(seed: 42)
    var queue = EventQueue(minimumCapacity: n)
    for i in 0..<n { queue.push(SimTime(microseconds: increments.next(&rng)), id: UInt32(i)) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let (time, id) = queue.popMin()!
            check &+= UInt64(bitPattern: time.microseconds) &+ UInt64(id)
            queue.push(SimTime(microseconds: time.microseconds &+ increments.next(&rng)), id: id)
        }
    }
    bytes = queue.allocatedBytes
    consume(check)
    return ns
}

func holdTextbook(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 42)
    var heap = TextbookBinaryHeap(minimumCapacity: n)
    for i in 0..<n { heap.push(increments.next(&rng), id: UInt32(i)) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let top = heap.popMin()!
            check &+= UInt64(bitPattern: top.time) &+ UInt64(top.id)
            heap.push(top.time &+ increments.next(&rng), id: top.id)
        }
    }
    consume(check)
    return ns
}
