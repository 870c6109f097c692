import Device
import SimCore

/// `usage-predictor` — learns when the user opens each app and refreshes it
/// shortly before a likely launch, under a daily energy budget.
///
/// It starts knowing nothing. Each launch observed adds one to the app's
/// counter for its time-of-day slot, both over all days and for that day of
/// the week; every counter decays by `decay` per day so habits can change.
/// The probability of a launch in a slot is the decayed count over the
/// decayed number of days observed (capped at 1), the mean of the
/// all-days and the same-weekday estimates once that weekday has been seen.
/// From `leadTime` before a slot with probability ≥ `threshold` until that
/// slot ends, the app's refresh runs (once per slot; if its request is not
/// yet allowed, the policy asks to be woken at its `earliestBeginDate`). A
/// slot counts as refreshed for when a background refresh aimed at it is
/// seen to finish, or when the app is launched in it (the foreground fetch):
/// never when the run is merely asked for, since an ask may be refused or
/// dropped by a wrapper. Background energy spent since midnight is capped at
/// `dailyBudget` joules: no task starts once the day's spending plus the
/// expected cost of the runs being started (background joules so far per
/// finished task: wakes, promotions and tails included) would exceed it.
/// The budget is battery energy: processing that requires external power
/// runs on the charger whenever eligible and is not counted; other
/// processing runs when eligible, within the budget.
///
/// Source: usage-aware prefetching, FALCON (Yan et al., MobiSys 2012) and
/// iOS's own "app usage at this time of day" signal (WWDC 2020,
/// "Background execution demystified").
/// Parameters:
/// - `leadTime` (duration, default 2m): how long before a likely launch to refresh.
/// - `threshold` (number, default 0.15): launch probability in a slot that triggers a refresh.
/// - `decay` (number, default 0.9): per-day weight of the past (1 = never forget).
/// - `dailyBudget` (number, joules, default 100): background energy allowed per day.
/// - `slot` (duration, default 15m): width of the time-of-day slots.
///
/// Defaults chosen on a population other than the default suite's (seed 99,
/// 300 users × 14 days, grid leadTime 1m/2m/5m/10m × slot 5m/10m/15m ×
/// threshold 0.1–0.4): the extra joules per extra fresh launch hardly move
/// across the grid (15–18 J), 15-min slots are the most efficient at every
/// threshold, the lead time barely matters (2m: the latest that leaves the
/// task time to finish); threshold 0.15 gives a fresh-launch ratio of 0.372
/// (never: 0.293; 0.3: 0.320) and a mean age at launch of 2.1 h (0.3: 3.4 h)
/// for 64 J a day, within the 100 J budget.
public struct UsagePredictorPolicy: SchedulingPolicy {
    /// Launches change what it learns; finished tasks say which slots have
    /// been refreshed for and what a run costs. (Other observations would
    /// only roll the day counters forward, which `decide` and the next
    /// launch do anyway, with the same result.)
    public static var observedKinds: ObservationKinds { [.launch, .taskFinished] }
    public var leadTime: SimDuration
    public var threshold: Double { didSet { likely.removeAll() } }
    public var decay: Double
    public var dailyBudget: Double
    public var slot: SimDuration { didSet { likely.removeAll() } }

