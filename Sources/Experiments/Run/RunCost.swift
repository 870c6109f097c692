import Foundation
import Traces

/// What a run cost the machine: wall time, CPU time, simulated events and
/// peak memory. Recorded in `manifest.json` beside the results, never in
/// them: these figures vary from run to run (the machine's load, the thread
/// count), so nothing hashes, merges or compares them (Docs/Outputs.md,
/// "manifest.json").
public struct RunCost: Sendable, Equatable {
    /// Wall time of the simulation, including the streaming of events.csv and
    /// apps.csv; not counting runs.csv, wakes_by_hour.csv or the manifest.
    public var wallSeconds: Double
    /// User + system CPU time of the whole process over the same span
    /// (every thread), from `getrusage(RUSAGE_SELF)`.
    public var cpuSeconds: Double
    /// Steps of the devices' main loops, summed over every simulation
    /// (Docs/Performance.md, "What one event is").
    public var simulatedEvents: Int
    /// The process's peak resident set size since it started (`ru_maxrss`),
    /// in bytes.
    public var peakRSSBytes: Int

    /// A merge simulates nothing: every figure 0.
    public static let none = RunCost(wallSeconds: 0, cpuSeconds: 0, simulatedEvents: 0, peakRSSBytes: 0)

    /// The fields of `manifest.json`, in the order they are written.
    var jsonFields: [(key: String, value: JSONValue)] {
        [("wall_seconds", .number((wallSeconds * 1000).rounded() / 1000)),
         ("cpu_seconds", .number((cpuSeconds * 1000).rounded() / 1000)),
         ("simulated_events", .number(Double(simulatedEvents))),
         ("peak_rss_bytes", .number(Double(peakRSSBytes)))]
    }
}

/// The process's CPU time and peak memory so far (`getrusage(RUSAGE_SELF)`).
public struct ProcessUsage: Sendable {
    /// User + system CPU seconds of every thread so far.
    public var cpuSeconds: Double
    /// Peak resident set size in bytes (Linux reports `ru_maxrss` in KiB).
    public var peakRSSBytes: Int

    public static func now() -> ProcessUsage {
        var u = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &u)
        let rssUnit = 1024
        #else
        getrusage(RUSAGE_SELF, &u)
        let rssUnit = 1 // macOS reports bytes
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return ProcessUsage(cpuSeconds: seconds(u.ru_utime) + seconds(u.ru_stime), peakRSSBytes: Int(u.ru_maxrss) * rssUnit)
    }
}
