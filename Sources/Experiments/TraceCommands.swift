// `bgbench traces generate` and `bgbench traces stats`: the logic, with the
// arguments already parsed. The CLI target only parses and dispatches.
import Foundation
import Traces

public enum TraceCommands {
    /// Generates `users` users × `days` days from `seed` with `parameters`
    /// and writes the trace set (with generator.json) to `directory`.
    /// Returns a one-line summary.
    @discardableResult
    public static func generate(users: Int, days: Int, seed: UInt64, out directory: URL,
                                parameters: GeneratorParameters = .default) throws -> String {
        let problems = parameters.problems()
        guard problems.isEmpty else { throw TraceCommandError(message: problems.joined(separator: "\n")) }
        guard users >= 1, days >= 1 else { throw TraceCommandError(message: "--users and --days must be at least 1") }
        let set = PopulationGenerator(parameters: parameters, seed: seed, days: days).traceSet(users: users)
        try TraceSetWriter.write(set, to: directory)
        return "wrote \(users) users × \(days) days (seed \(seed)) to \(directory.path)"
    }

    /// Reads the trace set in `directory` strictly and returns its statistics
    /// as a markdown table.
    public static func stats(directory: URL) throws -> String {
        let set = try TraceSetReader.read(directory: directory)
        return TraceStatistics(set).markdown + "\n" + PredictabilityStatistics(set).markdown
    }
}

public struct TraceCommandError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