    var slotsPerDay: Int { max(1, Int(SimDuration.microsecondsPerDay / slot.microseconds)) }
    /// Decayed launch counts, flat (one array each so the daily decay is
    /// one vectorisable pass): allDays[app * slots + slot] and
    /// byWeekday[(app * 7 + weekday) * slots + slot].
    var allDays: [Double] = []
    var byWeekday: [Double] = []
    /// Number of apps the counters hold.
    var appsKnown = 0
    /// Decayed number of days observed, overall and per weekday.
    var daysSeen = 0.0
    var weekdaysSeen = [Double](repeating: 0, count: 7)
    var currentDay = -1
    /// Start of the slot each app was last refreshed for (by a finished
    /// background refresh, or a launch in that slot).
    var refreshedFor: [SimTime] = []
    /// Start of the slot each app's refresh aimed at in the last decision
    /// (`noSlot`: none).
    var target: [SimTime] = []
    static var noSlot: SimTime { SimTime(microseconds: Int64.min / 4) }
    /// Background tasks seen to finish: background energy over this count
    /// (wakes, promotions and tails included) is what the budget check
    /// expects the next run to cost.
    var taskCount = 0
    /// Energy of finished tasks that need external power (so ran on the
    /// charger); left out of the battery budget. Their radio tails are not
    /// in a task report and stay counted (small: at home, mostly Wi-Fi).
    var chargerJoules = 0.0
    /// Per app, the last scan for its next likely slot (see `firstLikelySlot`).
    ///
    /// Why: `decide` looks for each pending refresh's next likely slot, up to
    /// a day of slots ahead, at every decision point, although the answer
    /// only changes when the app's launch counts change. Entry `a` says:
    /// among the slot starts in [lo, hi), the first whose launch probability
    /// reaches `threshold` is `first` (nil: none). What invalidates it: a
    /// new day (decay and days seen, all apps; see `roll`) and a change of
    /// `threshold` or `slot`; a launch of app `a` only raises the slots of
    /// its time of day, which `launchCounted` re-checks. Probabilities are otherwise constant, so a cached answer
    /// is exactly what a fresh scan would give.
    var likely: [LikelyScan?] = []

    struct LikelyScan {
        var lo: SimTime
        var hi: SimTime
        var first: SimTime?
    }
    var energyDay = 0
    var energyAtDayStart = 0.0
    /// The run list of the last decision that needed one, kept for its
    /// storage: the simulator has let go of that decision by the time the
    /// next list is built, so the buffer is unique and refilling it
    /// allocates nothing (about 45 k arrays fewer per 40-user suite run). A
    /// decision still held elsewhere (a wrapper's, a caller's) keeps its own
    /// list: the buffer is then copied on write, as a new array would have
    /// been allocated. (Not done in fixed-interval: one more field makes it
    /// too big for an existential's inline buffer, which cost more.)
    var runList: [RequestID] = []

    public init(leadTime: SimDuration = .minutes(2), threshold: Double = 0.15, decay: Double = 0.9,
                dailyBudget: Double = 100, slot: SimDuration = .minutes(15)) {
        self.leadTime = leadTime
        self.threshold = threshold
        self.decay = decay
        self.dailyBudget = dailyBudget
        self.slot = slot
    }

    /// Makes room for apps 0..<apps.
    ///
    /// Called for every pending refresh at every decision, where there is
    /// almost always room already: that check is inlined, the growth is not.
    @inline(__always)
    mutating func ensure(apps: Int) {
        if appsKnown < apps || likely.count < apps { grow(apps: apps) }
    }

    @inline(never)
    mutating func grow(apps: Int) {
        while appsKnown < apps {
            allDays.append(contentsOf: repeatElement(0, count: slotsPerDay))
            byWeekday.append(contentsOf: repeatElement(0, count: 7 * slotsPerDay))
            refreshedFor.append(Self.noSlot)
            target.append(Self.noSlot)
            appsKnown += 1
        }
        while likely.count < apps { likely.append(nil) }
    }

    /// Advances the day counters (with decay) up to the day of `t`.
    ///
    /// The early return matters for speed, not for the result: without it
    /// the optimiser hoists the arrays' uniqueness checks above the loop, so
    /// every call made them unique even on the same day — and a copy of the
    /// policy (coalescing asks one what it would decide ahead) copied all
    /// its counters, ~40 KB, on each of its decisions.
    mutating func roll(to t: SimTime) {
        guard currentDay < t.day else { return }
        rollDays(to: t)
    }

    @inline(never)
    mutating func rollDays(to t: SimTime) {
        while currentDay < t.day {
            currentDay += 1
            if currentDay > 0 {
                daysSeen *= decay
                for w in 0..<7 { weekdaysSeen[w] *= decay }
                for i in allDays.indices { allDays[i] *= decay }
                for i in byWeekday.indices { byWeekday[i] *= decay }
            }
            daysSeen += 1
            weekdaysSeen[currentDay % 7] += 1
            // Every probability changed: forget every cached scan.
            for a in likely.indices { likely[a] = nil }
        }
    }

    func slotIndex(_ t: SimTime) -> Int { min(slotsPerDay - 1, Int(t.timeOfDay.microseconds / slot.microseconds)) }

