import SimCore

// Device state: network, charging, battery, Low Power Mode.
extension DeviceSimulator {
    mutating func applyNetwork(_ network: NetworkType, notify: Bool) {
        radio.networkChanged(to: network, at: now)
        syncRadioTail()
        guard network != state.network else { return }
        state.network = network
        if notify {
            if Sink.isEnabled { logState("network") }
            policyObserve(.stateChanged, .stateChanged(.networkChanged))
            consultPolicy()
        }
    }

    /// Tails the radio settled (network change, foreground start, end of
    /// run, and the tail gap a transfer settles when it starts inside an
    /// earlier tail) are added to the metrics here and logged as tail rows;
    /// a task's own row never holds tail energy.
    mutating func syncRadioTail() {
        let delta = radio.energy.tail - metrics.energy.tail
        guard delta > 0 else { return }
        metrics.energy.tail = radio.energy.tail
        if Sink.isEnabled { logTail(delta) }
    }

    mutating func chargingBoundary() {
        if inCharging {
            inCharging = false
            chargingIndex += 1
            setCharging(false, notify: true)
        } else {
            setCharging(true, notify: true)
        }
    }

    mutating func setCharging(_ on: Bool, notify: Bool) {
        inCharging = on
        state.isCharging = on
        screenOrChargerChanged()
        // Unplugged: a processing task that needs external power is expired.
        if !on && isRunning && runningTask.request.requiresExternalPower { finishRunningTask(interrupted: true) }
        if on && state.isLowPowerMode && state.batteryPercent >= rules.lowPowerModeOffPercent { setLowPower(false) }
        scheduleBatteryAlarm()
        if notify {
            if Sink.isEnabled { logState(on ? "charging_started" : "charging_stopped") }
            policyObserve(.stateChanged, .stateChanged(on ? .chargingStarted : .chargingStopped))
            consultPolicy()
        }
    }

    /// Battery power in watts: charger minus exogenous drain (background
    /// work is taken off as it is spent). Kept in `batteryWattsNow`,
    /// recomputed where the charger or the screen changes (`screenOrChargerChanged`):
    /// it is read two or three times per event.
    @inline(__always)
    var batteryWatts: Double { batteryWattsNow }

    /// The charger's or the screen's state changed: recompute `batteryWattsNow`.
    @inline(__always)
    mutating func screenOrChargerChanged() {
        batteryWattsNow = (state.isCharging ? chargingWatts : 0)
            - (state.isScreenOn ? trace.screenOnDrainWatts : trace.idleDrainWatts)
    }

    /// Integrates the battery from `now` to `t` (linear between events),
    /// takes off the background energy spent since the last call, and
    /// moves `now` to `t`.
    ///
    /// `now` moves *before* the alarm is rescheduled: the alarm is anchored
    /// at the time of the level it starts from (anchored at the previous
    /// event's time, it would come early by the gap and time could go back;
    /// BatteryThresholdTests).
    mutating func advanceBattery(to t: SimTime) {
        let dt = Double(t.microseconds - now.microseconds) * 1e-6
        let spent = metrics.energy.total - energyOnBattery
        energyOnBattery = metrics.energy.total
        now = t
        setBatteryLevel(state.batteryPercent + (batteryWatts * dt - spent) * percentPerJoule)
        if spent != 0 { scheduleBatteryAlarm() }
    }

    /// `advanceBattery(to:)` inside the loop, where the background energy
    /// was taken off at the end of the previous step (`settleBackgroundEnergy`)
    /// and none was charged since: only the drain moves the level. The
    /// same level as `advanceBattery` (whose `spent` is then +0, and
    /// `x - 0` is `x`), without summing the energy ledger again.
    @inline(__always)
    mutating func drainBattery(to t: SimTime) {
        #if BGBENCH_INVARIANTS
        precondition(metrics.energy.total == energyOnBattery, "background energy not settled")
        #endif
        // `&-`: both times lie in [0, horizon] (no overflow test per event).
        let dt = Double(t.microseconds &- now.microseconds) * 1e-6
        now = t
        setBatteryLevel(state.batteryPercent + batteryWatts * dt * percentPerJoule)
    }

    /// Takes the background energy charged during this event off the
    /// battery now (at the time it was charged), instead of at the next
    /// event: a chunk that takes the level across a threshold crosses it
    /// at this time, and the alarm is rescheduled from the true level.
    @inline(__always)
    mutating func settleBackgroundEnergy() {
        let total = metrics.energy.total
        guard total != energyOnBattery else { return }
        let spent = total - energyOnBattery
        energyOnBattery = total
        setBatteryLevel(state.batteryPercent - spent * percentPerJoule)
        scheduleBatteryAlarm()
    }

