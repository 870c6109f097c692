import Experiments
import Traces
import Foundation

struct TracesGenerateCommand: Command {
    static let path = ["traces", "generate"]
    static let overview = "Generate a synthetic trace set (usage, power, network, content) as CSV files."
    static let usage = "bgbench traces generate --users <n> --days <d> --seed <s> --out <dir> [--force]"
    static let options = [
        ("--users <n>", "Number of users (>= 1)."),
        ("--days <d>", "Days per user (>= 1); day 0 is a Monday."),
        ("--seed <s>", "Seed; the same seed gives byte-identical files."),
    ] + OutputDirectory.options("Directory to write (created whole at the end); see Datasets/README.md for the format.")

    let users: Int, days: Int, seed: UInt64, output: OutputDirectory

    init(parsing args: inout ArgumentList) throws(UsageError) {
        guard let users = try args.intOption("--users", in: 1...10_000_000) else { throw UsageError("--users is required") }
        guard let days = try args.intOption("--days", in: 1...3650) else { throw UsageError("--days is required") }
        guard let seedText = try args.option("--seed") else { throw UsageError("--seed is required") }
        guard let seed = UInt64(seedText) else { throw UsageError("--seed expects an unsigned whole number, got \"\(seedText)\"") }
        output = try OutputDirectory(parsing: &args)
        guard try args.positionals().isEmpty else { throw UsageError("traces generate takes no positional arguments") }
        self.users = users; self.days = days; self.seed = seed
    }

    func run(tool _: ExperimentTool) throws {
        print(try TraceCommands.generate(users: users, days: days, seed: seed, out: URL(fileURLWithPath: output.path), force: output.force))
    }
}

struct TracesStatsCommand: DirectoryCommand {
    static let path = ["traces", "stats"]
    static let overview = "Statistics of a trace set as a markdown table, to check it against published figures."
    static let directoryHelp = "A trace set directory (read strictly; errors name file, line and column)."

    let directory: String

    func run(tool _: ExperimentTool) throws {
        print(try TraceCommands.stats(directory: URL(fileURLWithPath: directory)), terminator: "")
    }
}

struct TracesImportCommand: Command {
    static let path = ["traces", "import"]
    static let overview = "Convert a real log into a trace set: app usage (LSApp TSV or a generic open/close log; power, network and content synthesised) or AWARE sensing tables (sessions, charging, battery level, network)."
    static let usage = "bgbench traces import --format <lsapp|events> (--seed <s> | --sessions-only) --out <dir> [--force] <log>\n       bgbench traces import --format aware --seed <s> --time-zone <zone> --out <dir> [--force] <table-or-dir>..."
    static let arguments = [("<log>", "The log file (formats: Datasets/README.md, \"Importing real traces\")."),
                            ("<table-or-dir>", "With --format aware: AWARE table files (battery, screen, applications_foreground, network) or directories of them (Datasets/README.md, \"Importing AWARE tables\").")]
    static let options = [
        ("--format <f>", "lsapp (tab-separated user_id, session_id, timestamp, app_name, event_type), events (user,time,app,event) or aware (AWARE tables)."),
        ("--seed <s>", "Seed of the synthesised streams (with aware: the power constants, Low Power Mode answers and, without applications_foreground, the apps)."),
        ("--time-zone <zone>", "aware only: the phone's time zone, an IANA name (Europe/Helsinki) or UTC; AWARE times are UTC."),
    ] + OutputDirectory.options("Directory to write the trace set to (created whole at the end).") + [
        ("--sessions-only", "lsapp and events only: write the sessions alone (no users.csv, power, network or content): a spec synthesises the rest (Docs/ExperimentSpec.md, \"traces\")."),
    ]

    enum Format { case log(AppEventLogFormat), aware(TimeZone) }
    let format: Format, seed: UInt64, output: OutputDirectory, inputs: [String], sessionsOnly: Bool

    init(parsing args: inout ArgumentList) throws(UsageError) {
        guard let f = try args.option("--format") else { throw UsageError("--format is required (lsapp, events or aware)") }
        let zone = try args.option("--time-zone")
        if f == "aware" {
            guard let zone else { throw UsageError("--time-zone is required with --format aware (AWARE times are UTC; e.g. Europe/Helsinki, or UTC)") }
            guard let tz = TimeZone(identifier: zone) else {
                throw UsageError("--time-zone expects an IANA time zone name such as Europe/Helsinki or UTC, got \"\(zone)\"")
            }
            format = .aware(tz)
        } else {
            guard let log = AppEventLogFormat(rawValue: f) else { throw UsageError("--format expects lsapp, events or aware, got \"\(f)\"") }
            guard zone == nil else { throw UsageError("--time-zone is for --format aware (lsapp and events hold local times)") }
            format = .log(log)
        }
        sessionsOnly = try args.flag("--sessions-only")
        let seedText = try args.option("--seed")
        if case .aware = format, sessionsOnly {
            throw UsageError("--sessions-only is for lsapp and events: an AWARE import keeps the tables' charging and battery level, and leaves out what they lack for the spec to synthesise")
        }
        if sessionsOnly, seedText != nil { throw UsageError("--seed seeds the synthesised streams; --sessions-only writes none") }
        guard sessionsOnly || seedText != nil else { throw UsageError("--seed is required (or --sessions-only)") }
        guard let seed = seedText.map({ UInt64($0) }) ?? 0 else {
            throw UsageError("--seed expects an unsigned whole number, got \"\(seedText ?? "")\"")
        }
        output = try OutputDirectory(parsing: &args)
        let rest = try args.positionals()
        if case .log = format {
            guard rest.count == 1 else { throw UsageError("traces import takes exactly one log file") }
        } else {
            guard !rest.isEmpty else { throw UsageError("traces import --format aware takes one or more table files or directories") }
        }
        self.seed = seed; self.inputs = rest
    }

    func run(tool _: ExperimentTool) throws {
        switch format {
        case .log(let log):
            print(try TraceCommands.importLog(URL(fileURLWithPath: inputs[0]), format: log, seed: seed,
                                              out: URL(fileURLWithPath: output.path), force: output.force, sessionsOnly: sessionsOnly))
        case .aware(let zone):
            print(try TraceCommands.importAware(inputs.map { URL(fileURLWithPath: $0) }, seed: seed, timeZone: zone,
                                                out: URL(fileURLWithPath: output.path), force: output.force))
        }
    }
}
