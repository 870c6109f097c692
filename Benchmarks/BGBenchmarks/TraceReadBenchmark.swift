// Reading a trace set: `TraceSetReader.read` (strict: every value parsed and
// range-checked) on a generated 200-user × 7-day set, against reading the
// same files' bytes only (the I/O floor). One op = one byte of CSV; the note
// gives MB/s. Timed in the process's CPU time (all threads), not wall time:
// "per core", and steady on a shared machine (wall time is in the note).
// `read` is the per-user stream (`TraceSetStream`) drained, so this is the
// streaming reader's speed, on one thread.
import Foundation
import Traces

extension BenchmarkFamily {
    static let traceRead = BenchmarkFamily(
        name: "trace-read",
        summary: "one byte of trace-set CSV read strictly, user by user (TraceSetReader, on TraceSetStream) vs the bytes alone",
        candidateTitle: "reader ns/byte", baselineTitle: "bytes ns/byte"
    ) {
        selectedSizes([200]).map { users in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bgbench-trace-read-\(getpid())")
            defer { try? FileManager.default.removeItem(at: dir) }
            do {
                try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: 1, days: 7).traceSet(users: users), to: dir)
            } catch {
                fatalError("cannot write the trace set: \(error)")
            }
            let files = TraceSetFile.allCSV.map { dir.appendingPathComponent($0) }
            let bytes = files.reduce(0) { $0 + ((try? Data(contentsOf: $1).count) ?? 0) }
            var bestRead = Double.infinity, bestBytes = Double.infinity, bestWall = Double.infinity
            for _ in 0..<5 {
                var set: TraceSet?
                let c0 = processCPUNanoseconds()
                let wall = nanoseconds { set = try? TraceSetReader.read(directory: dir) }
                let t = processCPUNanoseconds() - c0
                bestWall = min(bestWall, wall)
                guard let set, set.users.count == users else { fatalError("the generated trace set does not read back") }
                consume(UInt64(set.users.count))
                bestRead = min(bestRead, t)
                let b = nanoseconds { for f in files { consume(UInt64((try? Data(contentsOf: f).count) ?? 0)) } }
                bestBytes = min(bestBytes, b)
            }
            let note = String(format: "%d users × 7 days, %.1f MB; reader %.0f MB/s per core (CPU time; %.0f MB/s wall), bytes alone %.0f MB/s",
                              users, Double(bytes) / 1e6, Double(bytes) / bestRead * 1e3, Double(bytes) / bestWall * 1e3,
                              Double(bytes) / bestBytes * 1e3)
            return Measurement(benchmark: "trace-read", n: users, operations: bytes,
                               nsPerOp: bestRead / Double(bytes), baselineNsPerOp: bestBytes / Double(bytes),
                               bytesPerEvent: nil, note: note)
        }
    }
}

/// CPU time of the whole process (every thread), ns.
private func processCPUNanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}
