import Foundation

/// Bounds on the size of a run, checked before anything is allocated or
/// simulated: the memory a run needs is estimated from its users × days ×
/// configurations and refused, with the estimate, above ``memoryLimitBytes``.
/// Documented in `Docs/ExperimentSpec.md` ("Size limits").
public enum ResourceLimits {
    /// Configurations one spec may expand into (grids multiply fast).
    public static let maxConfigurations = 10_000
    /// Upper bound of `population.users` and of a trace set's users.
    public static let maxUsers = 100_000_000
    /// Upper bound of `population.days` and of a trace set's days (ten years).
    public static let maxDays = 3_650

    /// Memory a run may be estimated to need: 16 GiB, or the value of the
    /// environment variable `BGBENCH_MEMORY_LIMIT_GIB` (a number of GiB) on a
    /// bigger machine.
    public static var memoryLimitBytes: Double {
        if let text = ProcessInfo.processInfo.environment["BGBENCH_MEMORY_LIMIT_GIB"],
           let gib = Double(text), gib.isFinite, gib > 0 {
            return gib * 1_073_741_824
        }
        return 16 * 1_073_741_824
    }

    /// Bytes held per result row: the metric values, the row's key, and the
    /// sorted copy made before writing.
    static func bytesPerRow(metrics: Int) -> Double { Double(2 * (metrics * 8 + 24)) }
    /// Bytes held per work item and configuration until the end: the wakes-by-hour counts.
    static let bytesPerItemConfiguration = 24.0 * 8 + 16
    /// Bytes of one user's world and simulation state per simulated day, per
    /// thread (sessions, content updates, network and charging intervals and
    /// the event queue; measured order of magnitude, rounded up).
    static let bytesPerUserDay = 256.0 * 1024

    /// Bytes per content update and per session held in a user's world.
    static let bytesPerUpdate = 8.0
    static let bytesPerSession = 32.0

    /// The estimate, in bytes, in `Double` so that no product can overflow.
    /// `updatesPerDay` and `sessionsPerDay` are the largest a user of this
    /// world may have (0 when unknown: a trace set already read).
    public static func estimatedBytes(users: Int, days: Int, replications: Int, configurations: Int,
                                      metrics: Int, threads: Int,
                                      updatesPerDay: Double = 0, sessionsPerDay: Double = 0) -> Double {
        let items = Double(users) * Double(replications)
        let rows = items * Double(configurations)
        let perUserDay = bytesPerUserDay + updatesPerDay * bytesPerUpdate + sessionsPerDay * bytesPerSession
        return rows * bytesPerRow(metrics: metrics) + rows * bytesPerItemConfiguration
            + Double(max(1, threads)) * Double(days) * perUserDay
    }

    /// Throws when the estimate is above the limit, naming both.
    public static func checkMemory(users: Int, days: Int, replications: Int, configurations: Int,
                                   metrics: Int, threads: Int, updatesPerDay: Double = 0, sessionsPerDay: Double = 0,
                                   path: String) throws(SpecError) {
        let need = estimatedBytes(users: users, days: days, replications: replications,
                                  configurations: configurations, metrics: metrics, threads: threads,
                                  updatesPerDay: updatesPerDay, sessionsPerDay: sessionsPerDay)
        let limit = memoryLimitBytes
        guard need <= limit else {
            throw SpecError(path: path, message: "this run would need about \(gib(need)) of memory (\(users) users × \(replications) replication(s) × \(configurations) configurations, \(days) days), above the limit of \(gib(limit)); run it in shards (--shard i/n, Docs/Slurm.md) or raise BGBENCH_MEMORY_LIMIT_GIB on a machine that has the memory")
        }
    }

    static func gib(_ bytes: Double) -> String { String(format: "%.1f GiB", bytes / 1_073_741_824) }

    /// `traces generate` holds the whole set before writing it: users ×
    /// days × (1 KiB + 8 B per update + 32 B per session, at twice the mean
    /// rates), refused above the same limit.
    public static func checkTraceSetMemory(users: Int, days: Int, updatesPerDay: Double,
                                           sessionsPerDay: Double) throws(SpecError) {
        let need = Double(users) * Double(days) * (1_024 + updatesPerDay * bytesPerUpdate + sessionsPerDay * bytesPerSession)
        let limit = memoryLimitBytes
        guard need <= limit else {
            throw SpecError(path: "--users", message: "a trace set of \(users) users × \(days) days would need about \(gib(need)) of memory, above the limit of \(gib(limit)); generate fewer users per set (a spec's population is generated user by user, without this limit) or raise BGBENCH_MEMORY_LIMIT_GIB")
        }
    }
}
