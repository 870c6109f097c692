import SimCore
import Traces

/// Doze's timings (AOSP `DeviceIdleController.Constants`): JSON key
/// `device.android.dozeTimings` (``AndroidWorkRules/dozeTimings``). Docs/Android.md, rules A9–A12.
public struct DozeRules: DeclaredParameters, Hashable {
    /// Deep Doze at all (false: light Doze only; an ablation switch).
    public var deepEnabled = true
    /// Light Doze at all (false: deep only).
    public var lightEnabled = true

    // Deep Doze.
    /// Quiet (screen off, unplugged) this long before looking for motion.
    public var inactiveTimeout: SimDuration = .minutes(30)
    /// Then this long without motion before idle.
    public var idleAfterInactiveTimeout: SimDuration = .minutes(30)
    /// Time the motion and location checks take for a phone that does not
    /// move (SENSING, LOCATING); 0 by assumption (they end at once when the
    /// motion sensor reports none; their timeouts, 4 min and 30 s, bound them).
    public var stationaryCheck: SimDuration = .zero
    /// The first deep idle period; each next one is `idleFactor` times
    /// longer, up to `maxIdleTimeout`.
    public var idleTimeout: SimDuration = .hours(1)
    public var maxIdleTimeout: SimDuration = .hours(6)
    public var idleFactor = 2.0
    /// The first deep maintenance window; each next one is
    /// `idlePendingFactor` times longer, up to `maxIdlePendingTimeout`.
    public var idlePendingTimeout: SimDuration = .minutes(5)
    public var maxIdlePendingTimeout: SimDuration = .minutes(10)
    public var idlePendingFactor = 2.0

    // Light Doze.
    /// Quiet this long before light idle.
    public var lightIdleAfterInactiveTimeout: SimDuration = .minutes(4)
    /// The first light idle period; each next one `lightIdleFactor` times
    /// longer, up to `lightMaxIdleTimeout`.
    public var lightIdleTimeout: SimDuration = .minutes(5)
    public var lightMaxIdleTimeout: SimDuration = .minutes(15)
    public var lightIdleFactor = 2.0
    /// A light maintenance window's length: AOSP gives it a budget between
    /// `LIGHT_IDLE_MAINTENANCE_MIN_BUDGET` (1 min) and `_MAX_BUDGET`
    /// (5 min), ending it early when no work is left; a fixed minimum
    /// budget is the assumption.
    public var lightMaintenance: SimDuration = .minutes(1)

    public init() {}

    static let dic = "AOSP DeviceIdleController.Constants"

    public static let parameters: [Parameter<DozeRules>] = [
        .flag("deepEnabled", \.deepEnabled, source: "Android 6+ (an ablation switch)"),
        .flag("lightEnabled", \.lightEnabled, source: "Android 7+ (an ablation switch)"),
        .duration("inactiveTimeout", \.inactiveTimeout, .seconds(0, 86_400),
                  source: "\(dic).DEFAULT_INACTIVE_TIMEOUT (30 min)"),
        .duration("idleAfterInactiveTimeout", \.idleAfterInactiveTimeout, .seconds(0, 86_400),
                  source: "\(dic).DEFAULT_IDLE_AFTER_INACTIVE_TIMEOUT (30 min)"),
        .duration("stationaryCheck", \.stationaryCheck, .seconds(0, 3_600),
                  source: "assumption (bounded by DEFAULT_SENSING_TIMEOUT 4 min + DEFAULT_LOCATING_TIMEOUT 30 s)"),
        .duration("idleTimeout", \.idleTimeout, .seconds(1, 86_400),
                  source: "\(dic).DEFAULT_IDLE_TIMEOUT (60 min)"),
        .duration("maxIdleTimeout", \.maxIdleTimeout, .seconds(1, 86_400),
                  source: "\(dic).DEFAULT_MAX_IDLE_TIMEOUT (6 h)"),
        .real("idleFactor", \.idleFactor, ValueRange(1, 10), source: "\(dic).DEFAULT_IDLE_FACTOR (2)"),
        .duration("idlePendingTimeout", \.idlePendingTimeout, .seconds(1, 3_600),
                  source: "\(dic).DEFAULT_IDLE_PENDING_TIMEOUT (5 min)"),
        .duration("maxIdlePendingTimeout", \.maxIdlePendingTimeout, .seconds(1, 3_600),
                  source: "\(dic).DEFAULT_MAX_IDLE_PENDING_TIMEOUT (10 min)"),
        .real("idlePendingFactor", \.idlePendingFactor, ValueRange(1, 10),
              source: "\(dic).DEFAULT_IDLE_PENDING_FACTOR (2)"),
        .duration("lightIdleAfterInactiveTimeout", \.lightIdleAfterInactiveTimeout, .seconds(0, 86_400),
                  source: "\(dic).DEFAULT_LIGHT_IDLE_AFTER_INACTIVE_TIMEOUT (4 min; 3 min + 3 min pre-idle before Android 12)"),
        .duration("lightIdleTimeout", \.lightIdleTimeout, .seconds(1, 86_400),
                  source: "\(dic).DEFAULT_LIGHT_IDLE_TIMEOUT (5 min)"),
        .duration("lightMaxIdleTimeout", \.lightMaxIdleTimeout, .seconds(1, 86_400),
                  source: "\(dic).DEFAULT_LIGHT_MAX_IDLE_TIMEOUT (15 min)"),
        .real("lightIdleFactor", \.lightIdleFactor, ValueRange(1, 10),
              source: "\(dic).DEFAULT_LIGHT_IDLE_FACTOR (2)"),
        .duration("lightMaintenance", \.lightMaintenance, .seconds(1, 3_600),
                  source: "assumption: \(dic).DEFAULT_LIGHT_IDLE_MAINTENANCE_MIN_BUDGET (1 min; max budget 5 min)"),
    ]

    public var crossFieldProblem: (key: String, message: String)? {
        if maxIdleTimeout < idleTimeout {
            return ("maxIdleTimeout", "must be at least idleTimeout (\(idleTimeout)); got \(maxIdleTimeout)")
        }
        if maxIdlePendingTimeout < idlePendingTimeout {
            return ("maxIdlePendingTimeout",
                    "must be at least idlePendingTimeout (\(idlePendingTimeout)); got \(maxIdlePendingTimeout)")
        }
        if lightMaxIdleTimeout < lightIdleTimeout {
            return ("lightMaxIdleTimeout", "must be at least lightIdleTimeout (\(lightIdleTimeout)); got \(lightMaxIdleTimeout)")
        }
        return nil
    }

    /// Quiet time after which deep idle starts.
    public var deepIdleAfter: SimDuration { inactiveTimeout + idleAfterInactiveTimeout + stationaryCheck }

    /// The idle period after one of length `d` (AOSP: times the factor, at
    /// most the maximum, at least the first).
    func nextIdle(_ d: SimDuration) -> SimDuration { max(idleTimeout, min(maxIdleTimeout, d * idleFactor)) }
    func nextPending(_ m: SimDuration) -> SimDuration { min(maxIdlePendingTimeout, m * idlePendingFactor) }
    func nextLightIdle(_ d: SimDuration) -> SimDuration { min(lightMaxIdleTimeout, d * lightIdleFactor) }
}
