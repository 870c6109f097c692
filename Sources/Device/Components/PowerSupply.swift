import SimCore

/// The battery and what feeds or drains it: the charger (a cursor over the
/// trace's charging intervals), the exogenous drain (screen on or idle),
/// the background energy taken off, the battery alarm and the Low Power
/// Mode clock.
///
/// Decides: the battery power now (`watts`: charger minus drain); the
/// level as it moves (`setLevel`, clamped to [0, 100]) and the thresholds
/// of ``OSRules`` it crosses (`pendingCrossings`); when the next battery
/// decision point falls (`alarm`, ``BatteryAlarm``); when the charger is
/// plugged in or out next (`nextChargingBoundary`).
///
/// Raises: the loop's charger boundary and battery events. Their handlers
/// (`DeviceSimulator.chargingBoundary`, `setCharging` and
/// `batteryThresholdReached`, DeviceSimulator+State.swift) expire work
/// that needs external power, switch Low Power Mode as the user answers
/// its offers, and tell the policy.
///
/// Owns: everything above but the level and Low Power Mode themselves,
/// which are device state (`DeviceState`, the policy's view, passed in
/// where a method moves them).
///
/// Measured battery (`DeviceTrace.measuredBattery`, off unless a spec asks):
/// between the first and the last reading the power is the real phone's,
/// read off the slope of its level between two readings, and replaces the
/// charger and the drains; each reading is a power boundary, handled with
/// the charger's (`powerBoundary`). Docs/Semantics.md, "Measured battery".
struct PowerSupply {
    /// The trace's charging intervals: the charger is plugged in while one is under way.
    private(set) var charger: IntervalCursor<DeviceTrace.Charging>
    /// The next charger boundary or measured reading, whichever comes
    /// first (`.farFuture`: none): the loop's one power event.
    private(set) var nextChargingBoundary: SimTime = .farFuture

    /// The real phone's readings (empty: the level is modelled).
    let measured: [DeviceTrace.MeasuredLevel]
    /// Power between reading i and i + 1, W: the slope of the measured
    /// level times the capacity.
    let measuredWatts: [Double]
    /// The next reading to reach.
    private(set) var measuredIndex = 0

    let capacityJoules: Double
    /// Battery percent per joule, `100 / capacityJoules`: the level moves by
    /// a multiplication at every event, not a division (a long-latency
    /// instruction on the loop's critical path).
    let percentPerJoule: Double
    /// Charger power, W (the trace's, else the configuration's).
    let chargingWatts: Double
    /// Exogenous drain with the screen on and off, W (the trace's).
    let screenOnDrainWatts: Double
    let idleDrainWatts: Double
    /// Battery power now, W: charger minus exogenous drain (background
    /// work is taken off as it is spent). Recomputed where the charger or
    /// the screen changes (`loadChanged`): it is read two or three times
    /// per event.
    private(set) var watts = 0.0

    /// The next battery decision point.
    var alarm: BatteryAlarm
    /// Thresholds the level crossed and the threshold logic has not yet
    /// handled (`BatteryCrossing` bits): the battery event is due now.
    var pendingCrossings: UInt8 = 0
    /// Background joules already taken off the battery.
    private(set) var energyOnBattery = 0.0
    /// Since when Low Power Mode is on (nil: off).
    private(set) var lowPowerSince: SimTime? = nil

    init(trace: DeviceTrace, configuration: DeviceConfiguration) {
        charger = IntervalCursor(trace.charging)
        capacityJoules = (configuration.batteryCapacityWh ?? trace.batteryCapacityWh) * 3600
        percentPerJoule = 100 / capacityJoules
        chargingWatts = trace.chargingWatts ?? configuration.chargingWatts
        screenOnDrainWatts = trace.screenOnDrainWatts
        idleDrainWatts = trace.idleDrainWatts
        alarm = BatteryAlarm(capacityJoules: capacityJoules)
        measured = trace.measuredBattery
        let joulesPerPercent = capacityJoules / 100
        measuredWatts = zip(measured, measured.dropFirst()).map { a, b in
            (b.percent - a.percent) * joulesPerPercent / (b.time - a.time).seconds
        }
        cursorMoved()
    }