    /// Sets the level (clamped to [0, 100]) and records any threshold it
    /// crossed in `pendingCrossings`: the loop then runs the threshold logic
    /// at this same time (`batteryThresholdReached`), whatever made the
    /// level move — the linear drain reaching an alarm, a chunk of
    /// background energy (a chunk from just above to just below a threshold
    /// crosses it too), or an alarm that coincides with another event.
    @inline(__always)
    mutating func setBatteryLevel(_ newLevel: Double) {
        let old = state.batteryPercent
        let level = min(100, max(0, newLevel))
        state.batteryPercent = level
        let low = rules.lowBatteryPercent, second = rules.secondLowPowerOfferPercent
        let off = rules.lowPowerModeOffPercent
        // Nested so that the common case (going down above the low-battery
        // threshold, going up above the switch-off one) makes one test:
        // this runs twice per event.
        if level < old {
            if level <= low {
                if old > low { pendingCrossings |= BatteryCrossing.downLow }
                if level <= second && old > second { pendingCrossings |= BatteryCrossing.downSecond }
            }
            if level < metrics.minBatteryPercent { metrics.minBatteryPercent = level }
        } else if level > old && old < off {
            if level >= low && old < low { pendingCrossings |= BatteryCrossing.upLow }
            if level >= off && state.isLowPowerMode { pendingCrossings |= BatteryCrossing.upOff }
        }
    }

    /// The next time the level crosses a battery threshold of ``OSRules``
    /// (`OSRules.alarmTarget`): the low-battery level and the second offer
    /// going down, the low-battery level and (charging, in Low Power Mode)
    /// the switch-off level going up.
    ///
    /// Only records the inputs (time, level, power, target);
    /// `resolveBatteryAlarm` computes the time when the loop needs it. Why:
    /// one event often reschedules twice (the battery advance, then a screen
    /// or charger change) and only the last answer is used; the inputs are
    /// exactly those an eager computation would use, so the alarm is the
    /// same. The target is picked here, once: inputs without one are no
    /// alarm at once.
    @inline(__always)
    mutating func scheduleBatteryAlarm() {
        let level = state.batteryPercent
        let watts = batteryWatts
        if let target = rules.alarmTarget(level: level, watts: watts, lowPower: state.isLowPowerMode) {
            alarmInputs = AlarmInputs(anchor: now, level: level, watts: watts, target: target)
        } else {
            alarmInputs = nil
            batteryAlarm = .farFuture
        }
    }

    /// Turns the inputs recorded by the last `scheduleBatteryAlarm` into `batteryAlarm`.
    @inline(__always)
    mutating func resolveBatteryAlarm() {
        guard let inputs = alarmInputs else { return }
        alarmInputs = nil
        batteryAlarm = Self.batteryAlarm(inputs, capacityJoules: capacityJoules)
    }

    /// The battery alarm for the loop's choice of the next event: exact,
    /// or `.farFuture` when it certainly comes after `bound` (the earliest
    /// other event), its inputs then left pending.
    ///
    /// Why: the alarm is rescheduled at almost every event, and its value
    /// is nearly always later than the next event and replaced there; the
    /// test below is cheaper than the exact time. It is conservative: the alarm is `anchor` plus at least
    /// `seconds · 1e6` µs with `seconds = |target − level| / 100 · C / |w|`;
    /// it is skipped only if `|target − level| · C · 1e4 > D · |w|` (D the
    /// µs from `anchor` to `bound`) with a relative margin of 1e-9, far
    /// above the rounding of either side (a few ulps), so it never skips an
    /// alarm at or before `bound`. A skipped alarm is computed exactly from
    /// the same inputs if the policy-wake branch needs it.
    @inline(__always)
    mutating func batteryAlarm(unlessAfter bound: SimTime) -> SimTime {
        if let i = alarmInputs {
            if bound > i.anchor {
                let lhs = (i.target - i.level).magnitude * capacityJoules * 1e4
                // `&-`: `bound` > `anchor` ≥ 0, so no overflow even for `.farFuture`.
                let rhs = Double(bound.microseconds &- i.anchor.microseconds) * i.watts.magnitude
                if lhs > rhs * (1 + 1e-9) { return .farFuture }
            }
            resolveBatteryAlarm()
        }
        return batteryAlarm
    }

