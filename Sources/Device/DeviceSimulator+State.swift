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
        if on && state.isLowPowerMode && state.batteryPercent >= 80 { setLowPower(false) }
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
    /// at the time of the level it starts from. (Until round fix-device the
    /// caller moved `now` after this call, so an alarm scheduled here was
    /// anchored at the previous event's time with the level already at `t`:
    /// it came early by the gap, snapped the level to 20 %/10 % too soon,
    /// and the next step could go back in time — 390 backward steps and 625
    /// misrouted events on the default suite at 200 users × 14 days.)
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
    /// event: a chunk that takes the level across 20 % or 10 % crosses it
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
    /// background energy (fix-device: a chunk from 20.01 % to 19.99 % used
    /// to skip the 20 % crossing), or an alarm that coincides with another event.
    @inline(__always)
    mutating func setBatteryLevel(_ newLevel: Double) {
        let old = state.batteryPercent
        let level = min(100, max(0, newLevel))
        state.batteryPercent = level
        // Nested so that the common case (down, above 20 %; up, from above
        // 80 %) makes one test: this runs twice per event, and the four
        // flat tests cost 29 M instructions more (default suite, 40 users).
        if level < old {
            if level <= 20 {
                if old > 20 { pendingCrossings |= BatteryCrossing.down20 }
                if level <= 10 && old > 10 { pendingCrossings |= BatteryCrossing.down10 }
            }
            if level < metrics.minBatteryPercent { metrics.minBatteryPercent = level }
        } else if level > old && old < 80 {
            if level >= 20 && old < 20 { pendingCrossings |= BatteryCrossing.up20 }
            if level >= 80 && state.isLowPowerMode { pendingCrossings |= BatteryCrossing.up80 }
        }
    }

    /// The next time the level crosses 20 %, 10 % (down) or 80 % (up, charging, for Low Power Mode off).
    ///
    /// Only records the inputs (time, level, power, Low Power Mode);
    /// `resolveBatteryAlarm` computes the time at the top of the loop. Why:
    /// the computation (two divisions and a rounding) cost ~6 % of the loop
    /// and one event often asks for it twice (the battery advance, then a
    /// screen or charger change) where only the last answer is used. The
    /// recorded inputs are exactly those the eager computation used, so the
    /// alarm is bit-identical.
    ///
    /// The target level is picked here, once: inputs without one (no
    /// power, or charging above 20 % outside Low Power Mode: about a third
    /// of the events on the default suite) are no alarm at once, and the
    /// loop's skip test no longer picks the target again at every event.
    @inline(__always)
    mutating func scheduleBatteryAlarm() {
        let level = state.batteryPercent
        let watts = batteryWatts
        if let target = Self.alarmTarget(level: level, watts: watts, lowPower: state.isLowPowerMode) {
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
    /// Why: the alarm is rescheduled at almost every event, and computing it
    /// (two divisions and a rounding) was ~3 % of the run, for a value
    /// that is nearly always later than the next event and replaced there.
    /// The test is conservative: the alarm is `anchor` plus at least
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

    /// The level the battery alarm aims at: 20 % then 10 % going down,
    /// 20 % going up, then 80 % in Low Power Mode (nil: no alarm).
    @inline(__always)
    static func alarmTarget(level: Double, watts w: Double, lowPower: Bool) -> Double? {
        guard w != 0 else { return nil }
        if w < 0 {
            if level > 20 { return 20 } else if level > 10 { return 10 } else { return nil }
        } else {
            if level < 20 { return 20 } else if level < 80 && lowPower { return 80 } else { return nil }
        }
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

    /// The threshold logic: for each crossing recorded by `setBatteryLevel`
    /// (or, when the alarm fired with the level short of its target by
    /// rounding, the alarm's own target, snapped just past), in order:
    /// 20 % down (batteryLow, Low Power Mode offered), 10 % down (offered
    /// again), 20 % up (batteryOK), 80 % up while charging (Low Power Mode
    /// off). Then one decision point.
    mutating func batteryThresholdReached() {
        var crossed = pendingCrossings
        pendingCrossings = 0
        if crossed == 0 {
            // The alarm: the level is at its target up to rounding. Snap
            // just past it so the rules and the next alarm agree.
            let level = state.batteryPercent
            if batteryWatts < 0 {
                let target = level > 15 ? 20.0 : 10
                state.batteryPercent = target - 1e-9
                crossed = target == 20 ? BatteryCrossing.down20 : BatteryCrossing.down10
                if state.batteryPercent < metrics.minBatteryPercent { metrics.minBatteryPercent = state.batteryPercent }
            } else {
                let target = level < 50 ? 20.0 : 80
                state.batteryPercent = target + 1e-9
                crossed = target == 20 ? BatteryCrossing.up20 : BatteryCrossing.up80
            }
        }
        if crossed & BatteryCrossing.down20 != 0 {
            if Sink.isEnabled { logState("battery_20") }
            policyObserve(.stateChanged, .stateChanged(.batteryLow))
            if !state.isLowPowerMode && trace.acceptsLowPower(day: now.day, threshold: 0) { setLowPower(true) }
        }
        if crossed & BatteryCrossing.down10 != 0 {
            if Sink.isEnabled { logState("battery_10") }
            if !state.isLowPowerMode && trace.acceptsLowPower(day: now.day, threshold: 1) { setLowPower(true) }
        }
        if crossed & BatteryCrossing.up20 != 0 {
            if Sink.isEnabled { logState("battery_20") }
            policyObserve(.stateChanged, .stateChanged(.batteryOK))
        }
        if crossed & BatteryCrossing.up80 != 0 {
            if Sink.isEnabled { logState("battery_80") }
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
    static let down20: UInt8 = 1
    static let down10: UInt8 = 2
    static let up20: UInt8 = 4
    static let up80: UInt8 = 8
}