    /// The measured power now (nil: outside the readings, the level is modelled).
    @inline(__always)
    private var measuredPowerNow: Double? {
        measuredIndex >= 1 && measuredIndex < measured.count ? measuredWatts[measuredIndex - 1] : nil
    }

    /// The measured level at `now` (nil: outside the readings), linear
    /// between the two readings around it.
    func measuredPercent(at now: SimTime) -> Double? {
        guard measuredIndex >= 1 && measuredIndex < measured.count else { return nil }
        let a = measured[measuredIndex - 1], b = measured[measuredIndex]
        return a.percent + (b.percent - a.percent) * ((now - a.time).seconds / (b.time - a.time).seconds)
    }

    // MARK: The charger

    /// Whether the run starts on the charger (an interval from time 0).
    var startsOnCharger: Bool { charger.intervals.first.map { $0.start <= .zero } ?? false }

    /// Whether the charger is plugged in.
    @inline(__always)
    var onCharger: Bool { charger.inside }

    /// The charger is plugged in at time 0.
    mutating func plugInAtStart() {
        charger.enter()
        cursorMoved()
    }

    /// The power boundary at `now`: the charger plugged in at the start of
    /// an interval, out at its end, and/or a measured reading reached.
    /// Returns whether the charger is now plugged in, and the level to
    /// re-anchor the battery at (nil: none), which is the measured level
    /// at the first reading and at an unplug inside the readings (the
    /// charger is taken to have covered the background energy spent while
    /// plugged in; Docs/Semantics.md, "Measured battery").
    @inline(__always)
    mutating func powerBoundary(at now: SimTime) -> (onCharger: Bool, anchor: Double?) {
        var anchor: Double? = nil
        if charger.nextBoundary == now {
            if charger.inside {
                charger.leave()
                anchor = measuredPercent(at: now)
            } else {
                charger.enter()
            }
        }
        if measuredIndex < measured.count && measured[measuredIndex].time == now {
            if measuredIndex == 0 { anchor = measured[0].percent }
            measuredIndex += 1
        }
        cursorMoved()
        return (charger.inside, anchor)
    }

    @inline(__always)
    private mutating func cursorMoved() {
        nextChargingBoundary = measuredIndex < measured.count
            ? min(charger.nextBoundary, measured[measuredIndex].time) : charger.nextBoundary
    }

    // MARK: The level

    /// The charger's or the screen's state changed, or a measured reading
    /// was reached: recompute `watts`.
    @inline(__always)
    mutating func loadChanged(charging: Bool, screenOn: Bool) {
        watts = measuredPowerNow ?? ((charging ? chargingWatts : 0) - (screenOn ? screenOnDrainWatts : idleDrainWatts))
    }

    /// The background energy not yet taken off the battery, given the total
    /// charged so far (`total`); from now on it counts as taken off.
    @inline(__always)
    mutating func takeOff(total: Double) -> Double {
        let spent = total - energyOnBattery
        energyOnBattery = total
        return spent
    }

    /// Whether background energy was charged since the last `takeOff`.
    @inline(__always)
    func isSettled(total: Double) -> Bool { total == energyOnBattery }

