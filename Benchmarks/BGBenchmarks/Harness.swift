// The benchmark harness: measurements, families, timing, a seeded RNG and
// the sink that keeps results alive. A new family is one more file that
// defines a `BenchmarkFamily` and one line in `allFamilies` (main.swift).
import Foundation
import SimCore

/// One row of output: the candidate and the baseline on the same workload.
struct Measurement {
    var benchmark: String
    var n: Int
    /// Operations timed per run (what one "op" is, is the family's summary).
    var operations: Int
    var nsPerOp: Double
    var baselineNsPerOp: Double
    /// Bytes the candidate had allocated per pending event, if measured.
    var bytesPerEvent: Double?
    /// Further figures for the human table (printed under the row).
    var note: String? = nil

    var speedup: Double { baselineNsPerOp / nsPerOp }
}

/// A named group of benchmarks; `run` returns one measurement per size.
struct BenchmarkFamily: Sendable {
    var name: String
    /// What one operation is, for the human table.
    var summary: String
    /// Column titles of the human table: what the candidate and the baseline are.
    var candidateTitle = "queue ns/op"
    var baselineTitle = "textbook ns/op"
    /// False for a family too slow for every `make bench`: it runs only
    /// when `--filter` names it whole.
    var runsByDefault = true
    var run: @Sendable () -> [Measurement]
}

/// Queue sizes to run (`--n`); empty means every size a family defines.
nonisolated(unsafe) var onlySizes: Set<Int> = []

/// The sizes of `sizes` selected on the command line.
func selectedSizes(_ sizes: [Int]) -> [Int] {
    onlySizes.isEmpty ? sizes : sizes.filter(onlySizes.contains)
}

/// Keeps benchmark results observable so the optimiser cannot drop the work.
nonisolated(unsafe) var sink: UInt64 = 0

@inline(never)
func consume(_ value: UInt64) { sink &+= value }

/// Nanoseconds taken by `body`.
@inline(__always)
func nanoseconds(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    body()
    let d = clock.now - start
    return Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
}

/// Runs candidate and baseline alternately (so both see the same machine
/// load, which matters on a shared machine) and returns the best ns per
/// operation of each.
func interleavedBest(operations: Int, repetitions: Int,
                     candidate: () -> Double, baseline: () -> Double) -> (Double, Double) {
    var best = (Double.infinity, Double.infinity)
    for _ in 0..<repetitions {
        best.0 = min(best.0, candidate())
        best.1 = min(best.1, baseline())
    }
    return (best.0 / Double(operations), best.1 / Double(operations))
}

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast, well mixed; enough
/// for benchmark workloads, and independent of the Stats module.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound (multiply-shift; bias negligible for small bounds).
    @inline(__always)
    mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bound).multipliedFullWidth(by: next())).high)
    }
}

/// Exponential increments in whole microseconds, drawn by inverse CDF from a
/// 4096-point table (32 KB) so that `log` does not dominate the timings of
/// the structures being compared. Quantiles are taken at bin midpoints.
struct ExponentialIncrements: Sendable {
    private let table: [Int64]

    /// `mean` in microseconds.
    init(mean: Double) {
        let size = 4096
        table = (0..<size).map { k in
            let u = (Double(k) + 0.5) / Double(size)
            let x = -mean * log(1 - u)
            return Int64(x.rounded())
        }
    }

    @inline(__always)
    func next(_ rng: inout SplitMix64) -> Int64 {
        table[Int(truncatingIfNeeded: rng.next() >> 52)]
    }
}
