import SimCore

// Device state: network, charging, battery, Low Power Mode.
extension DeviceSimulator {
    mutating func applyNetwork(_ network: NetworkType, notify: Bool) {
        radio.networkChanged(to: network, at: now)
        syncRadioTail()
        guard network != state.network else { return }
        state.network = network
        // Offline drops the connection: a transfer still in its data phase
        // fails now, as a URLSession task does with a connection-lost
        // error (its handler sees a failure; the energy so far is wasted).
        // After the bytes are in, the task only computes: it goes on.
        if !network.isOnline && isRunning && now < runningTask.dataEnd { finishRunningTask(connectionLost: true) }
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
        // Going down, a threshold is crossed when the level goes *below*
        // it, as rule 4 reads it ("below 20 %"): at exactly 20.0 % refresh
        // is still allowed and batteryLow has not fired; both change together.
        if level < old {
            if level < low {
                if old >= low { pendingCrossings |= BatteryCrossing.downLow }
                if level < second && old >= second { pendingCrossings |= BatteryCrossing.downSecond }
            }
            if level < metrics.minBatteryPercent { metrics.minBatteryPercent = level }
        } else if level > old && old < off {
            if level >= low && old < low { pendingCrossings |= BatteryCrossing.upLow }
            if level >= off && state.isLowPowerMode { pendingCrossings |= BatteryCrossing.upOff }
        }
    }

    /// Reschedules the battery alarm from the level, power and Low Power
    /// Mode now (see ``BatteryAlarm``).
    @inline(__always)
    mutating func scheduleBatteryAlarm() {
        alarm.schedule(at: now, level: state.batteryPercent, watts: batteryWatts,
                       lowPower: state.isLowPowerMode, rules: rules)
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
