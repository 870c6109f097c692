// N users × D days from one seed, one user at a time.
import SimCore
import Stats

/// Generates any user of a synthetic population on demand.
///
/// User i's trace is a pure function of (parameters, seed, days, i): it is
/// drawn from that user's own streams "usage", "power", "network" and
/// "content" (`RandomStream(seed:user:stream:)`), so it is the same whatever
/// the population size, the order users are generated in, or the thread
/// count. Nothing is cached: the runner generates a user, simulates it and
/// drops it.
public struct PopulationGenerator: Sendable {
    public let parameters: GeneratorParameters
    public let seed: UInt64
    public let days: Int
    private let usage: UsageGenerator
    private let power: PowerGenerator
    private let network: NetworkGenerator
    private let content: ContentGenerator

    /// Stream names, one per generator.
    public static let streamNames = (usage: "usage", power: "power", network: "network", content: "content")

    public init(parameters: GeneratorParameters, seed: UInt64, days: Int) {
        precondition(days >= 1, "a population needs at least one day")
        self.parameters = parameters
        self.seed = seed
        self.days = days
        usage = UsageGenerator(parameters: parameters.usage, structure: parameters.structure, apps: parameters.apps)
        power = PowerGenerator(parameters: parameters.power, appCount: parameters.apps.count)
        network = NetworkGenerator(parameters: parameters.network)
        content = ContentGenerator(parameters: parameters.content, apps: parameters.apps)
    }

    /// The end of every user's trace: `days` × 1 d.
    public var horizon: SimTime { SimTime(day: days) }

    /// User `index`'s trace.
    public func user(_ index: Int) -> UserTrace {
        let names = Self.streamNames
        let u = usage.generate(days: days, using: RandomStream(seed: seed, user: index, stream: names.usage))
        let w = power.generate(days: days, using: RandomStream(seed: seed, user: index, stream: names.power))
        let n = network.generate(days: days, using: RandomStream(seed: seed, user: index, stream: names.network))
        let c = content.generate(days: days, using: RandomStream(seed: seed, user: index, stream: names.content))
        let profile = UserProfile(
            index: index, intensity: u.intensity, meanSessionsPerDay: u.meanSessionsPerDay,
            power: w.constants,
            // An app the user does not have does no background work.
            backgroundAppRefreshEnabled: zip(w.backgroundAppRefreshEnabled, u.installed).map { $0 && $1 })
        return UserTrace(profile: profile, horizon: horizon, sessions: u.sessions, charging: w.charging,
                         network: n, contentUpdates: c, lowPowerModeDecisions: w.lowPowerModeDecisions)
    }

    /// Users 0..<count, with the generator's provenance, as a trace set.
    public func traceSet(users count: Int) -> TraceSet {
        TraceSet(apps: parameters.apps, days: days, users: (0..<count).map(user),
                 provenance: TraceProvenance(seed: seed, users: count, days: days, parameters: parameters))
    }
}
