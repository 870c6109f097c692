import Device
import SimCore

// The usage-predictor's cached answers: the next likely slot per app (the
// scans) and the time each app's refresh is due (the plans), with the
// exact conditions that invalidate them. Kept apart from the policy's
// rules (UsagePredictorPolicy.swift) so each file reads in one sitting.
extension UsagePredictorPolicy {
    /// One app's entry in `plans`.
    ///
    /// Why: `decide` looks for each pending refresh's next likely slot, up to
    /// a day of slots ahead, at every decision point (about seven pending
    /// requests, 160 k decisions per 40-user suite run), although the answer
    /// only changes when the app's launch counts change. So each app keeps
    /// the outcome of its last scan, and where the next one may start:
    ///
    /// - `fromFloor` is `slotFloor(refreshedFor) + slot`, so that the first
    ///   slot a refresh may aim at is `max(slotFloor(now), fromFloor)`: the
    ///   current slot, or the one after the slot last refreshed for if that
    ///   is not behind (slot starts are multiples of `slot`, so this is
    ///   `first + slot · ((refreshed − first) / slot + 1)` without a
    ///   division per request). Updated wherever `refreshedFor` changes.
    /// - No slot start in [`lo`, `clear`) has a launch probability reaching
    ///   `threshold`; `clear` does if `found`. Every scan starts on a slot
    ///   start (a multiple of `slot`), so the slot starts in the range are
    ///   all that were looked at. `lo` is `unscanned` when nothing is known.
    ///   What invalidates it: a new day (decay and days seen, all apps; see
    ///   `roll`) and a change of `threshold` or `slot`; a launch of the app
    ///   only raises the slots of its time of day, which `launchCounted`
    ///   re-checks. Probabilities are otherwise constant, so a cached answer
    ///   is exactly what a fresh scan would give.
    /// - `target`: the start of the slot the app's refresh aimed at in the
    ///   last decision (`noSlot`: none).
    /// - `runFrom`: when the app's refresh is due (`target − leadTime`;
    ///   `never` with no target), the answer for every `now` in [`since`,
    ///   `until`). That range is worked out with it (`replan`) from what
    ///   the scan showed: a target stays the first likely slot until it
    ///   ends; no target holds while the day ahead stays within what was
    ///   found clear. So most pending refreshes cost a range test, with no
    ///   division, scan or write. What invalidates it (`since = unplanned`):
    ///   whatever changes the scan or `fromFloor` (a launch of the app, its
    ///   `refreshedFor`, a new day, `threshold`, `slot`), and `leadTime`.
    struct Plan {
        var since: SimTime
        var until: SimTime
        var runFrom: SimTime
        var fromFloor: SimTime
        var lo: SimTime
        var clear: SimTime
        var target: SimTime
        var found: Bool
        /// Start of the slot the app was last refreshed for (by a finished
        /// background refresh, or a launch in that slot).
        var refreshedFor: SimTime
    }
    /// `lo` of a `Plan` with no scan: no `from` is at or after it.
    static var unscanned: SimTime { SimTime(microseconds: .max) }
    /// `since` of a `Plan` to be worked out again: no `now` is at or after it.
    static var unplanned: SimTime { SimTime(microseconds: .max) }
    /// `runFrom` with no target: never due, no wake.
    static var never: SimTime { SimTime(microseconds: .max) }
    /// How many slots past the day ahead a scan that finds nothing there
    /// goes on looking: the next decisions, a slot later each, then answer
    /// from the cache instead of scanning one new slot each.
    static var lookaheadSlots: Int64 { 8 }

    /// Forgets every app's scan (probabilities or what counts as likely
    /// changed), and so its plan.
    mutating func forgetScans() {
        for a in plans.indices {
            plans[a].since = Self.unplanned
            plans[a].lo = Self.unscanned
            plans[a].clear = Self.noSlot
            plans[a].found = false
        }
    }

    /// Forgets every app's plan (not its scan).
    mutating func forgetPlans() {
        for a in plans.indices { plans[a].since = Self.unplanned }
    }

