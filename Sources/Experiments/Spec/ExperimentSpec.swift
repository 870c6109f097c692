import Device
import Foundation
import Policies
import SimCore
import Traces

/// An experiment file, parsed and checked. The schema, key by key, is in
/// `Docs/ExperimentSpec.md`; ``knownKeys`` is the top level.
public struct ExperimentSpec: Sendable {
    /// Where the simulated users come from.
    public enum World: Sendable {
        /// `users` users × `days` days from the synthetic generators.
        case generated(users: Int, days: Int, parameters: GeneratorParameters)
        /// A trace set directory (absolute, or resolved against the spec's directory).
        case traces(directory: String)
    }

    public var name: String
    public var description: String
    /// Experiment seed: every random stream derives from it.
    public var seed: UInt64
    /// Independent worlds per user (each with its own streams).
    public var replications: Int
    public var world: World
    public var device: DeviceConfiguration
    /// Expanded policy grid, in spec order.
    public var configurations: [ExperimentConfiguration]
    /// Index into ``configurations`` of the comparison baseline.
    public var baseline: Int
    /// The spec as written, echoed into `manifest.json` and `report.md`.
    public var source: JSONValue
    /// The file it was read from, if any.
    public var file: String?
    /// The policies its configurations were checked against, and are built from.
    public var registry: PolicyRegistry
    /// The app names written under `device.apps` and under each variant's
    /// `device.apps`, each with the JSON path it is written at (checked
    /// against the world's apps once they are known: ``SpecChecks``).
    public var appsNamedInDevice: [(name: String, path: String)] = []
    /// The `devices` axis (empty without one): every policy configuration
    /// runs once per variant (``DeviceVariant``).
    public var deviceVariants: [DeviceVariant] = []

    /// The device configuration `configuration` runs on: its variant's, or `device`.
    public func device(for configuration: ExperimentConfiguration) -> DeviceConfiguration {
        configuration.deviceVariant.map { deviceVariants[$0].device } ?? device
    }
    /// For a `traces` world: the streams the generators synthesise, if any.
    public var traceSynthesis: TraceSynthesisSpec? = nil
    /// For a `traces` world: the set's measured battery level drives the
    /// simulated level (`"traces": {"measuredBattery": true}`; default off).
    public var measuredBattery = false

    public static let knownKeys = ["name", "description", "seed", "replications", "population",
                                   "traces", "device", "policies", "baseline", "devices"]
    static let populationKeys = ["users", "days", "generator"]

    /// Reads and checks a spec file against the policies of `registry`.
    /// Every error names the file and a JSON path.
    public static func load(path: String, registry: PolicyRegistry) throws(SpecError) -> ExperimentSpec {
        let text: String
        do { text = try InputText.read(path, limit: 64 << 20) } catch {
            throw SpecError(file: path, path: "$", message: error.line.map { "line \($0): \(error.message)" } ?? error.message)
        }
        do {
            var spec = try parse(text, registry: registry)
            spec.file = path
            if case let .traces(dir) = spec.world {
                spec.world = .traces(directory: resolve(dir, relativeToSpecAt: path))
            }
            return spec
        } catch {
            var e = error
            e.file = path
            throw e
        }
    }

    /// `dir` as an absolute path: relative paths are relative to the spec
    /// file's directory, itself made absolute first (a relative spec path
    /// with `"../x"` would otherwise lose its `..` against an empty base).
    static func resolve(_ dir: String, relativeToSpecAt specPath: String) -> String {
        if dir.hasPrefix("/") { return (dir as NSString).standardizingPath }
        let spec = specPath.hasPrefix("/") ? specPath
            : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(specPath)
        let base = (spec as NSString).deletingLastPathComponent
        return ((base as NSString).appendingPathComponent(dir) as NSString).standardizingPath
    }