    /// Estimated probability that `app` is launched in the slot containing `t`.
    public func launchProbability(app: Int, at t: SimTime) -> Double {
        launchProbability(app: app, slotIndex: slotIndex(t), weekday: t.weekday)
    }

    /// As `launchProbability(app:at:)`, for time-of-day slot `s` on weekday `w`.
    func launchProbability(app: Int, slotIndex s: Int, weekday w: Int) -> Double {
        guard app < appsKnown, daysSeen > 0 else { return 0 }
        let n = slotsPerDay
        let overall = min(1, allDays[app * n + s] / daysSeen)
        guard weekdaysSeen[w] > 0 else { return overall }
        let weekday = min(1, byWeekday[(app * 7 + w) * n + s] / weekdaysSeen[w])
        return (overall + weekday) / 2
    }

    public mutating func observe(_ observation: PolicyObservation, context: PolicyContext) {
        ensure(apps: context.appCount)
        roll(to: context.now)
        switch observation {
        case .launch(let app):
            ensure(apps: Int(app) + 1)
            let a = Int(app), n = slotsPerDay
            let s = slotIndex(context.now)
            allDays[a * n + s] += 1
            byWeekday[(a * 7 + context.now.weekday) * n + s] += 1
            launchCounted(app: a, slotIndex: s)
            // The foreground fetch refreshed the app for the current slot.
            let current = slotFloor(context.now)
            if refreshedFor[a] < current { refreshedFor[a] = current }
        case .taskFinished(let report) where report.request.kind.refreshesContent:
            // A refresh ran (whatever its outcome: one attempt per slot): it
            // was for the slot the last decision aimed at. Recorded here, not
            // when the run was asked for, since an ask may not run.
            let a = Int(report.request.app)
            ensure(apps: a + 1)
            let t = target[a]
            if t != Self.noSlot && t + slot > report.start && refreshedFor[a] < t { refreshedFor[a] = t }
            taskCount += 1
        case .taskFinished(let report) where report.request.requiresExternalPower:
            // Ran on the charger: its energy came from the wall, not the battery.
            chargerJoules += report.energyJoules
        case .taskFinished:
            taskCount += 1
        default:
            break
        }
    }

    /// Repairs `likely[app]` after a launch in time-of-day slot `s`: only
    /// slots with that index gained probability (the denominators did not
    /// change), so only they can have become likely; every other slot keeps
    /// its answer.
    mutating func launchCounted(app a: Int, slotIndex s: Int) {
        guard let c = likely[a] else { return }
        let end = c.first ?? c.hi
        var t = c.lo
        while t < end {
            if slotIndex(t) == s && launchProbability(app: a, at: t) >= threshold {
                likely[a] = LikelyScan(lo: c.lo, hi: c.hi, first: t)
                return
            }
            t = t + slot
        }
    }

    /// The first slot start in [lo, hi) (slot-aligned bounds) where `app`'s
    /// launch probability reaches `threshold`, or nil. Answers from
    /// `likely[app]` when the cached range covers the question, scanning
    /// only what it does not cover.
    ///
    /// The usual answer (nine calls in ten in the default suite) is a
    /// cached likely slot still ahead: that test is inlined into `decide`;
    /// everything else is `scanLikelySlot`.
    @inline(__always)
    mutating func firstLikelySlot(app a: Int, from lo: SimTime, to hi: SimTime) -> SimTime? {
        if let c = likely[a], c.lo <= lo, let f = c.first, f >= lo {
            // Nothing likely in [c.lo, f): f is still ahead, so it is the answer.
            return f < hi ? f : nil
        }
        return scanLikelySlot(app: a, from: lo, to: hi)
    }

