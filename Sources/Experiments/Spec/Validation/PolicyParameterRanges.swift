import Traces
import SimCore

/// Ranges of the duration parameters of the standard policies, which the
/// policy registry checks only for sign. A microsecond `slot` would make the
/// usage predictor allocate a table of 10¹¹ slots; these bounds keep every
/// table and every wake rate bounded. Checked on every configuration (its
/// `params` and those of its `base`, recursively) before the policy is
/// built; a policy not listed here (a researcher's own, `external`) is
/// checked only by its own descriptor. Documented in `Docs/ExperimentSpec.md`
/// ("Policy parameter ranges").
public enum PolicyParameterRanges {
    static let day = 86_400.0

    /// (policy name, parameter) → range in seconds.
    public static let durations: [(policy: String, parameter: String, range: ValueRange)] = [
        ("fixed-interval", "interval", .seconds(1, 30 * day)),
        ("fixed-interval", "flex", .seconds(0, 30 * day)),
        ("usage-predictor", "leadTime", .seconds(0, day)),
        ("usage-predictor", "slot", .seconds(60, day)),
        ("coalescing", "window", .seconds(1, day)),
        ("exponential-backoff", "initial", .seconds(1, 30 * day)),
        ("exponential-backoff", "cap", .seconds(1, 365 * day)),
        ("oracle", "leadTime", .seconds(0, day)),
        ("oracle", "radioWindow", .seconds(0, day)),
        // The timing ingredient of cost-aware-predictor (issue 19).
        ("cost-aware-predictor", "maxHold", .seconds(60, day)),
        ("cost-aware-predictor", "followWindow", .seconds(1, 3_600)),
        // The other durations of the learning policy, iOS's scheduler and
        // the bounds: a recheck or interval of a microsecond would wake the
        // device a million times a simulated second (assumption-level
        // bounds: wide enough for any study, tight enough to stay finite).
        ("cost-aware-predictor", "recheck", .seconds(60, day)),
        ("cost-aware-predictor", "horizon", .seconds(3_600, 7 * day)),
        ("cost-aware-predictor", "recencyWindow", .seconds(1, day)),
        ("cost-aware-predictor", "transitionWindow", .seconds(1, day)),
        ("model-bound", "recheck", .seconds(60, day)),
        ("oracle-planner", "leadTime", .seconds(0, day)),
        ("ios-system", "baseInterval", .seconds(60, 30 * day)),
        ("ios-system", "slowRun", .seconds(1, day)),
        ("ios-system", "distrustFor", .seconds(1, 365 * day)),
        ("ios-system", "processingIdle", .seconds(1, day)),
        ("ios-system", "processingRecency", .seconds(3_600, 365 * day)),
    ]

    /// Checks one configuration's policy JSON (`name`, `params`, `base`).
    public static func check(_ policy: JSONValue, at path: String) throws(SpecError) {
        guard case let .string(name)? = policy["name"] else { return }
        if case let .object(params)? = policy["params"] {
            for (key, value) in params {
                guard let rule = durations.first(where: { $0.policy == name && $0.parameter == key }),
                      case let .string(text) = value, let d = try? SimDuration(parsing: text) else { continue }
                try rule.range.check(d, at: "\(path).params.\(key)")
            }
        }
        if let base = policy["base"] { try check(base, at: path + ".base") }
    }
}
