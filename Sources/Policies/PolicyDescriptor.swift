import Device
import SimCore
import Traces

/// One typed parameter of a policy, with its default and meaning.
public struct PolicyParameter: Sendable {
    public enum Kind: String, Sendable {
        /// A duration string: `"15m"`, `"30s"`, `"2h"`, in the parameter's
        /// range (without one: longer than zero).
        case duration
        /// A JSON number, within `range`.
        case number
        /// A non-empty JSON array of strings (an argv: `["python3", "p.py"]`).
        /// In a spec grid, a list of such arrays is the axis.
        case stringList
    }
    public var name: String
    public var kind: Kind
    public var defaultValue: ParameterValue
    /// The values allowed: a number's, or a duration's in seconds (a
    /// researcher's policy declares its durations' ranges here too), as
    /// the spec documents print it (`[1, 86400] s`). A duration's range
    /// says whether zero is allowed: `[0, …]` where zero means "none" (a
    /// lead time, a flex window), `(0, …]` where a zero interval or window
    /// would make a policy wake without end. Checked by the registry for
    /// every configuration, `validate` and `run` alike.
    public var valueRange: ValueRange?
    public var summary: String
    /// A spec must give it (it has no meaningful default).
    public var isRequired: Bool

    /// A parameter whose values are `range` (a duration's in seconds,
    /// both bounds allowed).
    public init(_ name: String, _ kind: Kind, default defaultValue: ParameterValue,
                range: ClosedRange<Double>? = nil, _ summary: String) {
        self.init(name, kind, default: defaultValue,
                  range: range.map { ValueRange($0.lowerBound, $0.upperBound, unit: kind == .duration ? "s" : "") }, summary)
    }

    /// A parameter whose values are `range`, which may exclude its lower
    /// bound (`.seconds(0, 86_400, open: true)`: longer than zero).
    public init(_ name: String, _ kind: Kind, default defaultValue: ParameterValue, range: ValueRange?, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        valueRange = range
        self.summary = summary
        isRequired = false
    }

    /// A parameter without a default, which every spec must give.
    public init(_ name: String, _ kind: Kind, required: Bool, _ summary: String) {
        precondition(required, "a parameter without a default must be required")
        self.name = name
        self.kind = kind
        defaultValue = .null
        valueRange = nil
        self.summary = summary
        isRequired = true
    }
}

/// Parameter values after validation (defaults filled in).
public struct PolicyParameterValues: Sendable {
    var values: [String: ParameterValue]
    /// Parameters the descriptor does not declare, for one that accepts
    /// them (``PolicyDescriptor/acceptsOtherParameters``), by name.
    public var others: [String: ParameterValue] = [:]
    /// Where a policy's make closure hands over what must be cleaned up
    /// after the run (``PolicyResource``); nil when nobody collects.
    var collector: PolicyResourceCollector?

    /// Hands `resource` to whoever runs the policy: the runner lets it
    /// watch for interruption, asks it for a failure after the run and
    /// shuts it down on every path.
    public func own(_ resource: any PolicyResource) { collector?.add(resource) }

    /// The string-list parameter `name` (validated).
    public func strings(_ name: String) -> [String] {
        guard case .array(let a) = values[name] else { preconditionFailure("parameter \(name) was not validated as a string list") }
        return a.map { v in
            guard case .string(let s) = v else { preconditionFailure("parameter \(name) was not validated as a string list") }
            return s
        }
    }
    /// The duration parameter `name` (validated).
    public func duration(_ name: String) -> SimDuration {
        guard case .string(let s) = values[name], let d = try? SimDuration(parsing: s) else {
            preconditionFailure("parameter \(name) was not validated as a duration")
        }
        return d
    }
    /// The number parameter `name` (validated).
    public func number(_ name: String) -> Double {
        guard case .number(let d) = values[name] else { preconditionFailure("parameter \(name) was not validated as a number") }
        return d
    }
}

/// A named policy: how to build it from parameters (and a base, for wrappers).
public struct PolicyDescriptor: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [PolicyParameter]
    /// Wrappers take a `base` policy.
    public var isWrapper: Bool
    /// Parameters it does not declare are accepted and handed to `make` in
    /// ``PolicyParameterValues/others`` (the `external` policy passes them
    /// to its decision process) instead of being rejected.
    public var acceptsOtherParameters: Bool
    public var make: @Sendable (PolicyParameterValues, (any SchedulingPolicy)?) -> any SchedulingPolicy

    public init(name: String, summary: String, parameters: [PolicyParameter] = [], isWrapper: Bool = false,
                acceptsOtherParameters: Bool = false,
                make: @escaping @Sendable (PolicyParameterValues, (any SchedulingPolicy)?) -> any SchedulingPolicy) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.isWrapper = isWrapper
        self.acceptsOtherParameters = acceptsOtherParameters
        self.make = make
    }
}
