import SimCore

/// The next battery decision point: when the level, moving linearly at the
/// current power, crosses a threshold of ``OSRules``.
///
/// Decides: the time of the next battery event — going down, the
/// low-battery level then the second Low Power Mode offer; going up, the
/// low-battery level then (in Low Power Mode, charging) the switch-off
/// level (`OSRules.alarmTarget`). Raises: the battery event of the device
/// loop, whose handling (`DeviceSimulator.batteryThresholdReached`) tells
/// the policy and switches Low Power Mode.
///
/// Owns its state: the inputs of the last schedule and the time they give.
/// `schedule` only records the inputs; the time is computed when the loop
/// fills its agenda (`resolve`, once per step at most). Why: one event
/// often reschedules twice (the battery advance, then a screen or charger
/// change) and only the last answer is used; the inputs are exactly those
/// an eager computation would use, so the time is the same. The target is
/// picked when scheduling, once: inputs without one are no alarm at once.
struct BatteryAlarm {
    /// Battery capacity, joules.
    let capacityJoules: Double
    /// The alarm's time once resolved (`.farFuture`: none).
    private(set) var time: SimTime = .farFuture
    /// Inputs not yet turned into `time`.
    private var inputs: Inputs? = nil

    /// An alarm not yet computed: the level `level` at `anchor` moves at
    /// `watts` (never 0) towards `target`.
    struct Inputs {
        var anchor: SimTime
        var level: Double
        var watts: Double
        var target: Double
    }

    init(capacityJoules: Double) {
        self.capacityJoules = capacityJoules
    }

    /// The level is `level` at `anchor` and moves at `watts`.
    @inline(__always)
    mutating func schedule(at anchor: SimTime, level: Double, watts: Double, lowPower: Bool, rules: OSRules) {
        if let target = rules.alarmTarget(level: level, watts: watts, lowPower: lowPower) {
            inputs = Inputs(anchor: anchor, level: level, watts: watts, target: target)
        } else {
            inputs = nil
            time = .farFuture
        }
    }

    /// Turns the inputs recorded by the last `schedule` into `time`.
    @inline(__always)
    mutating func resolve() {
        guard let i = inputs else { return }
        inputs = nil
        time = Self.time(i, capacityJoules: capacityJoules)
    }

    /// When the level, moving linearly from `i.level` at `i.anchor`, reaches `i.target`.
    static func time(_ i: Inputs, capacityJoules: Double) -> SimTime {
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
}
