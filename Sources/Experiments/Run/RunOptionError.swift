/// An option of `bgbench run` that contradicts the spec it runs (e.g.
/// `--events-users` naming users the population does not have): a usage
/// error (exit 64), found before anything is simulated, because only the
/// spec says what the option may name.
public struct RunOptionError: Error, CustomStringConvertible {
    /// The option, as written on the command line (`--events-users`).
    public let option: String
    public let message: String

    public var description: String { "\(option) \(message)" }

    /// `--events-users` names only users of the run: ids beyond the
    /// largest would silently log nothing. `ids`: the user ids of the run
    /// (0 ..< users for a generated population, the trace set's own ids).
    static func checkEventUsers(_ selection: UserSelection, ids: [Int], generated: Bool) throws(RunOptionError) {
        let largest = ids.max() ?? -1
        guard let beyond = selection.ranges.last?.upperBound, beyond > largest else { return }
        let allowed = largest < 0 ? "the run has no user"
            : generated ? "user ids are 0-\(largest) (population.users is \(ids.count))"
            : "the trace set's user ids are at most \(largest) (\(ids.count) users)"
        throw RunOptionError(option: "--events-users", message: "\(selection) names user \(beyond), beyond the run's users: \(allowed)")
    }
}