    /// `firstLikelySlot` past its inlined cache hit.
    @inline(never)
    mutating func scanLikelySlot(app a: Int, from lo: SimTime, to hi: SimTime) -> SimTime? {
        var scanFrom = lo
        if let c = likely[a], c.lo <= lo {
            if let f = c.first {
                // Nothing likely in [c.lo, f): if f is still ahead, it is the answer.
                if f >= lo { return f < hi ? f : nil }
            } else if c.hi >= lo {
                // Nothing likely in [c.lo, c.hi): only [c.hi, hi) is unknown.
                scanFrom = max(lo, c.hi)
            }
        }
        var found: SimTime? = nil
        var t = scanFrom
        if SimDuration.microsecondsPerDay % slot.microseconds == 0 && t >= .zero {
            // Slots tile the day exactly: walk (slot index, weekday) along
            // with t instead of deriving both from t by division each step.
            let n = slotsPerDay
            var s = slotIndex(t), w = t.weekday
            if a < appsKnown && daysSeen > 0 && allDays.count >= (a + 1) * n && byWeekday.count >= (a * 7 + 7) * n {
                // `launchProbability(app:slotIndex:weekday:)` with what does
                // not change along the walk read once, the counters through
                // buffer pointers (the test above keeps every index of the
                // walk, s < n and w < 7, in range): the same arithmetic on
                // the same values, so the same answers.
                let slot = slot, threshold = threshold, daysSeen = daysSeen
                let overallBase = a * n, weekdayBase = a * 7
                allDays.withUnsafeBufferPointer { allDays in
                    byWeekday.withUnsafeBufferPointer { byWeekday in
                        weekdaysSeen.withUnsafeBufferPointer { weekdaysSeen in
                            var seenW = weekdaysSeen[w]
                            while t < hi {
                                let overall = min(1, allDays[overallBase + s] / daysSeen)
                                var p = overall
                                if seenW > 0 {
                                    let weekday = min(1, byWeekday[(weekdayBase + w) * n + s] / seenW)
                                    p = (overall + weekday) / 2
                                }
                                if p >= threshold { found = t; break }
                                t = t + slot
                                s += 1
                                if s == n { s = 0; w = w == 6 ? 0 : w + 1; seenW = weekdaysSeen[w] }
                            }
                        }
                    }
                }
            } else {
                while t < hi {
                    if launchProbability(app: a, slotIndex: s, weekday: w) >= threshold { found = t; break }
                    t = t + slot
                    s += 1
                    if s == n { s = 0; w = w == 6 ? 0 : w + 1 }
                }
            }
        } else {
            while t < hi {
                if launchProbability(app: a, at: t) >= threshold { found = t; break }
                t = t + slot
            }
        }
        likely[a] = LikelyScan(lo: lo, hi: max(hi, scanFrom), first: found)
        return found
    }

    /// The start of the slot containing `t`.
    func slotFloor(_ t: SimTime) -> SimTime {
        let w = slot.microseconds
        var q = t.microseconds / w
        if t.microseconds % w < 0 { q -= 1 }
        return SimTime(microseconds: q * w)
    }

    /// Whether background energy since midnight (`spent`) leaves room for
    /// `runs` more tasks of the mean observed cost (`perTask`).
    func budgetAllows(spent: Double, perTask: Double, runs: Int) -> Bool {
        spent + Double(runs) * perTask <= dailyBudget
    }

