import Device
import Traces

/// The `devices` axis of a spec: named variants of the device (its OS
/// rules, energy model and app models), each a set of overrides merged over
/// the spec's `device`, so that one suite can vary the device as its
/// policy grid varies the policy. Every policy configuration is run under
/// every variant; the configuration's label is `<variant label>: <policy label>`.
///
/// ```json
/// "device": {"apps": {"news": {"refreshEarliestBeginDelay": "15m"}}},
/// "devices": [
///   {"label": "honest"},
///   {"label": "dishonest", "device": {"apps": {"news": {"reportsHonestly": false}}}}
/// ]
/// ```
///
/// The merge is key by key: an object in a variant is merged into the
/// object at the same place of `device` (recursively), any other value
/// replaces it. Each merged device is decoded and range-checked as `device`
/// is, with errors at the variant's JSON path (`$.devices[1].device...`).
public struct DeviceVariant: Sendable {
    public let label: String
    public let device: DeviceConfiguration
    /// JSON path of the variant, for messages.
    public let path: String
    /// App names written under the variant's `device.apps`, each with its JSON path.
    public let appsNamed: [(name: String, path: String)]
}

enum DeviceVariants {
    static let keys = ["label", "device"]

    /// The variants of `node` (the spec's `devices`), merged over `base` (the spec's `device`, nil if absent).
    static func parse(_ node: JSONNode, base: JSONNode?) throws(SpecError) -> [DeviceVariant] {
        let items = try node.array()
        guard !items.isEmpty else {
            throw node.error("an empty list of device variants; give at least one, or leave \"devices\" out")
        }
        var out: [DeviceVariant] = []
        var seen: [String: String] = [:]
        for item in items {
            let fields = try item.object(knownKeys: keys)
            guard let labelNode = fields["label"] else { throw item.error("a device variant needs \"label\"") }
            let label = try labelNode.string()
            try LabelRules.checkLabel(label, at: labelNode.path)
            if let other = seen[label] {
                throw SpecError(path: labelNode.path, message: "device variant label \"\(label)\" repeats the one at \(other)")
            }
            seen[label] = labelNode.path
            let overrides = fields["device"]
            let path = overrides?.path ?? item.path + ".device"
            if let overrides, case .object = overrides.value {} else if let overrides {
                throw overrides.error("expected an object of device overrides, found \(overrides.value.typeName)")
            }
            let merged = merge(base?.value ?? .object([]), overrides?.value ?? .object([]))
            let device = try CodableFromJSON.decode(DeviceConfiguration.self, from: JSONNode(merged, path: path))
            try DeviceRanges.check(device, at: path)
            var named: [(name: String, path: String)] = []
            if case let .object(pairs)? = overrides?["apps"]?.value {
                named = pairs.map { ($0.key, "\(path).apps.\($0.key)") }
            }
            out.append(DeviceVariant(label: label, device: device, path: item.path, appsNamed: named))
        }
        return out
    }

    /// `overrides` merged into `base`: objects key by key (recursively, in
    /// `base`'s key order, new keys after), anything else replaced.
    static func merge(_ base: JSONValue, _ overrides: JSONValue) -> JSONValue {
        guard case let .object(b) = base, case let .object(o) = overrides else { return overrides }
        var pairs = b
        for (k, v) in o {
            if let i = pairs.firstIndex(where: { $0.key == k }) {
                pairs[i].value = merge(pairs[i].value, v)
            } else {
                pairs.append((k, v))
            }
        }
        return .object(pairs)
    }

    /// Every policy configuration under every variant, variant-major.
    static func expand(_ configurations: [ExperimentConfiguration], _ variants: [DeviceVariant],
                       at node: JSONNode) throws(SpecError) -> [ExperimentConfiguration] {
        guard configurations.count * variants.count <= ResourceLimits.maxConfigurations else {
            throw node.error("\(variants.count) device variants × \(configurations.count) policy configurations is more than the \(ResourceLimits.maxConfigurations) configurations a spec may have")
        }
        var out: [ExperimentConfiguration] = []
        for (i, v) in variants.enumerated() {
            for c in configurations {
                out.append(ExperimentConfiguration(label: "\(v.label): \(c.label)", policy: c.policy, path: c.path,
                                                   deviceVariant: i))
            }
        }
        return out
    }
}
