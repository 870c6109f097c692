import SimCore

/// The user's metrics as the run goes: the counters and energy of
/// ``UserMetrics`` (`user`) and the sums the per-launch and per-task means
/// are made of, turned into the runs.csv columns at the end (`finish`).
///
/// Decides: nothing the device does; it only measures. Raises: no events.
/// A launch, a task's start, its end or censoring and a cut transfer are
/// recorded through a method here (`launch`, `taskStarted`, `taskEnded`,
/// `taskCensored`, `transferCut`), each from the value the handler worked
/// out; the other handlers still add to `user` directly (the radio's tail,
/// mechanism counters).
struct MetricsAccumulator {
    var user = UserMetrics()
    /// Sums over launches: content age and time since the last refresh, s.
    private(set) var ageSum = 0.0
    private(set) var sinceRefreshSum = 0.0
    /// Every launch's content age, s (for the 95th percentile).
    private(set) var ages: [Double] = []
    /// Sum of the delays past `earliestBegin`, µs: exact, and no division per task start.
    private(set) var delayMicros: Int64 = 0

    /// `launches`: room to reserve for the ages; `initialBatteryPercent`:
    /// the lowest level so far is the level the run starts at (not 100: a
    /// trace may start lower).
    init(launches: Int, initialBatteryPercent: Double) {
        ages.reserveCapacity(launches)
        user.minBatteryPercent = min(100, max(0, initialBatteryPercent))
    }

    /// A launch: whether its content was fresh, its age and the time since
    /// the app last fetched, s. `&+=`: per-launch counts cannot overflow.
    @inline(__always)
    mutating func launch(fresh: Bool, ageSeconds age: Double, sinceRefreshSeconds since: Double) {
        user.launches &+= 1
        if fresh { user.freshLaunches &+= 1 }
        ageSum += age
        ages.append(age)
        sinceRefreshSum += since
    }

    /// A task started as `start` worked out, `delayMicros` after its
    /// earliest begin, its transfer charging the promotion and active
    /// energy of `energy`. The one place a task start's counters change.
    /// `&+=`: per-task counts and sums of run times cannot overflow.
    @inline(__always)
    mutating func taskStarted(_ start: TaskStart, energy: EnergyLedger, delayMicros delay: Int64) {
        user.tasksRun &+= 1
        delayMicros &+= delay
        if start.block == .deadZone { user.deadZoneRuns &+= 1 }
        user.energy.promotion += energy.promotion
        user.energy.active += energy.active
    }

    /// A running transfer was cut short: the radio gave back the active
    /// energy in `refund` it had charged beyond the cut.
    @inline(__always)
    mutating func transferCut(_ refund: EnergyLedger) {
        user.energy.active += refund.active
    }

    /// The task still running at the horizon, censored (neither succeeded
    /// nor expired), with the CPU joules it spent within the horizon.
    mutating func taskCensored(cpuJoules: Double) {
        user.tasksCensored &+= 1
        user.energy.cpu += cpuJoules
    }

    /// A task's run ended as `end` worked out (its CPU energy charged), with the energy of its
    /// `energy` ledger (wasted unless it succeeded); `wastedRefresh`: a
    /// completed refresh that brought nothing new, or whose last new
    /// content no launch has seen yet. The one place a task end's counters
    /// change.
    @inline(__always)
    mutating func taskEnded(_ end: TaskEnd, energy: EnergyLedger, wastedRefresh: Bool) {
        user.energy.cpu += end.cpuJoules
        if end.overran { user.runsIgnoredCancellation &+= 1 }
        switch end.outcome {
        case .success:
            user.tasksSucceeded &+= 1
            if wastedRefresh { user.wastedRefreshes &+= 1 }
        case .failed:
            user.tasksFailed &+= 1
            user.wastedEnergyJoules += energy.total
        case .expired:
            user.tasksExpired &+= 1
            user.wastedEnergyJoules += energy.total
            if end.held { user.runsNeverCompleted &+= 1 }
        }
    }

    /// The metrics at the end of a run of `horizon` on a battery of
    /// `capacityJoules`, with the wakes by hour of day.
    mutating func finish(horizon: SimTime, capacityJoules: Double, wakesByHour: [Int]) -> UserMetrics {
        user.wakesByHour = wakesByHour
        let m = user
        user.days = horizon.seconds / 86_400
        let launches = Double(m.launches)
        if m.launches > 0 {
            user.freshLaunchRatio = Double(m.freshLaunches) / launches
            user.meanAgeSeconds = ageSum / launches
            user.meanTimeSinceRefreshSeconds = sinceRefreshSum / launches
            // The rank-th smallest age by selection (linear) instead of a
            // full sort: the same element, so the same value.
            let rank = Int((0.95 * launches).rounded(.up))
            user.p95AgeSeconds = Self.select(&ages, max(0, rank - 1))
        }
        if m.tasksRun > 0 {
            user.meanDelayPastEarliestBeginSeconds = SimDuration(microseconds: delayMicros).seconds / Double(m.tasksRun)
        }
        if m.freshLaunches > 0 { user.joulesPerFreshLaunch = user.energy.total / Double(m.freshLaunches) }
        if user.days > 0 {
            user.batteryPercentPerDayBackground = user.energy.total / capacityJoules * 100 / user.days
        }
        return user
    }

    /// The k-th smallest element of `a` (0-based), as `a.sorted()[k]`;
    /// reorders `a`. Quickselect (Hoare partition, middle pivot).
    static func select(_ a: inout [Double], _ k: Int) -> Double {
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return a[k]
    }
}
