import SimCore

/// A mechanism's entry for one planned run (``PlannedBackgroundRun``
/// itself, or the run with what the mechanism keeps beside it), so that
/// ``PerAppRuns`` can find each run's end.
protocol PlannedRunEntry {
    var plannedRun: PlannedBackgroundRun { get }
}

extension PlannedBackgroundRun: PlannedRunEntry {
    var plannedRun: PlannedBackgroundRun { self }
}

/// The runs beside the worker of a mechanism that lets each app have at
/// most one at a time (a silent push's handler, `beginBackgroundTask`'s
/// extra time): the run in progress per app, the earliest end among them
/// (the mechanism's next event) and the runs started per app, whose count
/// numbers the runs' draws.
struct PerAppRuns<Entry: PlannedRunEntry> {
    /// The run in progress per app.
    private(set) var entries: [Entry?]
    /// The earliest end of a run in progress (`.farFuture`: none).
    private(set) var nextEnd = SimTime.farFuture
    /// Runs started per app.
    private var started: [UInt64]

    init(apps: Int) {
        entries = Array(repeating: nil, count: apps)
        started = Array(repeating: 0, count: apps)
    }

    var appCount: Int { entries.count }

    /// The run number of `app`'s next run (counted as started).
    mutating func nextRunNumber(app: Int) -> UInt64 {
        let n = started[app]
        started[app] = n &+ 1
        return n
    }

    /// `entry` is now `app`'s run in progress.
    mutating func start(_ entry: Entry, app: Int) {
        entries[app] = entry
        recomputeNextEnd()
    }

    /// Takes out `app`'s run if it has ended by `t`; ``nextEnd`` is
    /// recomputed by ``recomputeNextEnd()`` once the caller has taken all.
    mutating func takeIfEnded(app: Int, by t: SimTime) -> Entry? {
        guard let e = entries[app], e.plannedRun.end <= t else { return nil }
        entries[app] = nil
        return e
    }

    /// Takes out every run still in progress, by app (at the horizon).
    mutating func takeAll() -> [Entry] {
        let all = entries.compactMap { $0 }
        entries = Array(repeating: nil, count: entries.count)
        nextEnd = .farFuture
        return all
    }

    mutating func recomputeNextEnd() {
        var earliest = SimTime.farFuture
        for case let e? in entries { earliest = min(earliest, e.plannedRun.end) }
        nextEnd = earliest
    }
}

/// Per app, the prefixes of a planned run's failure and server-latency
/// draws (keyed by the run's number), one set per mechanism so that no two
/// mechanisms share draws.
struct PlannedRunDraws {
    let failurePrefixes: [UInt64]
    let latencyPrefixes: [UInt64]

    /// The prefixes of apps `0..<apps`, from the app's index.
    init(apps: Int, failure: (UInt64) -> UInt64, latency: (UInt64) -> UInt64) {
        let n = UInt64(apps)
        failurePrefixes = (0..<n).map(failure)
        latencyPrefixes = (0..<n).map(latency)
    }
}
