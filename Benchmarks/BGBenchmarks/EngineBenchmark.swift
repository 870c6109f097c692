// The engine loop on the hold model: Engine<Payload>.step() then
// schedule(after:), payloads in the engine's side table, against the
// textbook heap with the payload stored in a parallel array. One op = one
// dispatched event plus one scheduled event.
import SimCore

/// A payload the size of a small simulator event enum.
enum HoldPayload {
    case wake(app: Int32)
    case sessionEnd(app: Int32, bytes: Int64)
}

extension BenchmarkFamily {
    static let engineHold = BenchmarkFamily(
        name: "engine-hold", summary: "Engine.step + schedule(after:), enum payload, Exp(1 s)"
    ) {
        let increments = ExponentialIncrements(mean: 1e6)
        return selectedSizes([1_000, 100_000]).map { n in
            let ops = 2_000_000
            let (candidate, baseline) = interleavedBest(operations: ops, repetitions: 3,
                candidate: { runEngineHold(n: n, ops: ops, increments: increments) },
                baseline: { engineHoldTextbook(n: n, ops: ops, increments: increments) })
            return Measurement(benchmark: "engine-hold", n: n, operations: ops, nsPerOp: candidate,
                               baselineNsPerOp: baseline, bytesPerEvent: nil)
        }
    }
}

func runEngineHold(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 5)
    var engine = Engine<HoldPayload>(minimumCapacity: n)
    for i in 0..<n {
        engine.schedule(.wake(app: Int32(i)), at: SimTime(microseconds: increments.next(&rng)))
    }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let (time, event) = engine.step()!
            let next: HoldPayload
            switch event {
            case .wake(let app):
                check &+= UInt64(bitPattern: time.microseconds) &+ UInt64(app)
                next = .sessionEnd(app: app, bytes: 1)
            case .sessionEnd(let app, let bytes):
                check &+= UInt64(bitPattern: time.microseconds) &+ UInt64(bitPattern: bytes)
                next = .wake(app: app)
            }
            engine.schedule(next, after: SimDuration(microseconds: increments.next(&rng)))
        }
    }
    consume(check)
    return ns
}

func engineHoldTextbook(n: Int, ops: Int, increments: ExponentialIncrements) -> Double {
    var rng = SplitMix64(seed: 5)
    var heap = TextbookBinaryHeap(minimumCapacity: n)
    var payloads: [HoldPayload] = []
    payloads.reserveCapacity(n)
    for i in 0..<n {
        payloads.append(.wake(app: Int32(i)))
        heap.push(increments.next(&rng), id: UInt32(i))
    }
    var check: UInt64 = 0
    let ns = nanoseconds {
        for _ in 0..<ops {
            let top = heap.popMin()!
            let slot = Int(top.id)
            switch payloads[slot] {
            case .wake(let app):
                check &+= UInt64(bitPattern: top.time) &+ UInt64(app)
                payloads[slot] = .sessionEnd(app: app, bytes: 1)
            case .sessionEnd(let app, let bytes):
                check &+= UInt64(bitPattern: top.time) &+ UInt64(bitPattern: bytes)
                payloads[slot] = .wake(app: app)
            }
            heap.push(top.time &+ increments.next(&rng), id: top.id)
        }
    }
    consume(check)
    return ns
}