    /// Decides from `context.pending` and what was observed. Records nothing
    /// about the runs it asks for: a wrapper may drop them, the OS may
    /// refuse them, a queued one may go back to pending. Only `target`, what
    /// each app's refresh is currently aiming at, is noted here; it becomes
    /// `refreshedFor` when a refresh is seen to finish (`observe`).
    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        ensure(apps: context.appCount)
        roll(to: context.now)
        // The budget is battery energy: work done on the charger is left out.
        let batteryJoules = context.backgroundJoules - chargerJoules
        if context.now.day != energyDay {
            energyDay = context.now.day
            energyAtDayStart = batteryJoules
        }
        let spent = batteryJoules - energyAtDayStart
        let overBudget = spent >= dailyBudget
        let perTask = taskCount > 0 ? batteryJoules / Double(taskCount) : 0
        // The requests that run are marked in a bit mask (pending lists are
        // short) and answered as `runAllEligible` when they are all the
        // eligible ones — the same requests in the same order, without an
        // array per decision; a list only when some eligible request waits.
        // Eligible requests are counted rather than flagged: a request runs
        // only if eligible, so one waits exactly when fewer run than are
        // eligible. The device-state rules are read once (`EligibilityTest`),
        // and the wake is a plain time and a flag rather than an optional.
        let eligibility = EligibilityTest(context)
        let now = context.now
        let pending = context.pending
        let useMask = pending.count <= 64
        var mask: UInt64 = 0
        var runs = 0, eligibles = 0
        var run: [RequestID] = []
        // (`SimTime.distantFuture` spelt out: the static costs an accessor call.)
        var wake = SimTime(microseconds: .max), hasWake = false
        let slot = slot, leadTime = leadTime
        // The current slot stays open until its end; a day's worth of
        // upcoming slots from there.
        let first = slotFloor(now)
        let horizon = slot * Int64(slotsPerDay)
        pending.withUnsafeBufferPointer { pending in
            for i in pending.indices {
                let r = pending[i]
                let eligible = eligibility.allows(r)
                if eligible { eligibles += 1 }
                var runsNow = false
                if r.kind == .processing {
                    // On the charger it costs the battery nothing; otherwise it
                    // is held to the budget like a refresh.
                    runsNow = eligible
                        && (r.requiresExternalPower || (!overBudget && budgetAllows(spent: spent, perTask: perTask, runs: runs + 1)))
                } else {
                    runsNow = decideRefresh(r, eligible: eligible, now: now, first: first, horizon: horizon, slot: slot,
                                            leadTime: leadTime, overBudget: overBudget, spent: spent, perTask: perTask,
                                            runs: runs, wake: &wake, hasWake: &hasWake)
                }
                if runsNow {
                    runs += 1
                    if useMask { mask |= 1 << UInt64(i) } else { run.append(r.id) }
                }
            }
        }
        var wakeAt = hasWake ? wake : nil
        if overBudget {
            let tomorrow = SimTime(day: now.day + 1)
            wakeAt = wakeAt.map { max($0, tomorrow) } ?? tomorrow
        }
        if useMask {
            if runs == 0 { return PolicyDecision(wakeAt: wakeAt) }
            if runs == eligibles { return PolicyDecision(runAllEligible: true, wakeAt: wakeAt) }
            runList.removeAll(keepingCapacity: true)
            runList.reserveCapacity(runs)
            for (i, r) in pending.enumerated() where mask & (1 << UInt64(i)) != 0 { runList.append(r.id) }
            return PolicyDecision(run: runList, wakeAt: wakeAt)
        }
        return PolicyDecision(run: run, wakeAt: wakeAt)
    }

    /// `decide` for one pending refresh `r`: whether it runs now, and the
    /// wake it asks for (the earliest of all asked is `wake`, `hasWake` set
    /// once one is asked; `<=` so that even the largest time counts).
    /// `runs`: the runs picked before it (the budget check counts them).
    @inline(__always)
    mutating func decideRefresh(_ r: TaskRequest, eligible: Bool, now: SimTime, first: SimTime, horizon: SimDuration,
                                slot: SimDuration, leadTime: SimDuration, overBudget: Bool, spent: Double, perTask: Double,
                                runs: Int, wake: inout SimTime, hasWake: inout Bool) -> Bool {
        let a = Int(r.app)
        ensure(apps: a + 1)
        // Upcoming slots (a day's worth, from the current one): the first
        // likely one not yet refreshed for decides.
        var from = first
        let refreshed = refreshedFor[a]
        if refreshed >= first {
            from = first + slot * ((refreshed - first).microseconds / slot.microseconds + 1)
        }
        // `target` is written only when it changes: a copy of this
        // policy deciding ahead (coalescing) then shares the array
        // with the original instead of copying it.
        guard let start = firstLikelySlot(app: a, from: from, to: from + horizon) else {
            if target[a] != Self.noSlot { target[a] = Self.noSlot }
            return false
        }
        if target[a] != start { target[a] = start }
        let runFrom = start - leadTime
        if now >= runFrom {
            if overBudget || !budgetAllows(spent: spent, perTask: perTask, runs: runs + 1) { return false }
            if eligible { return true }
            if now < r.earliestBegin {
                // Due but not yet allowed: be woken when it is (a later
                // decision would otherwise only come with another event).
                if r.earliestBegin <= wake { wake = r.earliestBegin; hasWake = true }
            }
            // Otherwise a state change (screen, power, network) brings the next decision.
        } else {
            let at = max(runFrom, r.earliestBegin)
            if at <= wake { wake = at; hasWake = true }
        }
        return false
    }
}
