import Experiments
import Foundation

/// One `bgbench` subcommand: its help text in the fixed layout
/// (OVERVIEW / USAGE / ARGUMENTS / OPTIONS), argument parsing and action.
protocol Command: Sendable {
    /// Words after `bgbench` that select this command, e.g. `["traces", "generate"]`.
    static var path: [String] { get }
    static var overview: String { get }
    static var usage: String { get }
    static var arguments: [(String, String)] { get }
    static var options: [(String, String)] { get }

    init(parsing args: inout ArgumentList) throws(UsageError)
    /// Runs the command with `tool`'s policies; its outputs name `tool`.
    func run(tool: ExperimentTool) throws
}

extension Command {
    static var arguments: [(String, String)] { [] }
    static var options: [(String, String)] { [] }
    static var commandName: String { (["bgbench"] + path).joined(separator: " ") }

    static var help: String {
        var s = "OVERVIEW: \(overview)\n\nUSAGE: \(usage)\n"
        if !arguments.isEmpty { s += "\nARGUMENTS:\n" + HelpLayout.table(arguments) }
        s += "\nOPTIONS:\n" + HelpLayout.table(options + [("-h, --help", "Show help information.")])
        s += "\n" + ExitCodes.help
        return s
    }
}

/// A command whose one argument is a directory (`report <dir>`,
/// `traces stats <dir>`): its usage, argument help and parsing follow from
/// its path and `directoryHelp`.
protocol DirectoryCommand: Command {
    /// What the directory is, for the ARGUMENTS section of the help.
    static var directoryHelp: String { get }
    init(directory: String)
}

extension DirectoryCommand {
    static var usage: String { "\(commandName) <dir>" }
    static var arguments: [(String, String)] { [("<dir>", directoryHelp)] }

    init(parsing args: inout ArgumentList) throws(UsageError) {
        self.init(directory: try args.onePositional("\(Self.path.joined(separator: " ")) takes exactly one directory"))
    }
}

/// The `--out <dir>` and `--force` of a command that writes a directory
/// whole (`merge`, `traces generate`, `traces import`): their help and
/// their parsing, `--out` required.
struct OutputDirectory {
    let path: String
    /// Replace an existing directory (without it, one is refused).
    let force: Bool

    /// The two options' help lines; `outHelp` says what `--out` receives.
    static func options(_ outHelp: String) -> [(String, String)] {
        [("--out <dir>", outHelp), ("--force", "Replace an existing --out directory whole.")]
    }

    init(parsing args: inout ArgumentList) throws(UsageError) {
        guard let out = try args.option("--out") else { throw UsageError("--out is required") }
        path = out
        force = try args.flag("--force")
    }
}

/// The exit statuses of every command, listed in every help text and in the README.
enum ExitCodes {
    static let table: [(String, String)] = [
        ("0", "Success."),
        ("1", "A run failed while simulating (reserved: every input is checked first, and no command returns it today)."),
        ("64", "Usage error: unknown or repeated option, missing argument, an empty value or path, --events-users naming a user id beyond the run's users, or an existing output (or an incomplete shard) without --force."),
        ("65", "Bad input: a spec, trace set or result file that is malformed or out of range (the message names file and path)."),
        ("74", "I/O error writing output: disk full, read-only, a path through a file (the message names the path and the reason)."),
        ("130", "Interrupted by SIGINT (Ctrl-C); nothing was written."),
        ("143", "Terminated by SIGTERM; nothing was written."),
    ]
    static var help: String { "EXIT CODES:\n" + HelpLayout.table(table) }
}

enum HelpLayout {
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { name, text in
            let pad = name.count < width ? String(repeating: " ", count: width - name.count) : "\n" + String(repeating: " ", count: width + 2)
            return "  \(name)\(pad)\(text)\n"
        }.joined()
    }
}

/// A mistake in how the command was called (exit 64, EX_USAGE).
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The words of the command line after the subcommand, consumed as parsed.
/// Options take their value as the next word or after `=`. Every option and
/// flag may be given once (a second one is refused as repeated rather than
/// left over as "unknown"), and no value or positional argument may be empty
/// (`--out=` or `""` would otherwise name the working directory or fail only
/// after the work was done).
struct ArgumentList {
    private(set) var words: [String]

    init(_ words: [String]) { self.words = words }

    /// Removes `--name` (a flag) and reports whether it was there.
    mutating func flag(_ names: String...) throws(UsageError) -> Bool {
        let found = words.indices.filter { names.contains(words[$0]) }
        guard let i = found.first else { return false }
        guard found.count == 1 else { throw repeated(names.filter { words.contains($0) }.joined(separator: " / ")) }
        words.remove(at: i)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns VALUE.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        let found = words.indices.filter { words[$0] == name || words[$0].hasPrefix(name + "=") }
        guard let i = found.first else { return nil }
        guard found.count == 1 else { throw repeated(name) }
        let v: String
        if words[i] == name {
            guard i + 1 < words.count, !words[i + 1].hasPrefix("--") else {
                throw UsageError("missing value for \(name)")
            }
            v = words[i + 1]
            words.removeSubrange(i...i + 1)
        } else {
            v = String(words[i].dropFirst(name.count + 1))
            words.remove(at: i)
        }
        guard !v.isEmpty else { throw UsageError("\(name) has an empty value; give a non-empty one") }
        return v
    }

    private func repeated(_ name: String) -> UsageError {
        UsageError("option \(name) is repeated; give it once")
    }

    /// An integer option within `range`.
    mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        try option(name, expects: "a whole number in \(range.lowerBound)...\(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// An option read by `parse` (nil: not a valid value, refused saying
    /// what the option `expects`); nil when the option is absent.
    mutating func option<T>(_ name: String, expects: String, _ parse: (String) -> T?) throws(UsageError) -> T? {
        guard let s = try option(name) else { return nil }
        guard let v = parse(s) else { throw UsageError("\(name) expects \(expects), got \"\(s)\"") }
        return v
    }

    /// The one positional argument; `usage` is the error when there is not exactly one.
    mutating func onePositional(_ usage: String) throws(UsageError) -> String {
        let rest = try positionals()
        guard rest.count == 1 else { throw UsageError(usage) }
        return rest[0]
    }

    /// The remaining words, which must all be positional (no leftover `--x`)
    /// and non-empty (every positional argument is a path).
    mutating func positionals() throws(UsageError) -> [String] {
        if let unknown = words.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError("unknown option \(unknown)")
        }
        if let i = words.firstIndex(where: \.isEmpty) {
            throw UsageError("argument \(i + 1) is an empty path; give a file or directory")
        }
        defer { words = [] }
        return words
    }
}
