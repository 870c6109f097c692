import Traces
import Foundation
import Device
import Policies

/// Builds policies from the JSON of a spec's configuration through a
/// policy registry (the one the spec was loaded with), turning its errors
/// into spec errors.
public enum PolicyFactory {
    public static func make(_ policy: JSONValue, path: String, registry: PolicyRegistry) throws(SpecError) -> any SchedulingPolicy {
        try makeOwningResources(policy, path: path, registry: registry).policy
    }

    /// The policy and what it holds outside the simulation (``PolicyResource``),
    /// which the caller must shut down.
    static func makeOwningResources(_ policy: JSONValue, path: String, registry: PolicyRegistry)
        throws(SpecError) -> (policy: any SchedulingPolicy, resources: [any PolicyResource]) {
        let config: Policies.PolicyConfiguration
        do {
            config = try JSONDecoder().decode(Policies.PolicyConfiguration.self, from: Data(policy.serialized().utf8))
        } catch let error as DecodingError {
            throw CodableFromJSON.describe(error, under: path)
        } catch {
            throw SpecError(path: path, message: "\(error)")
        }
        do {
            return try registry.makeOwningResources(config, path: path)
        } catch {
            // The registry's path already starts with `path`.
            throw SpecError(path: error.path, message: error.message)
        }
    }
}

extension ExperimentSpec {
    /// The policy type a configuration builds (nil if it cannot be built),
    /// to ask its static flags; anything it holds outside is released.
    func policyType(of configuration: ExperimentConfiguration) -> (any SchedulingPolicy.Type)? {
        guard let made = try? PolicyFactory.makeOwningResources(configuration.policy, path: configuration.path,
                                                                 registry: registry) else { return nil }
        for r in made.resources { r.shutDown() }
        return type(of: made.policy)
    }

    /// True for configurations that see the future (the oracle, or anything
    /// wrapping it): bounds, not realisable policies.
    public func seesFuture(_ configuration: ExperimentConfiguration) -> Bool {
        policyType(of: configuration)?.traits.needsFutureKnowledge ?? false
    }

    /// True for configurations that know the generator's model of the user
    /// (`model-bound`): realisable only with the model, a reference.
    public func knowsModel(_ configuration: ExperimentConfiguration) -> Bool {
        policyType(of: configuration)?.traits.needsModelKnowledge ?? false
    }
}

extension ExperimentCommands {
    /// The text of `bgbench policies`.
    public static func policyListing(registry: PolicyRegistry) -> String { registry.listing() }
}