    /// Sets the level (clamped to [0, 100]) and records any threshold it
    /// crossed in `pendingCrossings`: the loop then runs the threshold logic
    /// at this same time (`batteryThresholdReached`), whatever made the
    /// level move — the linear drain reaching an alarm, a chunk of
    /// background energy (a chunk from just above to just below a threshold
    /// crosses it too), or an alarm that coincides with another event.
    /// `lowest` is the lowest level so far (a metric), moved with it.
    @inline(__always)
    mutating func setLevel(_ newLevel: Double, state: inout DeviceState, lowest: inout Double, rules: OSRules) {
        let old = state.batteryPercent
        let level = min(100, max(0, newLevel))
        state.batteryPercent = level
        let low = rules.lowBatteryPercent, second = rules.secondLowPowerOfferPercent
        let off = rules.lowPowerModeOffPercent
        // Nested so that the common case (going down above the low-battery
        // threshold, going up above the switch-off one) makes one test:
        // this runs twice per event.
        // Going down, a threshold is crossed when the level goes *below*
        // it, as rule 4 reads it ("below 20 %"): at exactly 20.0 % refresh
        // is still allowed and batteryLow has not fired; both change together.
        if level < old {
            if level < low {
                if old >= low { pendingCrossings |= BatteryCrossing.downLow }
                if level < second && old >= second { pendingCrossings |= BatteryCrossing.downSecond }
            }
            if level < lowest { lowest = level }
        } else if level > old && old < off {
            if level >= low && old < low { pendingCrossings |= BatteryCrossing.upLow }
            if level >= off && state.isLowPowerMode { pendingCrossings |= BatteryCrossing.upOff }
        }
    }

    /// Reschedules the battery alarm from the level and Low Power Mode at
    /// `now` and the power now.
    @inline(__always)
    mutating func scheduleAlarm(at now: SimTime, level: Double, lowPower: Bool, rules: OSRules) {
        alarm.schedule(at: now, level: level, watts: watts, lowPower: lowPower, rules: rules)
    }

    /// When the battery event falls, for the loop's agenda: now while a
    /// crossing recorded by `setLevel` waits to be handled, else the alarm.
    @inline(__always)
    mutating func nextBatteryEvent(now: SimTime) -> SimTime {
        if pendingCrossings != 0 { return now }
        alarm.resolve()
        return alarm.time
    }

    /// The crossings the battery event handles, cleared: those recorded by
    /// `setLevel`, or, when the alarm fired with the level short of its
    /// target by rounding, the alarm's own target, with the level snapped
    /// just past it so that the rules and the next alarm agree.
    mutating func takeCrossings(state: inout DeviceState, lowest: inout Double, rules: OSRules) -> UInt8 {
        var crossed = pendingCrossings
        pendingCrossings = 0
        if crossed == 0 {
            let level = state.batteryPercent
            if watts < 0 {
                let isLow = level > rules.downwardAlarmSplit
                state.batteryPercent = (isLow ? rules.lowBatteryPercent : rules.secondLowPowerOfferPercent) - 1e-9
                crossed = isLow ? BatteryCrossing.downLow : BatteryCrossing.downSecond
                if state.batteryPercent < lowest { lowest = state.batteryPercent }
            } else {
                let isLow = level < rules.upwardAlarmSplit
                state.batteryPercent = (isLow ? rules.lowBatteryPercent : rules.lowPowerModeOffPercent) + 1e-9
                crossed = isLow ? BatteryCrossing.upLow : BatteryCrossing.upOff
            }
        }
        return crossed
    }

    // MARK: Low Power Mode

    /// Low Power Mode switched on or off at `now`. Returns the hours it was
    /// on when it switches off (nil otherwise).
    mutating func lowPowerSwitched(_ on: Bool, at now: SimTime) -> Double? {
        if on {
            lowPowerSince = now
            return nil
        }
        guard let s = lowPowerSince else { return nil }
        lowPowerSince = nil
        return (now - s).seconds / 3600
    }

    /// The hours of Low Power Mode still on at `now` (nil: off).
    func lowPowerHours(until now: SimTime) -> Double? {
        lowPowerSince.map { (now - $0).seconds / 3600 }
    }
}

/// Bits of `PowerSupply.pendingCrossings`: battery thresholds crossed and
/// not yet handled.
enum BatteryCrossing {
    /// Down through `OSRules.lowBatteryPercent` (the first Low Power Mode offer).
    static let downLow: UInt8 = 1
    /// Down through `OSRules.secondLowPowerOfferPercent`.
    static let downSecond: UInt8 = 2
    /// Up through `OSRules.lowBatteryPercent`.
    static let upLow: UInt8 = 4
    /// Up through `OSRules.lowPowerModeOffPercent` (in Low Power Mode).
    static let upOff: UInt8 = 8
}
