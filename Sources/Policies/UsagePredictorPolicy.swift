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
    public static var traits: PolicyTraits { PolicyTraits(observedKinds: [.launch, .taskFinished]) }
    public var leadTime: SimDuration { didSet { forgetPlans() } }
    public var threshold: Double { didSet { forgetScans() } }
    public var decay: Double
    public var dailyBudget: Double
    public var slot: SimDuration { didSet { slotChanged() } }

    public init(leadTime: SimDuration = .minutes(2), threshold: Double = 0.15, decay: Double = 0.9,
                dailyBudget: Double = 100, slot: SimDuration = .minutes(15)) {
        self.leadTime = leadTime
        self.threshold = threshold
        self.decay = decay
        self.dailyBudget = dailyBudget
        self.slot = slot
        self.slotsPerDay = Self.slotsPerDay(slot)
        self.launchedWords = (Self.slotsPerDay(slot) + 63) / 64
    }

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
            let a = Int(app)
            countLaunch(app: a, at: context.now)
            // The foreground fetch refreshed the app for the current slot.
            let current = slotFloor(context.now)
            if plans[a].refreshedFor < current { markRefreshed(app: a, for: current) }
        case .taskFinished(let report) where report.request.kind.refreshesContent:
            // A refresh ran (whatever its outcome: one attempt per slot): it
            // was for the slot the last decision aimed at. Recorded here, not
            // when the run was asked for, since an ask may not run.
            let a = Int(report.request.app)
            ensure(apps: a + 1)
            let t = plans[a].target
            if t != Self.noSlot && t + slot > report.start && plans[a].refreshedFor < t {
                markRefreshed(app: a, for: t)
                plans[a].since = Self.unplanned
            }
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

    /// The slot a refresh of `app` aims at when deciding at `now`: the
    /// first likely one (``firstLikelySlot(app:from:to:)``) in the day of
    /// slots ahead, from the current slot (open until its end) or, if the
    /// app was refreshed for it already, the slot after the one it was last
    /// refreshed for. Nil: none; the refresh is due `leadTime` before it.
    ///
    /// The rule as written: `decide` reads the same answer from each app's
    /// plan (``dueTime(app:now:)``, UsagePredictorPolicy+Plans.swift), a
    /// cache that `FastPathTests` checks against this at random states.
    func slotAimedAt(app a: Int, now: SimTime) -> SimTime? {
        let first = slotFloor(now)
        var from = first
        let refreshed = a < plans.count ? plans[a].refreshedFor : Self.noSlot
        if refreshed >= first {
            from = first + slot * ((refreshed - first).microseconds / slot.microseconds + 1)
        }
        return firstLikelySlot(app: a, from: from, to: from + slot * Int64(slotsPerDay))
    }

    /// The first slot start in [lo, hi), slot by slot, whose launch
    /// probability reaches `threshold`; nil: none.
    func firstLikelySlot(app a: Int, from lo: SimTime, to hi: SimTime) -> SimTime? {
        var t = lo
        while t < hi {
            if launchProbability(app: a, at: t) >= threshold { return t }
            t = t + slot
        }
        return nil
    }

    /// Whether background energy since midnight (`spent`) leaves room for
    /// `runs` more tasks of the mean observed cost (`perTask`).
    func budgetAllows(spent: Double, perTask: Double, runs: Int) -> Bool {
        spent + Double(runs) * perTask <= dailyBudget
    }

    /// Decides from `context.pending` and what was observed. Records nothing
    /// about the runs it asks for: a wrapper may drop them, the OS may
    /// refuse them, a queued one may go back to pending. Only `target`, what
    /// each app's refresh is currently aiming at, is noted here (`dueTime`);
    /// it becomes `refreshedFor` when a refresh is seen to finish (`observe`).
    public mutating func decide(context: PolicyContext) -> PolicyDecision {
        let now = context.now
        ensure(apps: context.appCount)
        roll(to: now)
        // The budget is battery energy: work done on the charger is left out.
        let batteryJoules = context.backgroundJoules - chargerJoules
        if now.day != energyDay {
            energyDay = now.day
            energyAtDayStart = batteryJoules
        }
        let spent = batteryJoules - energyAtDayStart
        let overBudget = spent >= dailyBudget
        let perTask = taskCount > 0 ? batteryJoules / Double(taskCount) : 0
        var run: [RequestID] = []
        var wake: SimTime? = nil
        for r in context.pending {
            // Room in today's budget for one more run after those picked.
            let affordable = !overBudget && budgetAllows(spent: spent, perTask: perTask, runs: run.count + 1)
            if r.kind == .processing {
                // On the charger it costs the battery nothing; otherwise it
                // is held to the budget like a refresh.
                if context.isEligible(r) && (r.requiresExternalPower || affordable) { run.append(r.id) }
                continue
            }
            // A refresh is due from `leadTime` before its app's next likely
            // slot (`slotAimedAt`), read from the app's plan.
            let due = dueTime(app: Int(r.app), now: now)
            if due == Self.never { continue }
            if now < due {
                wake = earliest(wake, max(due, r.earliestBegin))
            } else if affordable {
                if context.isEligible(r) {
                    run.append(r.id)
                } else if now < r.earliestBegin {
                    // Due but not yet allowed: be woken when it is (a later
                    // decision would otherwise only come with another event).
                    wake = earliest(wake, r.earliestBegin)
                }
                // Otherwise a state change (screen, power, network) brings the next decision.
            }
        }
        if overBudget {
            let tomorrow = SimTime(day: now.day + 1)
            wake = wake.map { max($0, tomorrow) } ?? tomorrow
        }
        return PolicyDecision(run: run, wakeAt: wake)
    }

    func earliest(_ a: SimTime?, _ b: SimTime) -> SimTime { a.map { min($0, b) } ?? b }

    // What it has learned, and the caches that answer `decide` fast: the
    // counts' upkeep is UsagePredictorPolicy+Counts.swift, the plans'
    // UsagePredictorPolicy+Plans.swift.

    /// `max(1, day / slot)`, kept with `slot` (read at every decision and
    /// scan step; a division to derive).
    var slotsPerDay: Int
    /// Decayed launch counts, flat (one array each so the daily decay is
    /// one vectorisable pass): allDays[app * slots + slot] and
    /// byWeekday[(app * 7 + weekday) * slots + slot].
    var allDays: [Double] = []
    var byWeekday: [Double] = []
    /// Number of apps the counters (and `refreshedFor`, `plans`, `launched`) hold.
    var appsKnown = 0
    /// Per app, a bit per time-of-day slot with a launch ever counted:
    /// launched[app * launchedWords + s / 64], bit s % 64.
    ///
    /// Why: a scan for the next likely slot looked at every slot, two
    /// divisions each, although most of an app's slots never saw a launch.
    /// Their counters are exactly zero (only a launch adds to a counter,
    /// and a finite decay keeps zero zero), so their launch probability is
    /// zero: never likely when `threshold` is above zero, and a scan can
    /// jump to the next launched slot. Only while `launchedExact`: a slot
    /// change (the counters' layout no longer matches) or a non-finite
    /// decay (0 · ∞ is NaN, which `min(1, _)` turns into 1) ends it for
    /// good, and scans then look at every slot again.
    var launched: [UInt64] = []
    var launchedWords: Int
    var launchedExact = true
    /// Decayed number of days observed, overall and per weekday.
    var daysSeen = 0.0
    /// (Inline, not an array: one retain and release fewer per copy of the
    /// policy, and coalescing copies it for every lookahead.)
    var weekdaysSeen = InlineArray<7, Double>(repeating: 0)
    var currentDay = -1
    /// Start of the slot each app was last refreshed for (by a finished
    /// background refresh, or a launch in that slot), in app order: kept
    /// in `plans` (for tests).
    var refreshedFor: [SimTime] { plans.map(\.refreshedFor) }
    static var noSlot: SimTime { SimTime(microseconds: Int64.min / 4) }
    /// Background tasks seen to finish: background energy over this count
    /// (wakes, promotions and tails included) is what the budget check
    /// expects the next run to cost.
    var taskCount = 0
    /// Energy of finished tasks that need external power (so ran on the
    /// charger); left out of the battery budget. Their radio tails are not
    /// in a task report and stay counted (small: at home, mostly Wi-Fi).
    var chargerJoules = 0.0
    /// Per app, its cached next likely slot and due time (`Plan`, in
    /// UsagePredictorPolicy+Plans.swift, with the conditions that
    /// invalidate them) and `refreshedFor`.
    var plans: [Plan] = []

    /// Each app's `target`, in app order (for tests).
    var target: [SimTime] { plans.map(\.target) }

    var energyDay = 0
    var energyAtDayStart = 0.0
}
