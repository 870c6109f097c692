import Traces
import Policies

/// Expands the policy entries of a spec into configurations: a list of
/// values anywhere in a policy's `params` (or its base's, recursively) is a
/// grid axis, and the configurations are the Cartesian product, in the
/// order written (first axis slowest).
///
/// `{"name": "fixed-interval", "params": {"interval": ["15m", "1h"]}}`
/// gives two configurations, labelled `fixed-interval interval=15m` and
/// `fixed-interval interval=1h`. A `label` key on the entry replaces the
/// policy name in the label. A parameter whose value is itself a list (a
/// string-list parameter such as `external`'s `command`) is an axis only
/// when written as a list of lists.
public struct ExperimentConfiguration: Sendable, Equatable {
    /// Unique label used in every output (the `configuration` column).
    public let label: String
    /// The policy, with every grid list replaced by one value; the shape the
    /// policy registry decodes (`name`, `params`, `base`).
    public let policy: JSONValue
    /// JSON path of the spec entry it came from, for error messages.
    public let path: String
    /// The index of its device variant in ``ExperimentSpec/deviceVariants``
    /// (nil: the spec's `device`; see ``DeviceVariant``).
    public var deviceVariant: Int? = nil
}

enum PolicyGrid {
    static let entryKeys = ["name", "label", "params", "base"]

    /// All configurations of one spec entry.
    /// At most `budget` configurations (the grid's size is computed before
    /// any of it is built, so a 20-million-point grid is refused, not allocated).
    static func expand(_ node: JSONNode, registry: PolicyRegistry, budget: Int) throws(SpecError) -> [ExperimentConfiguration] {
        let size = try gridSize(node)
        guard size <= Double(budget) else {
            throw node.error("this entry expands into \(ValueRange.show(size)) configurations; a spec may have at most \(ResourceLimits.maxConfigurations) in all (\(ResourceLimits.maxConfigurations - budget) before this entry)")
        }
        let variants = try expandPolicy(node, registry: registry)
        let explicitLabel = try node["label"]?.string()
        return variants.map { v in
            let head = explicitLabel ?? v.chain
            let label = v.axes.isEmpty ? head : head + " " + v.axes.joined(separator: " ")
            return ExperimentConfiguration(label: label, policy: v.value, path: node.path)
        }
    }

    /// Configurations `node` expands into, as a `Double` so no product overflows.
    private static func gridSize(_ node: JSONNode) throws(SpecError) -> Double {
        let fields = try node.object(knownKeys: entryKeys)
        var size = 1.0
        if let params = fields["params"], case let .object(pairs) = params.value {
            for (_, v) in pairs { if case let .array(items) = v { size *= Double(max(1, items.count)) } }
        }
        if let base = fields["base"] { size *= try gridSize(base) }
        return size
    }

    private struct Variant {
        var value: JSONValue
        /// `exponential-backoff(coalescing(usage-predictor))`
        var chain: String
        /// `interval=15m`, one per grid axis that has more than one value.
        var axes: [String]
    }

    private static func expandPolicy(_ node: JSONNode, registry: PolicyRegistry) throws(SpecError) -> [Variant] {
        let fields = try node.object(knownKeys: entryKeys)
        guard let nameNode = fields["name"] else { throw node.error("a policy needs \"name\"") }
        let name = try nameNode.string()

        // Grid axes of this level's params, in the order written.
        var axes: [(key: String, values: [JSONValue])] = []
        if let params = fields["params"] {
            guard case let .object(pairs) = params.value else {
                throw params.error("expected an object of parameters, found \(params.value.typeName)")
            }
            let listValued = Set(registry.descriptor(named: name)?.parameters.filter { $0.kind == .stringList }.map(\.name) ?? [])
            for (k, v) in pairs {
                if case let .array(items) = v, listValued.contains(k),
                   !items.allSatisfy({ if case .array = $0 { true } else { false } }) {
                    axes.append((k, [v]))  // one list value, not an axis
                } else if case let .array(items) = v {
                    guard !items.isEmpty else {
                        throw SpecError(path: "\(params.path).\(k)", message: "an empty list gives no configurations; give one value or a non-empty list")
                    }
                    axes.append((k, items))
                } else {
                    axes.append((k, [v]))
                }
            }
        }
        let bases: [Variant?] = try fields["base"].map { b throws(SpecError) in try expandPolicy(b, registry: registry).map { Optional($0) } } ?? [nil]

        var out: [Variant] = []
        for combo in cartesian(axes.map(\.values.count)) {
            var params: [(key: String, value: JSONValue)] = []
            var labels: [String] = []
            for (axis, choice) in zip(axes, combo) {
                params.append((axis.key, axis.values[choice]))
                if axis.values.count > 1 { labels.append("\(axis.key)=\(display(axis.values[choice]))") }
            }
            for base in bases {
                var pairs: [(key: String, value: JSONValue)] = [("name", .string(name))]
                if !params.isEmpty { pairs.append(("params", .object(params))) }
                if let base { pairs.append(("base", base.value)) }
                out.append(Variant(
                    value: .object(pairs),
                    chain: base.map { "\(name)(\($0.chain))" } ?? name,
                    axes: labels + (base?.axes ?? [])))
            }
        }
        return out
    }

    /// Index tuples of a Cartesian product, last axis fastest.
    private static func cartesian(_ sizes: [Int]) -> [[Int]] {
        var result: [[Int]] = [[]]
        for size in sizes {
            result = result.flatMap { prefix in (0..<size).map { prefix + [$0] } }
        }
        return result
    }

    private static func display(_ v: JSONValue) -> String {
        if case let .string(s) = v { return s }
        return v.serialized()
    }
}
