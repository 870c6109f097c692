// `bgbench traces generate` and `bgbench traces stats`: the logic, with the
// arguments already parsed. The CLI target only parses and dispatches.
import Foundation
import Traces

public enum TraceCommands {
    /// Generates `users` users × `days` days from `seed` with `parameters`
    /// and writes the trace set (with generator.json) to `directory`.
    /// Returns a one-line summary. The set is written into a staging
    /// directory and moved into place whole (``StagedDirectory``); an
    /// existing directory is refused unless `force`.
    @discardableResult
    public static func generate(users: Int, days: Int, seed: UInt64, out directory: URL,
                                parameters: GeneratorParameters = .default, force: Bool = false) throws -> String {
        guard users >= 1, days >= 1 else { throw TraceCommandError(message: "--users and --days must be at least 1") }
        do {
            try parameters.checkDeclaredRanges(at: "generator")
            try ResourceLimits.checkTraceSetMemory(
                users: users, days: days,
                updatesPerDay: 2 * 24 * parameters.content.rateScale * parameters.apps.reduce(0) { $0 + $1.contentUpdatesPerHour },
                sessionsPerDay: 2 * parameters.usage.sessionsPerDayMax)
        } catch {
            throw TraceCommandError(message: error.path == "--users" ? error.message : "\(error)")
        }
        let set = PopulationGenerator(parameters: parameters, seed: seed, days: days).traceSet(users: users)
        try StagedDirectory.write(directory.path, force: force) { staging in
            try TraceSetWriter.write(set, to: URL(fileURLWithPath: staging))
        }
        return "wrote \(users) users × \(days) days (seed \(seed)) to \(directory.path)"
    }

    /// Reads the trace set in `directory` strictly and returns its statistics
    /// as a markdown table.
    public static func stats(directory: URL) throws -> String {
        let set = try TraceSetReader.read(directory: directory)
        // The ranges `run` and `validate` check (a capacity of 1e308 Wh is
        // refused here too, not fed to the battery integration).
        try TraceSetRanges.check(set.header, directory: directory.path)
        // A stream the set omits reads as empty: say so rather than let its rows pass for measured zeros.
        let missing = set.missingStreams.sorted().map(\.rawValue)
        let note = missing.isEmpty ? ""
            : "The set omits the \(missing.joined(separator: ", ")) stream(s) (a spec synthesises them: Datasets/README.md, \"Streams a set may omit\"); their rows below are empty, not measured zeros.\n\n"
        return note + TraceStatistics(set).markdown + "\n" + PredictabilityStatistics(set).markdown + "\n"
            + powerComparison(set)
    }

    /// Users of the default world `stats` compares a set's power stream with.
    public static let comparisonUsers = 100
    public static let comparisonMaxDays = 60

    /// The set's power figures beside those of the generator's default
    /// world over the same days, at most `comparisonMaxDays` (the figures
    /// are rates; the cap bounds the time of `stats` on long sets), with
    /// `comparisonUsers` users from seed 1: where the defaults fall relative
    /// to the set (Datasets/README.md, "The generator against a real month").
    static func powerComparison(_ set: TraceSet) -> String {
        guard !set.missingStreams.contains(.power) else {
            return "The set has no power stream: no power comparison.\n"
        }
        let days = min(set.days, comparisonMaxDays)
        let generator = PopulationGenerator(parameters: .default, seed: 1, days: days)
        var defaults = PowerStatistics()
        for u in 0..<comparisonUsers { defaults.add(generator.user(u)) }
        return PowerStatistics.comparison(PowerStatistics(set), label: "this set (\(set.users.count) users)", defaults: defaults,
                                          defaultsLabel: "generator defaults (\(comparisonUsers) users × \(days) days, seed 1)")
    }
}

extension TraceCommands {
    /// Converts the real app-usage log `input` (LSApp TSV or the generic
    /// event log) into a trace set in `directory`, synthesising power,
    /// network and content per user from `seed`. Nothing is written when the
    /// log has an error; the set appears whole or not at all (a staging
    /// directory, as for `generate`), and an existing directory is refused
    /// unless `force`. Returns the report of what was repaired or dropped.
    @discardableResult
    public static func importLog(_ input: URL, format: AppEventLogFormat, seed: UInt64, out directory: URL,
                                 force: Bool = false, sessionsOnly: Bool = false) throws -> String {
        let (set, report) = try TraceImporter.importLog(input, format: format, seed: seed, sessionsOnly: sessionsOnly)
        try StagedDirectory.write(directory.path, force: force, inputs: [input.path]) { staging in
            try TraceSetWriter.write(set, to: URL(fileURLWithPath: staging))
        }
        let streams = sessionsOnly
            ? "sessions only: a spec synthesises power, network and content (\"traces\": {\"path\": ..., \"synthesise\": [\"power\", \"network\", \"content\"]}); content rates guessed from app names (Datasets/README.md)"
            : "power, network and content synthesised from seed \(seed); content rates guessed from app names (Datasets/README.md)"
        return (["imported \(input.path) (\(format.rawValue)): \(set.users.count) users × \(set.days) days, \(set.apps.count) apps, to \(directory.path)",
                 streams] + report.lines).joined(separator: "\n")
    }
}

extension TraceCommands {
    /// Converts the AWARE tables in `inputs` (files, or directories of
    /// `.csv` files) into a trace set in `directory` (Datasets/README.md,
    /// "Importing AWARE tables"): staged, whole or nothing, as `importLog`.
    /// Returns the report: rows read, what was repaired, where each stream
    /// comes from.
    @discardableResult
    public static func importAware(_ inputs: [URL], seed: UInt64, timeZone: TimeZone, out directory: URL,
                                   force: Bool = false) throws -> String {
        let (set, report) = try AwareImporter.importTables(inputs, seed: seed, timeZone: timeZone)
        try StagedDirectory.write(directory.path, force: force, inputs: inputs.map(\.path)) { staging in
            try TraceSetWriter.write(set, to: URL(fileURLWithPath: staging))
        }
        let missing = set.missingStreams.sorted().map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        return (["imported \(inputs.map(\.path).joined(separator: " ")) (aware, time zone \(timeZone.identifier)): \(set.users.count) users × \(set.days) days, \(set.apps.count) apps, to \(directory.path)"]
                + report.lines
                + ["run it with \"traces\": {\"path\": \"\(directory.path)\", \"synthesise\": [\(missing)]}"]).joined(separator: "\n")
    }
}

public struct TraceCommandError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
