import Device
import SimCore
import Traces

/// A policy configuration was rejected: `path` is its JSON path
/// (e.g. `policy.base.params.window`).
public struct PolicyConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// Policies by name. `PolicyRegistry.standard` holds the built-in ones; a
/// researcher's executable extends it with its own, e.g.
/// `PolicyRegistry.standard.adding(MyPolicy.registration)`, and hands it to
/// `BGBenchCLI.main(registry:)` (no change to the core). Every command and
/// the Experiments layer use the registry they are given, never a global.
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

    /// This registry with `descriptors` added (a descriptor replaces one
    /// of the same name): how a researcher's executable extends the standard one.
    public func adding(_ descriptors: PolicyDescriptor...) -> PolicyRegistry {
        var r = self
        for d in descriptors { r.register(d) }
        return r
    }

    public func descriptor(named name: String) -> PolicyDescriptor? { descriptors.first { $0.name == name } }

    /// Policy names in registration order.
    public var names: [String] { descriptors.map(\.name) }

    /// What identifies this registry in a run's manifest and report: FNV-1a
    /// (16 hex digits) over every policy's name, kind and parameters with
    /// their defaults. Two executables with the same fingerprint accept the
    /// same specs with the same defaults; the code behind a name is not
    /// hashed (the manifest's executable names that).
    public var fingerprint: String {
        var text = ""
        for d in descriptors.sorted(by: { $0.name < $1.name }) {
            text += d.name + (d.isWrapper ? "(wrapper)" : "") + ":"
            for p in d.parameters { text += "\(p.name)=\(p.kind.rawValue):\(p.defaultValue);" }
            text += "\n"
        }
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The names of this registry's policies that `other` does not have
    /// (a researcher's additions to the standard registry).
    public func names(notIn other: PolicyRegistry) -> [String] {
        names.filter { other.descriptor(named: $0) == nil }
    }

    /// Builds the policy a configuration names, validating every parameter.
    public func make(_ config: PolicyConfiguration, path: String = "policy") throws(PolicyConfigurationError) -> any SchedulingPolicy {
        try make(config, path: path, collector: nil)
    }

    /// Builds the policy and returns with it what its make closures handed
    /// over for cleanup (``PolicyResource``: e.g. the `external` policy's
    /// decision processes). The caller must ``PolicyResource/shutDown()``
    /// every one of them, whatever happens.
    public func makeOwningResources(_ config: PolicyConfiguration, path: String = "policy")
        throws(PolicyConfigurationError) -> (policy: any SchedulingPolicy, resources: [any PolicyResource]) {
        let collector = PolicyResourceCollector()
        do {
            let policy = try make(config, path: path, collector: collector)
            return (policy, collector.resources)
        } catch {
            for r in collector.resources { r.shutDown() }
            throw error
        }
    }

    private func make(_ config: PolicyConfiguration, path: String,
                      collector: PolicyResourceCollector?) throws(PolicyConfigurationError) -> any SchedulingPolicy {
        guard let d = descriptor(named: config.name) else {
            throw PolicyConfigurationError(path: path + ".name",
                message: "unknown policy \"\(config.name)\"; known: \(descriptors.map(\.name).sorted().joined(separator: ", "))")
        }
        var values: [String: ParameterValue] = [:]
        var others: [String: ParameterValue] = [:]
        for p in d.parameters { values[p.name] = p.defaultValue }
        for (key, value) in config.params.sorted(by: { $0.key < $1.key }) {
            let at = path + ".params." + key
            guard let p = d.parameters.first(where: { $0.name == key }) else {
                if d.acceptsOtherParameters {
                    others[key] = value
                    continue
                }
                let known = d.parameters.map(\.name)
                throw PolicyConfigurationError(path: at, message: "unknown parameter of \(d.name)"
                    + (known.isEmpty ? " (it takes none)" : "; expected one of \(known.joined(separator: ", "))"))
            }
            switch (p.kind, value) {
            case (.duration, .string(let s)):
                do {
                    let v = try SimDuration(parsing: s)
                    // Without a declared range a duration must be positive.
                    if let range = p.valueRange {
                        if let message = range.problem(v) { throw PolicyConfigurationError(path: at, message: message) }
                    } else if v <= .zero {
                        throw PolicyConfigurationError(path: at, message: "must be positive, got \"\(s)\"")
                    }
                } catch let e as PolicyConfigurationError { throw e } catch {
                    throw PolicyConfigurationError(path: at, message: "\(error)")
                }
            case (.duration, _):
                throw PolicyConfigurationError(path: at, message: "expected a duration string such as \"15m\", got \(value)")
            case (.number, .number(let x)):
                if let message = p.valueRange?.problem(x) { throw PolicyConfigurationError(path: at, message: message) }
            case (.number, _):
                throw PolicyConfigurationError(path: at, message: "expected a number, got \(value)")
            case (.stringList, .array(let items)) where !items.isEmpty:
                for (i, item) in items.enumerated() {
                    guard case .string = item else {
                        throw PolicyConfigurationError(path: "\(at)[\(i)]", message: "expected a string, got \(item)")
                    }
                }
            case (.stringList, _):
                throw PolicyConfigurationError(path: at, message: "expected a non-empty array of strings such as [\"python3\", \"policy.py\"], got \(value)")
            }
            values[key] = value
        }
        for p in d.parameters where p.isRequired && config.params[p.name] == nil {
            throw PolicyConfigurationError(path: path + ".params", message: "\(d.name) needs the parameter \"\(p.name)\" (\(p.summary))")
        }
        var base: (any SchedulingPolicy)? = nil
        if d.isWrapper {
            guard let b = config.base else {
                throw PolicyConfigurationError(path: path + ".base", message: "\(d.name) wraps a policy: give it a base")
            }
            base = try make(b, path: path + ".base", collector: collector)
        } else if config.base != nil {
            throw PolicyConfigurationError(path: path + ".base", message: "\(d.name) does not wrap a policy")
        }
        return d.make(PolicyParameterValues(values: values, others: others, collector: collector), base)
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
                let def = (p.isRequired ? "required" : "default \(p.defaultValue)").padding(18)
                out += "    \(name)\(kind)\(def)\(p.summary)\n"
            }
            if d.acceptsOtherParameters { out += "    \("(others)".padding(16))\("any".padding(9))\("".padding(18))passed through to the policy unchanged\n" }
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
