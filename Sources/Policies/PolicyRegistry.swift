import Device
import SimCore

/// A policy configuration was rejected: `path` is its JSON path
/// (e.g. `policy.base.params.window`).
public struct PolicyConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// One typed parameter of a policy, with its default and meaning.
public struct PolicyParameter: Sendable {
    public enum Kind: String, Sendable {
        /// A duration string: `"15m"`, `"30s"`, `"2h"` (must be > 0).
        case duration
        /// A JSON number, within `range`.
        case number
    }
    public var name: String
    public var kind: Kind
    public var defaultValue: ParameterValue
    public var range: ClosedRange<Double>?
    public var summary: String

    public init(_ name: String, _ kind: Kind, default defaultValue: ParameterValue,
                range: ClosedRange<Double>? = nil, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.range = range
        self.summary = summary
    }
}

/// Parameter values after validation (defaults filled in).
public struct PolicyParameterValues: Sendable {
    var values: [String: ParameterValue]
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
    public var make: @Sendable (PolicyParameterValues, (any SchedulingPolicy)?) -> any SchedulingPolicy

    public init(name: String, summary: String, parameters: [PolicyParameter] = [], isWrapper: Bool = false,
                make: @escaping @Sendable (PolicyParameterValues, (any SchedulingPolicy)?) -> any SchedulingPolicy) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.isWrapper = isWrapper
        self.make = make
    }
}

/// Policies by name. `PolicyRegistry.standard` holds the built-in ones; a
/// researcher adds theirs with `register(_:)` (no change to the core).
public struct PolicyRegistry: Sendable {
    public private(set) var descriptors: [PolicyDescriptor] = []

    public init(_ descriptors: [PolicyDescriptor] = []) {
        for d in descriptors { register(d) }
    }

    /// Adds (or replaces) a policy.
    public mutating func register(_ descriptor: PolicyDescriptor) {
        descriptors.removeAll { $0.name == descriptor.name }
        descriptors.append(descriptor)
    }

    public func descriptor(named name: String) -> PolicyDescriptor? { descriptors.first { $0.name == name } }

    /// Builds the policy a configuration names, validating every parameter.
    public func make(_ config: PolicyConfiguration, path: String = "policy") throws(PolicyConfigurationError) -> any SchedulingPolicy {
        guard let d = descriptor(named: config.name) else {
            throw PolicyConfigurationError(path: path + ".name",
                message: "unknown policy \"\(config.name)\"; known: \(descriptors.map(\.name).sorted().joined(separator: ", "))")
        }
        var values: [String: ParameterValue] = [:]
        for p in d.parameters { values[p.name] = p.defaultValue }
        for (key, value) in config.params.sorted(by: { $0.key < $1.key }) {
            let at = path + ".params." + key
            guard let p = d.parameters.first(where: { $0.name == key }) else {
                let known = d.parameters.map(\.name)
                throw PolicyConfigurationError(path: at, message: "unknown parameter of \(d.name)"
                    + (known.isEmpty ? " (it takes none)" : "; expected one of \(known.joined(separator: ", "))"))
            }
            switch (p.kind, value) {
            case (.duration, .string(let s)):
                do {
                    let v = try SimDuration(parsing: s)
                    guard v > .zero else { throw PolicyConfigurationError(path: at, message: "must be positive, got \"\(s)\"") }
                } catch let e as PolicyConfigurationError { throw e } catch {
                    throw PolicyConfigurationError(path: at, message: "\(error)")
                }
            case (.duration, _):
                throw PolicyConfigurationError(path: at, message: "expected a duration string such as \"15m\", got \(value)")
            case (.number, .number(let x)):
                if let r = p.range, !r.contains(x) {
                    throw PolicyConfigurationError(path: at, message: "must be in \(r.lowerBound)...\(r.upperBound), got \(value)")
                }
            case (.number, _):
                throw PolicyConfigurationError(path: at, message: "expected a number, got \(value)")
            }
            values[key] = value
        }
        var base: (any SchedulingPolicy)? = nil
        if d.isWrapper {
            guard let b = config.base else {
                throw PolicyConfigurationError(path: path + ".base", message: "\(d.name) wraps a policy: give it a base")
            }
            base = try make(b, path: path + ".base")
        } else if config.base != nil {
            throw PolicyConfigurationError(path: path + ".base", message: "\(d.name) does not wrap a policy")
        }
        return d.make(PolicyParameterValues(values: values), base)
    }

    /// Every policy with its parameters, defaults and one line on what it
    /// does: the text of `bgbench policies`.
    public func listing() -> String {
        var out = ""
        for d in descriptors {
            out += "\(d.name)\(d.isWrapper ? " (wrapper)" : "") — \(d.summary)\n"
            for p in d.parameters {
                let name = p.name.padding(16)
                let kind = p.kind.rawValue.padding(9)
                let def = "default \(p.defaultValue)".padding(18)
                out += "    \(name)\(kind)\(def)\(p.summary)\n"
            }
            if d.isWrapper { out += "    \("base".padding(16))\("policy".padding(9))\("required".padding(18))the policy it wraps\n" }
            if d.parameters.isEmpty && !d.isWrapper { out += "    (no parameters)\n" }
        }
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// The listing of the standard registry (for `bgbench policies`).
public func policyListing() -> String { PolicyRegistry.standard.listing() }