    /// Parses spec text (no file: trace paths stay as written), checking
    /// every policy against `registry`.
    public static func parse(_ text: String, registry: PolicyRegistry) throws(SpecError) -> ExperimentSpec {
        let root: JSONValue
        do { root = try JSONParser.parse(text) } catch {
            throw SpecError(path: "$", message: "not valid JSON: \(error.description)")
        }
        let node = JSONNode(root)
        let f = try node.object(knownKeys: knownKeys)
        func required(_ key: String) throws(SpecError) -> JSONNode {
            guard let n = f[key] else { throw node.error("required key \"\(key)\" is missing") }
            return n
        }
        let name = try required("name").string()
        try LabelRules.checkName(name, at: "$.name")
        let seed = try required("seed").int(in: 0...Int(Int64.max))
        let replications = try f["replications"]?.int(in: 1...10_000) ?? 1

        let world: World
        var traceSynthesis: TraceSynthesisSpec?
        var measuredBattery = false
        switch (f["population"], f["traces"]) {
        case let (pop?, nil):
            let p = try pop.object(knownKeys: populationKeys)
            guard let users = p["users"], let days = p["days"] else {
                throw pop.error("population needs \"users\" and \"days\"")
            }
            let parameters = try p["generator"].map { g throws(SpecError) in
                try CodableFromJSON.decode(GeneratorParameters.self, from: g)
            } ?? .default
            try parameters.checkDeclaredRanges(at: "$.population.generator")
            world = .generated(users: try users.int(in: 1...ResourceLimits.maxUsers),
                               days: try days.int(in: 1...ResourceLimits.maxDays), parameters: parameters)
        case let (nil, traces?):
            let parsed = try TraceSynthesisSpec.parse(traces)
            traceSynthesis = parsed.synthesis
            measuredBattery = parsed.measuredBattery
            world = .traces(directory: parsed.directory)
        case (nil, nil):
            throw node.error("give either \"population\" (synthetic users) or \"traces\" (a trace set directory)")
        case (_?, _?):
            throw SpecError(path: "$.traces", message: "give either \"population\" or \"traces\", not both")
        }

        let device = try f["device"].map { d throws(SpecError) in
            try CodableFromJSON.decode(DeviceConfiguration.self, from: d)
        } ?? DeviceConfiguration()
        try DeviceRanges.check(device, at: "$.device")
        var namedApps: [(name: String, path: String)] = []
        if let d = f["device"], case let .object(pairs)? = d["apps"]?.value {
            namedApps = pairs.map { ($0.key, "$.device.apps.\($0.key)") }
        }

        let policiesNode = try required("policies")
        var configurations: [ExperimentConfiguration] = []
        for entry in try policiesNode.array() {
            configurations += try PolicyGrid.expand(entry, registry: registry,
                                                    budget: ResourceLimits.maxConfigurations - configurations.count)
        }
        guard !configurations.isEmpty else { throw policiesNode.error("at least one policy is needed") }
        var variants: [DeviceVariant] = []
        if let d = f["devices"] {
            variants = try DeviceVariants.parse(d, base: f["device"])
            configurations = try DeviceVariants.expand(configurations, variants, at: d)
            namedApps += variants.flatMap(\.appsNamed)
        }
        var seen: [String: String] = [:]
        for c in configurations {
            try LabelRules.checkLabel(c.label, at: c.path)
            if let other = seen[c.label] {
                throw SpecError(path: c.path, message: "configuration label \"\(c.label)\" repeats the one from \(other); add a distinct \"label\"")
            }
            seen[c.label] = c.path
        }
        for c in configurations {
            // The registry checks types, names, signs and the declared ranges.
            let made = try PolicyFactory.makeOwningResources(c.policy, path: c.path, registry: registry)
            for r in made.resources { r.shutDown() }
        }

        var baseline = 0
        if let b = f["baseline"] {
            let label = try b.string()
            guard let i = configurations.firstIndex(where: { $0.label == label }) else {
                throw b.error("baseline \"\(label)\" is not a configuration label; labels: \(configurations.map(\.label).joined(separator: ", "))")
            }
            baseline = i
        }
        return ExperimentSpec(
            name: name, description: try f["description"]?.string() ?? "", seed: UInt64(seed),
            replications: replications, world: world, device: device, configurations: configurations,
            baseline: baseline, source: root, file: nil, registry: registry, appsNamedInDevice: namedApps,
            deviceVariants: variants, traceSynthesis: traceSynthesis, measuredBattery: measuredBattery)
    }
}
