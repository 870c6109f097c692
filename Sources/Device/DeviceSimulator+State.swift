import SimCore

// The handlers of the network, charger and battery events (`NetworkStream`,
// `PowerSupply`) and the battery's bookkeeping at every step. They touch
// the device state, the worker (a transfer that loses its connection, work
// that needs external power), metrics and the policy.
extension DeviceSimulator {
    mutating func applyNetwork(_ network: NetworkType, notify: Bool) {
        networks.radio.networkChanged(to: network, at: now)
        syncRadioTail()
        guard network != state.network else { return }
        state.network = network
        // Offline drops the connection: a transfer still in its data phase
        // fails now, as a URLSession task does with a connection-lost
        // error (its handler sees a failure; the energy so far is wasted).
        // After the bytes are in, the task only computes: it goes on.
        if !network.isOnline && worker.isRunning && now < worker.running.dataEnd { finishRunningTask(connectionLost: true) }
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
        let delta = networks.radio.energy.tail - metrics.user.energy.tail
        guard delta > 0 else { return }
        metrics.user.energy.tail = networks.radio.energy.tail
        if Sink.isEnabled { logTail(delta) }
    }

    /// A charger boundary or, with measured battery, a reading
    /// (`PowerSupply.powerBoundary`): the level is re-anchored where the
    /// readings say so, then the charger's change (if any) is applied.
    mutating func chargingBoundary() {
        let wasOn = power.onCharger
        let (on, anchor) = power.powerBoundary(at: now)
        if let anchor { setBatteryLevel(anchor) }
        if on != wasOn {
            setCharging(on, notify: true)
        } else {
            screenOrChargerChanged()
            scheduleBatteryAlarm()
        }
    }

    mutating func setCharging(_ on: Bool, notify: Bool) {
        state.isCharging = on
        screenOrChargerChanged()
        // Unplugged: a processing task that needs external power is expired.
        if !on && worker.isRunning && worker.running.request.requiresExternalPower { finishRunningTask(interrupted: true) }
        if on && state.isLowPowerMode && state.batteryPercent >= rules.lowPowerModeOffPercent { setLowPower(false) }
        scheduleBatteryAlarm()
        if notify {
            if Sink.isEnabled { logState(on ? "charging_started" : "charging_stopped") }
            policyObserve(.stateChanged, .stateChanged(on ? .chargingStarted : .chargingStopped))
            consultPolicy()
        }
    }

    /// The charger's or the screen's state changed: the battery power follows.
    @inline(__always)
    mutating func screenOrChargerChanged() {
        power.loadChanged(charging: state.isCharging, screenOn: state.isScreenOn)
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
        let spent = power.takeOff(total: metrics.user.energy.total)
        now = t
        setBatteryLevel(state.batteryPercent + (power.watts * dt - spent) * power.percentPerJoule)
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
        precondition(power.isSettled(total: metrics.user.energy.total), "background energy not settled")
        #endif
        // `&-`: both times lie in [0, horizon] (no overflow test per event).
        let dt = Double(t.microseconds &- now.microseconds) * 1e-6
        now = t
        setBatteryLevel(state.batteryPercent + power.watts * dt * power.percentPerJoule)
    }

    /// Takes the background energy charged during this event off the
    /// battery now (at the time it was charged), instead of at the next
    /// event: a chunk that takes the level across a threshold crosses it
    /// at this time, and the alarm is rescheduled from the true level.
    @inline(__always)
    mutating func settleBackgroundEnergy() {
        let total = metrics.user.energy.total
        guard !power.isSettled(total: total) else { return }
        let spent = power.takeOff(total: total)
        setBatteryLevel(state.batteryPercent - spent * power.percentPerJoule)
        scheduleBatteryAlarm()
    }

    /// Sets the level, records the thresholds it crossed and the lowest
    /// level so far (`PowerSupply.setLevel`).
    @inline(__always)
    mutating func setBatteryLevel(_ newLevel: Double) {
        power.setLevel(newLevel, state: &ctx.device, lowest: &metrics.user.minBatteryPercent, rules: rules)
    }

    /// Reschedules the battery alarm from the level, power and Low Power
    /// Mode now (see ``BatteryAlarm``).
    @inline(__always)
    mutating func scheduleBatteryAlarm() {
        power.scheduleAlarm(at: now, level: state.batteryPercent, lowPower: state.isLowPowerMode, rules: rules)
    }

    /// The battery decision point: for each crossing recorded by
    /// `setBatteryLevel` (or, when the alarm fired with the level short of
    /// its target by rounding, the alarm's own target, snapped just past:
    /// `PowerSupply.takeCrossings`), in order: down through
    /// `lowBatteryPercent` (batteryLow, Low Power Mode offered), down
    /// through `secondLowPowerOfferPercent` (offered again), up through
    /// `lowBatteryPercent` (batteryOK), up through `lowPowerModeOffPercent`
    /// while charging (Low Power Mode off). Then one decision point. The
    /// user's answer to each offer is the trace's (`acceptsLowPower`, first
    /// and second offer of the day).
    mutating func batteryThresholdReached() {
        let crossed = power.takeCrossings(state: &ctx.device, lowest: &metrics.user.minBatteryPercent, rules: rules)
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
        if let hours = power.lowPowerSwitched(on, at: now) { metrics.user.lowPowerModeHours += hours }
        if Sink.isEnabled { logState(on ? "low_power_on" : "low_power_off") }
        policyObserve(.stateChanged, .stateChanged(on ? .lowPowerModeOn : .lowPowerModeOff))
    }
}