    /// When the level, moving linearly from `i.level` at `i.anchor`, reaches `i.target`.
    static func batteryAlarm(_ i: AlarmInputs, capacityJoules: Double) -> SimTime {
        let seconds = (i.target - i.level) / 100 * capacityJoules / i.watts
        let micros = max(1, ceilToInt64(seconds * 1e6))
        return i.anchor + SimDuration(microseconds: micros)
    }

    /// `Int64(x.rounded(.up))` without the libm call (the build's baseline
    /// x86-64 has no rounding instruction): same value for every x in Int64
    /// range (truncation, then one up if something was cut off).
    @inline(__always)
    static func ceilToInt64(_ x: Double) -> Int64 {
        let i = Int64(x)
        return Double(i) < x ? i + 1 : i
    }

    /// The battery decision point: for each crossing recorded by
    /// `setBatteryLevel` (or, when the alarm fired with the level short of
    /// its target by rounding, the alarm's own target, snapped just past),
    /// in order: down through `lowBatteryPercent` (batteryLow, Low Power
    /// Mode offered), down through `secondLowPowerOfferPercent` (offered
    /// again), up through `lowBatteryPercent` (batteryOK), up through
    /// `lowPowerModeOffPercent` while charging (Low Power Mode off). Then
    /// one decision point. The user's answer to each offer is the trace's
    /// (`acceptsLowPower`, first and second offer of the day).
    mutating func batteryThresholdReached() {
        var crossed = pendingCrossings
        pendingCrossings = 0
        if crossed == 0 {
            // The alarm: the level is at its target up to rounding. Snap
            // just past it so the rules and the next alarm agree.
            let level = state.batteryPercent
            if batteryWatts < 0 {
                let isLow = level > rules.downwardAlarmSplit
                state.batteryPercent = (isLow ? rules.lowBatteryPercent : rules.secondLowPowerOfferPercent) - 1e-9
                crossed = isLow ? BatteryCrossing.downLow : BatteryCrossing.downSecond
                if state.batteryPercent < metrics.minBatteryPercent { metrics.minBatteryPercent = state.batteryPercent }
            } else {
                let isLow = level < rules.upwardAlarmSplit
                state.batteryPercent = (isLow ? rules.lowBatteryPercent : rules.lowPowerModeOffPercent) + 1e-9
                crossed = isLow ? BatteryCrossing.upLow : BatteryCrossing.upOff
            }
        }
        if crossed & BatteryCrossing.downLow != 0 {
            if Sink.isEnabled { logState(OSRules.thresholdEventName(rules.lowBatteryPercent)) }
            policyObserve(.stateChanged, .stateChanged(.batteryLow))
            if !state.isLowPowerMode && trace.acceptsLowPower(day: now.day, threshold: 0) { setLowPower(true) }
        }
        if crossed & BatteryCrossing.downSecond != 0 {
            if Sink.isEnabled { logState(OSRules.thresholdEventName(rules.secondLowPowerOfferPercent)) }
            if !state.isLowPowerMode && trace.acceptsLowPower(day: now.day, threshold: 1) { setLowPower(true) }
        }
        if crossed & BatteryCrossing.upLow != 0 {
            if Sink.isEnabled { logState(OSRules.thresholdEventName(rules.lowBatteryPercent)) }
            policyObserve(.stateChanged, .stateChanged(.batteryOK))
        }
        if crossed & BatteryCrossing.upOff != 0 {
            if Sink.isEnabled { logState(OSRules.thresholdEventName(rules.lowPowerModeOffPercent)) }
            if state.isCharging && state.isLowPowerMode { setLowPower(false) }
        }
        scheduleBatteryAlarm()
        consultPolicy()
    }

    mutating func setLowPower(_ on: Bool) {
        guard on != state.isLowPowerMode else { return }
        state.isLowPowerMode = on
        if on { lowPowerSince = now } else if let s = lowPowerSince {
            metrics.lowPowerModeHours += (now - s).seconds / 3600
            lowPowerSince = nil
        }
        if Sink.isEnabled { logState(on ? "low_power_on" : "low_power_off") }
        policyObserve(.stateChanged, .stateChanged(on ? .lowPowerModeOn : .lowPowerModeOff))
    }
}

/// Bits of `DeviceSimulator.pendingCrossings`: battery thresholds crossed
/// and not yet handled.
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
