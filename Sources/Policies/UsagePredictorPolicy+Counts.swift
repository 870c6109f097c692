import Device
import SimCore

// The usage-predictor's learned launch counts: room per app, the daily
// decay, a launch counted, and the slot arithmetic they are indexed by.
// The state itself is declared with the policy (UsagePredictorPolicy.swift),
// whose rule reads it through `launchProbability`.
extension UsagePredictorPolicy {
    static func slotsPerDay(_ slot: SimDuration) -> Int {
        max(1, Int(SimDuration.microsecondsPerDay / slot.microseconds))
    }

    /// Makes room for apps 0..<apps.
    ///
    /// Called at every decision and observation, where there is almost
    /// always room already: that check is inlined, the growth is not.
    @inline(__always)
    mutating func ensure(apps: Int) {
        if appsKnown < apps { grow(apps: apps) }
    }

    @inline(never)
    mutating func grow(apps: Int) {
        while appsKnown < apps {
            allDays.append(contentsOf: repeatElement(0, count: slotsPerDay))
            byWeekday.append(contentsOf: repeatElement(0, count: 7 * slotsPerDay))
            launched.append(contentsOf: repeatElement(0, count: launchedWords))
            plans.append(Plan(since: Self.unplanned, until: Self.noSlot, runFrom: Self.never,
                              fromFloor: slotFloor(Self.noSlot) + slot, lo: Self.unscanned, clear: Self.noSlot,
                              target: Self.noSlot, found: false, refreshedFor: Self.noSlot))
            appsKnown += 1
        }
    }

    /// Counts a launch of app `a` at `t` in its time-of-day slot, over all
    /// days and for that weekday; the app's scan and plan follow
    /// (`launchCounted`, and its plan is worked out again).
    mutating func countLaunch(app a: Int, at t: SimTime) {
        ensure(apps: a + 1)
        let n = slotsPerDay
        let s = slotIndex(t)
        allDays[a * n + s] += 1
        byWeekday[(a * 7 + t.weekday) * n + s] += 1
        if launchedExact { launched[a * launchedWords + s >> 6] |= 1 << UInt64(s & 63) }
        launchCounted(app: a, slotIndex: s)
        plans[a].since = Self.unplanned
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
                if !decay.isFinite { launchedExact = false }
                daysSeen *= decay
                for w in 0..<7 { weekdaysSeen[w] *= decay }
                for i in allDays.indices { allDays[i] *= decay }
                for i in byWeekday.indices { byWeekday[i] *= decay }
            }
            daysSeen += 1
            weekdaysSeen[currentDay % 7] += 1
        }
        // Every probability changed: forget every scan.
        forgetScans()
    }

    @inline(__always) // small: a call would cost as much as the body (scans, launches)
    func slotIndex(_ t: SimTime) -> Int { min(slotsPerDay - 1, Int(t.timeOfDay.microseconds / slot.microseconds)) }

    /// The start of the slot containing `t`.
    func slotFloor(_ t: SimTime) -> SimTime {
        let w = slot.microseconds
        var q = t.microseconds / w
        if t.microseconds % w < 0 { q -= 1 }
        return SimTime(microseconds: q * w)
    }

    /// Whether slots tile the day exactly (so a slot's index and weekday
    /// can be walked along with it) from `t` on.
    func tilesDay(from t: SimTime) -> Bool {
        SimDuration.microsecondsPerDay % slot.microseconds == 0 && t.microseconds >= 0
    }
}
