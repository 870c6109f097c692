// Cancel-heavy mix: n processes, each with exactly one pending event. One
// op = pop the earliest and push it back at now + Exp(1 s), then reschedule
// a random process's pending event to now + Exp(1 s) (a cancel plus a
// push), as a policy re-planning a wake does. The baseline heap cancels
// lazily with a generation tag per process, the usual textbook remedy.
import SimCore

extension BenchmarkFamily {
    static let cancelMix = BenchmarkFamily(
        name: "cancel-mix", summary: "pop+push, plus reschedule of a random pending event"
    ) {
        let increments = ExponentialIncrements(mean: 1e6)
        return selectedSizes([1_000, 100_000, 1_000_000]).map { n in
            let ops = 1_000_000
            var bytes = 0
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: n >= 1_000_000 ? 2 : 3,
                candidate: { cancelMixEventQueue(n: n, ops: ops, increments: increments, bytes: &bytes) },
                baseline: { cancelMixTextbook(n: n, ops: ops, increments: increments) })
            return Measurement(benchmark: "cancel-mix", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline, bytesPerEvent: Double(bytes) / Double(n))
        }
    }
}

func cancelMixEventQueue(n: Int, ops: Int, increments: ExponentialIncrements, bytes: inout Int) -> Double {
    var rng = SplitMix64(seed: 9)
    var queue = EventQueue(minimumCapacity: n)
    var handles = (0..<n).map { queue.push(SimTime(microseconds: increments.next(&rng)), id: UInt32($0)) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let (now, id) = queue.popMin()!
            check &+= UInt64(bitPattern: now.microseconds) &+ UInt64(id)
            handles[Int(id)] = queue.push(SimTime(microseconds: now.microseconds &+ increments.next(&rng)), id: id)
            let victim = rng.next(below: n)
            let later = SimTime(microseconds: now.microseconds &+ increments.next(&rng))
            handles[victim] = queue.reschedule(handles[victim], to: later)!
        }
    }
    bytes = queue.allocatedBytes
    consume(check)
    return ns
}

func cancelMixTextbook(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 9)
    var heap = TextbookBinaryHeap(minimumCapacity: 2 * n)
    var tags = [UInt32](repeating: 0, count: n)
    for id in 0..<n { heap.push(increments.next(&rng), id: UInt32(id)) }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            var top = heap.popMin()!
            while top.tag != tags[Int(top.id)] { top = heap.popMin()! }  // skip cancelled
            check &+= UInt64(bitPattern: top.time) &+ UInt64(top.id)
            heap.push(top.time &+ increments.next(&rng), id: top.id, tag: tags[Int(top.id)])
            let victim = rng.next(below: n)
            tags[victim] &+= 1
            heap.push(top.time &+ increments.next(&rng), id: UInt32(victim), tag: tags[victim])
        }
    }
    consume(check)
    return ns
}
