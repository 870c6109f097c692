import Traces
import Policies

/// Which program runs the experiments: the executable as invoked and the
/// policy registry it was built with. `bgbench` is one such tool; a
/// researcher's executable with its own policies (Examples/CustomPolicy)
/// is another. Every command takes one, and every result names it
/// (`manifest.json`: `executable`, `registry`; `report.md`: the
/// "Reproduce" line), so that a run can be reproduced with the program
/// that really made it.
public struct ExperimentTool: Sendable {
    /// The executable's path or name as invoked (`argv[0]`), e.g.
    /// `.build/release/bgbench`.
    public var executable: String
    /// The policies a spec may name.
    public var registry: PolicyRegistry

    public init(executable: String, registry: PolicyRegistry) {
        self.executable = executable
        self.registry = registry
    }
}

/// The program that produced a result, as `manifest.json` and `shard.json`
/// record it and the report's "Reproduce" line names it.
public struct RunProvenance: Sendable, Equatable {
    public var executable: String
    public var registryFingerprint: String
    public var policies: [String]

    public init(_ tool: ExperimentTool) {
        executable = tool.executable
        registryFingerprint = tool.registry.fingerprint
        policies = tool.registry.names
    }

    /// The `executable` and `registry` keys of a manifest or shard marker;
    /// nil when absent (results of a bgbench before 0.1.0's registry threading).
    init?(json: JSONValue) {
        guard case let .string(executable)? = json["executable"],
              case let .string(fingerprint)? = json["registry"]?["fingerprint"],
              case let .array(names)? = json["registry"]?["policies"] else { return nil }
        self.executable = executable
        registryFingerprint = fingerprint
        policies = names.compactMap { if case let .string(s) = $0 { s } else { nil } }
    }

    /// `("executable", ...), ("registry", {...})` for a manifest or marker.
    var jsonFields: [(key: String, value: JSONValue)] {
        [("executable", .string(executable)),
         ("registry", .object([
             ("fingerprint", .string(registryFingerprint)),
             ("policies", .array(policies.map { .string($0) })),
         ]))]
    }
}