    /// `slot` changed: new slot starts, so new `fromFloor`s, and no scan holds.
    mutating func slotChanged() {
        slotsPerDay = Self.slotsPerDay(slot)
        launchedExact = false
        for a in plans.indices { plans[a].fromFloor = slotFloor(plans[a].refreshedFor) + slot }
        forgetScans()
    }

    /// `app` counts as refreshed for the slot starting at `slotStart`: its
    /// `refreshedFor`, and `fromFloor` with it (see `Plan`).
    mutating func markRefreshed(app a: Int, for slotStart: SimTime) {
        plans[a].refreshedFor = slotStart
        plans[a].fromFloor = slotFloor(slotStart) + slot
    }

    /// Repairs `plans[app]`'s scan after a launch in time-of-day slot `s`:
    /// only slots with that index gained probability (the denominators did
    /// not change), so only they can have become likely; every other slot
    /// keeps its answer.
    mutating func launchCounted(app a: Int, slotIndex s: Int) {
        let p = plans[a]
        guard p.lo < p.clear else { return }
        if tilesDay(from: p.lo) {
            // The slot starts of index s are s slots into each day.
            let offset = slot * Int64(s)
            var d = p.lo.day
            var t = SimTime(day: d, plus: offset)
            if t < p.lo { d += 1; t = SimTime(day: d, plus: offset) }
            while t < p.clear {
                if launchProbability(app: a, slotIndex: s, weekday: d % 7) >= threshold {
                    plans[a].clear = t
                    plans[a].found = true
                    return
                }
                d += 1
                t = SimTime(day: d, plus: offset)
            }
        } else {
            var t = p.lo
            while t < p.clear {
                if slotIndex(t) == s && launchProbability(app: a, at: t) >= threshold {
                    plans[a].clear = t
                    plans[a].found = true
                    return
                }
                t = t + slot
            }
        }
    }

    /// The first slot start in [from, to) (slot starts) where `app`'s launch
    /// probability reaches `threshold`, or `noSlot`, past the cache hit that
    /// `decideRefresh` tests inline: scans what `plans[app]` does not cover
    /// and records what it saw. Inlined into `replan`, its one caller
    /// (already out of `decide`'s loop), with `walk`: one call per scan.
    @inline(__always)
    mutating func scanPlan(app a: Int, from: SimTime, to: SimTime) -> SimTime {
        let p = plans[a]
        var lo = from, scanFrom = from
        if p.lo <= from && from <= p.clear && !p.found {
            // Nothing likely in [p.lo, p.clear), which ends before `to`:
            // only the rest is unknown.
            lo = p.lo
            scanFrom = p.clear
        }
        let (stop, found) = walk(app: a, from: scanFrom, to: to + slot * Self.lookaheadSlots)
        plans[a].lo = lo
        plans[a].clear = stop
        plans[a].found = found
        return found && stop < to ? stop : Self.noSlot
    }

