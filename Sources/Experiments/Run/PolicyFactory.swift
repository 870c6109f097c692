import Foundation
import Device
import Policies

/// Builds policies from the JSON of a spec's configuration through the
/// standard policy registry, turning its errors into spec errors.
public enum PolicyFactory {
    public static func make(_ policy: JSONValue, path: String) throws(SpecError) -> any SchedulingPolicy {
        let config: Policies.PolicyConfiguration
        do {
            config = try JSONDecoder().decode(Policies.PolicyConfiguration.self, from: Data(policy.serialized().utf8))
        } catch let error as DecodingError {
            throw CodableFromJSON.describe(error, under: path)
        } catch {
            throw SpecError(path: path, message: "\(error)")
        }
        do {
            return try PolicyRegistry.standard.make(config, path: path)
        } catch {
            // The registry's path already starts with `path`.
            throw SpecError(path: error.path, message: error.message)
        }
    }
}

extension ExperimentConfiguration {
    /// True for configurations that see the future (the oracle, or anything
    /// wrapping it): bounds, not realisable policies.
    public var seesFuture: Bool {
        guard let policy = try? PolicyFactory.make(policy, path: path) else { return false }
        return type(of: policy).needsFutureKnowledge
    }
}

extension ExperimentCommands {
    /// The text of `bgbench policies`.
    public static func policyListing() -> String { PolicyRegistry.standard.listing() }
}
