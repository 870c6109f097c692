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
        let problems = parameters.problems()
        guard problems.isEmpty else { throw TraceCommandError(message: problems.joined(separator: "\n")) }
        guard users >= 1, days >= 1 else { throw TraceCommandError(message: "--users and --days must be at least 1") }
        do {
            try GeneratorRanges.check(parameters, at: "generator")
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
        return note + TraceStatistics(set).markdown + "\n" + PredictabilityStatistics(set).markdown
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

public struct TraceCommandError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