    /// Walks the slot starts t = from, from + slot, … while t < end: the
    /// first whose launch probability reaches `threshold` and true, or the
    /// first slot start at or after `end` and false.
    @inline(__always)
    func walk(app a: Int, from: SimTime, to end: SimTime) -> (stop: SimTime, found: Bool) {
        var t = from
        var found = false
        if tilesDay(from: t) {
            // Slots tile the day exactly: walk (slot index, weekday) along
            // with t instead of deriving both from t by division each step.
            let n = slotsPerDay
            var s = slotIndex(t), w = t.weekday
            if a < appsKnown && daysSeen > 0 && allDays.count >= (a + 1) * n && byWeekday.count >= (a * 7 + 7) * n {
                // `launchProbability(app:slotIndex:weekday:)` with what does
                // not change along the walk read once (the test above keeps
                // every index of the walk, s < n and w < 7, in range): the
                // same arithmetic on the same values, so the same answers.
                //
                // Slots never launched are jumped over (see `launched`):
                // `next` is the first launched slot at or after s today (n:
                // none). A jump may take t past `end`: the slots jumped over
                // are not likely all the same.
                let slot = slot, threshold = threshold, daysSeen = daysSeen, weekdaysSeen = weekdaysSeen
                let overallBase = a * n, weekdayBase = a * 7
                let words = launchedWords, bitBase = a * words
                let skip = launchedExact && !(0 >= threshold) && launched.count >= bitBase + words
                var seenW = weekdaysSeen[w]
                while t < end {
                    if skip {
                        var k = s >> 6
                        var bits = launched[bitBase + k] & (~0 << UInt64(s & 63))
                        while bits == 0 && k + 1 < words { k += 1; bits = launched[bitBase + k] }
                        let next = bits == 0 ? n : k << 6 + bits.trailingZeroBitCount
                        if next != s {
                            t = t + slot * Int64(next - s)
                            if next == n {
                                s = 0; w = w == 6 ? 0 : w + 1; seenW = weekdaysSeen[w]
                                continue
                            }
                            s = next
                            if t >= end { break }
                        }
                    }
                    let overall = min(1, allDays[overallBase + s] / daysSeen)
                    var p = overall
                    if seenW > 0 {
                        let weekday = min(1, byWeekday[(weekdayBase + w) * n + s] / seenW)
                        p = (overall + weekday) / 2
                    }
                    if p >= threshold { found = true; break }
                    t = t + slot
                    s += 1
                    if s == n { s = 0; w = w == 6 ? 0 : w + 1; seenW = weekdaysSeen[w] }
                }
            } else {
                while t < end {
                    if launchProbability(app: a, slotIndex: s, weekday: w) >= threshold { found = true; break }
                    t = t + slot
                    s += 1
                    if s == n { s = 0; w = w == 6 ? 0 : w + 1 }
                }
            }
        } else {
            while t < end {
                if launchProbability(app: a, at: t) >= threshold { found = true; break }
                t = t + slot
            }
        }
        return (t, found)
    }

    /// When `app`'s pending refresh is due at `now`: `leadTime` before the
    /// first likely slot of the day ahead (from the current slot, or the one
    /// after the slot last refreshed for), `never` with none. The app's plan
    /// while it holds (a range test), else worked out again (`replan`).
    @inline(__always)
    mutating func dueTime(app a: Int, now: SimTime) -> SimTime {
        if a >= plans.count { grow(apps: a + 1) }
        let p = plans[a]
        return now >= p.since && now < p.until ? p.runFrom : replan(app: a, now: now)
    }

    /// Works out `plans[app]` for `now` (its plan did not hold): the target
    /// (noted in `target`), when it is due, and for which `now` that holds.
    /// Returns `runFrom`.
    @inline(never)
    mutating func replan(app a: Int, now: SimTime) -> SimTime {
        // Upcoming slots (a day's worth, from the current one, which stays
        // open until its end, or from the one after the slot last
        // refreshed for): the first likely one decides. The usual answer
        // comes from the app's last scan (see `Plan`).
        let first = slotFloor(now)
        let horizon = slot * Int64(slotsPerDay)
        let p = plans[a]
        let from = max(first, p.fromFloor)
        let to = from + horizon
        var start = Self.noSlot
        if p.lo <= from && from <= p.clear && (p.found || p.clear >= to) {
            if p.clear < to { start = p.clear }
        } else {
            start = scanPlan(app: a, from: from, to: to)
        }
        // For a later `now` (first′ = slotFloor(now) ≥ first, so from′ ≥
        // from): a target stays the answer while first′ ≤ start (nothing
        // likely in [from′, start), start < from + horizon ≤ to′); no
        // target, while to′ = first′ + horizon stays within what the scan
        // found clear (from′ = first′ there: fromFloor + horizon ≤ to ≤ clear).
        let runFrom: SimTime, until: SimTime
        if start != Self.noSlot {
            runFrom = start - leadTime
            until = start + slot
        } else {
            runFrom = Self.never
            until = plans[a].clear - horizon + slot
        }
        plans[a].since = first
        plans[a].until = until
        plans[a].runFrom = runFrom
        plans[a].target = start
        return runFrom
    }
}
