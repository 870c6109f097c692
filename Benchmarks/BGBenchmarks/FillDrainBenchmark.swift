// Fill then drain: push n events at uniform random times within one day,
// then pop them all. One op = one push + one pop. Small n repeat in rounds.
import SimCore

extension BenchmarkFamily {
    static let fillDrain = BenchmarkFamily(
        name: "fill-drain", summary: "push n at uniform times in 1 day, then pop all; per event"
    ) {
        selectedSizes([1_000, 10_000, 100_000, 1_000_000]).map { n in
            let rounds = max(1, 2_000_000 / n)
            let ops = rounds * n
            var rng = SplitMix64(seed: 7)
            let day = UInt64(SimDuration.microsecondsPerDay)
            let schedule = (0..<n).map { _ in Int64(rng.next() % day) }
            var bytes = 0
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: n >= 1_000_000 ? 2 : 3,
                candidate: { fillDrainEventQueue(schedule, rounds: rounds, bytes: &bytes) },
                baseline: { fillDrainTextbook(schedule, rounds: rounds) })
            return Measurement(benchmark: "fill-drain", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline, bytesPerEvent: Double(bytes) / Double(n))
        }
    }
}

func fillDrainEventQueue(_ schedule: [Int64], rounds: Int, bytes: inout Int) -> Double {
    var queue = EventQueue(minimumCapacity: schedule.count)
    var check: UInt64 = 0
    var peak = 0
    let ns = nanoseconds {
        for round in 0..<rounds {
            // Each round starts at the end of the last so pushes stay monotone.
            let offset = Int64(round) * SimDuration.microsecondsPerDay
            for (i, time) in schedule.enumerated() {
                queue.push(SimTime(microseconds: offset &+ time), id: UInt32(truncatingIfNeeded: i))
            }
            if round == 0 { peak = queue.allocatedBytes }
            while let (time, id) = queue.popMin() { check &+= UInt64(bitPattern: time.microseconds) &+ UInt64(id) }
        }
    }
    bytes = peak
    consume(check)
    return ns
}

func fillDrainTextbook(_ schedule: [Int64], rounds: Int) -> Double {
    var heap = TextbookBinaryHeap(minimumCapacity: schedule.count)
    var check: UInt64 = 0
    let ns = nanoseconds {
        for round in 0..<rounds {
            let offset = Int64(round) * SimDuration.microsecondsPerDay
            for (i, time) in schedule.enumerated() { heap.push(offset &+ time, id: UInt32(truncatingIfNeeded: i)) }
            while let top = heap.popMin() { check &+= UInt64(bitPattern: top.time) &+ UInt64(top.id) }
        }
    }
    consume(check)
    return ns
}
