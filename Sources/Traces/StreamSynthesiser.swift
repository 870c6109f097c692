// Fills the streams a trace set lacks (power, network, content) from the
// generators, each user drawn from its own streams exactly as a synthetic
// population draws it: `RandomStream(seed:user:stream:)` keyed by the
// user's index and the stream's name (`PopulationGenerator.streamNames`).
// Synthesising every stream of a generated set's sessions therefore gives
// back the generated world (Datasets/README.md, "Streams a set may omit").
import SimCore
import Stats

public struct StreamSynthesiser: Sendable {
    /// The streams replaced by the generators' (whether or not the set has them).
    public let streams: Set<TraceStream>
    public let days: Int
    /// Whether the set has a users.csv (`TraceSet.hasUsersFile`).
    public let hasUsersFile: Bool
    private let usage: UsageGenerator
    private let power: PowerGenerator
    private let network: NetworkGenerator
    private let content: ContentGenerator

    /// Generators for `set`'s apps and horizon. Content follows each app's
    /// rates in the set (apps.csv) and the content pattern and bursts
    /// (which apps.csv does not hold) of the app of the same name in
    /// `parameters.apps`, else of the catalogue app its name suggests (the
    /// importer's guess, `ImportedApps`), else the set's own (Poisson
    /// unless generator.json says otherwise).
    public init(streams: Set<TraceStream>, parameters: GeneratorParameters, set: TraceSet) {
        self.init(streams: streams, parameters: parameters, header: set.header)
    }

    /// As `init(streams:parameters:set:)`, from the set's header alone.
    public init(streams: Set<TraceStream>, parameters: GeneratorParameters, header set: TraceSetHeader) {
        self.streams = streams
        days = set.days
        hasUsersFile = set.hasUsersFile
        let named = Dictionary(parameters.apps.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let catalogue = Dictionary(TraceApp.defaultApps.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let apps = set.apps.map { a in
            (named[a.name] ?? ImportedApps.model(forName: a.name, catalogue: catalogue)).map { a.withTraits(of: $0) } ?? a
        }
        usage = UsageGenerator(parameters: parameters.usage, structure: parameters.structure, apps: apps)
        power = PowerGenerator(parameters: parameters.power, appCount: apps.count)
        network = NetworkGenerator(parameters: parameters.network)
        content = ContentGenerator(parameters: parameters.content, apps: apps)
    }

    /// `trace` with every stream of `streams` drawn for its user from `seed`.
    ///
    /// Power replaces the power constants of the profile, the charging
    /// intervals and the Low Power Mode answers. An app whose Background App
    /// Refresh is off in users.csv stays off (a generated set says so for
    /// apps the user does not have); without users.csv the user's intensity
    /// class comes from the mean sessions a day in the trace.
    public func complete(_ trace: UserTrace, seed: UInt64) -> UserTrace {
        var t = trace
        let user = t.profile.index
        let names = PopulationGenerator.streamNames
        if streams.contains(.power) {
            let w = power.generate(days: days, using: RandomStream(seed: seed, user: user, stream: names.power))
            var p = t.profile
            if !hasUsersFile { p.intensity = usage.intensityClass(sessionsPerDay: p.meanSessionsPerDay) }
            p.power = w.constants
            p.backgroundAppRefreshEnabled = zip(w.backgroundAppRefreshEnabled, p.backgroundAppRefreshEnabled).map { $0 && $1 }
            t.profile = p
            t.charging = w.charging
            t.lowPowerModeDecisions = w.lowPowerModeDecisions
        }
        if streams.contains(.network) {
            t.network = network.generate(days: days, using: RandomStream(seed: seed, user: user, stream: names.network))
        }
        if streams.contains(.content) {
            t.contentUpdates = content.generate(days: days, using: RandomStream(seed: seed, user: user, stream: names.content))
        }
        return t
    }
}
