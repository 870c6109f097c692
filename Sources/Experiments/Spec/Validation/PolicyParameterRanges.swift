import Policies
import Traces

/// The ranges of policy duration parameters, as their descriptors declare
/// them (``PolicyParameter/range``, in seconds) and the registry checks
/// them: a microsecond `slot` would make the usage predictor allocate a
/// table of 10¹¹ slots; these bounds keep every table and every wake rate
/// bounded. Listed for the documentation test (Docs/ExperimentSpec.md,
/// "Policy parameter ranges"); a researcher's own policy declares its own.
public enum PolicyParameterRanges {
    /// (policy name, parameter, range) of every duration parameter with a range in `registry`.
    public static func durations(in registry: PolicyRegistry) -> [(policy: String, parameter: String, range: ValueRange)] {
        registry.descriptors.flatMap { d in
            d.parameters.compactMap { p in
                guard p.kind == .duration, let r = p.valueRange else { return nil }
                return (d.name, p.name, r)
            }
        }
    }
}
