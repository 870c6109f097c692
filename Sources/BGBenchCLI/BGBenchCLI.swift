// The bgbench command line as a library, so that a researcher's own
// executable can be the whole CLI: its `main.swift` registers its policies
// and calls `BGBenchCLI.main()`. Kept thin: parsing and help here, every
// action calls into Experiments. Exit codes: 0 success, 1 a run failed,
// 64 usage error (EX_USAGE), 65 bad input data (EX_DATAERR), 130 interrupted.
import Experiments
import Foundation

/// The `bgbench` command line.
public enum BGBenchCLI {
    /// Every subcommand, in the order of the top-level help.
    static let commands: [any Command.Type] = [
        RunCommand.self, MergeCommand.self, ReportCommand.self, ValidateCommand.self,
        PoliciesCommand.self, TracesGenerateCommand.self, TracesStatsCommand.self, TracesImportCommand.self,
    ]

    /// Runs the command named by `arguments` (without the program name) and
    /// exits with its status.
    public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let argv = arguments
        if argv.isEmpty || argv == ["--help"] || argv == ["-h"] || argv == ["help"] {
            print(topHelp(), terminator: "")
            exit(argv.isEmpty ? 64 : 0)
        }

        // The longest command path that prefixes the arguments.
        let match = commands
            .filter { argv.starts(with: $0.path) }
            .max { $0.path.count < $1.path.count }
        guard let command = match else {
            let group = commands.filter { $0.path.count > 1 && $0.path[0] == argv[0] }
            if !group.isEmpty {
                fail("'\(argv.joined(separator: " "))' is not a command; try \(group.map { "'bgbench \($0.path.joined(separator: " "))'" }.joined(separator: " or "))\nSee 'bgbench --help'.", code: 64)
            }
            fail("unknown subcommand '\(argv[0])'\nSee 'bgbench --help'.", code: 64)
        }

        var rest = ArgumentList(Array(argv.dropFirst(command.path.count)))
        if rest.flag("-h", "--help") {
            print(command.help, terminator: "")
            exit(0)
        }
        do {
            let parsed = try command.init(parsing: &rest)
            try parsed.run()
        } catch let error as UsageError {
            fail("\(error.message)\nSee '\(command.commandName) --help'.", code: 64)
        } catch let error as CommandFailure {
            fail(error.message, code: error.exitCode)
        } catch {
            fail("\(error)", code: 65)
        }
        exit(0)
    }

    static func topHelp() -> String {
        var s = """
        OVERVIEW: BGBench — benchmark background-task scheduling policies on simulated phone users,
        content freshness versus energy.

        USAGE: bgbench <subcommand> [options]

        SUBCOMMANDS:

        """
        s += HelpLayout.table(commands.map { ($0.path.joined(separator: " "), $0.overview) })
        s += "\n  See 'bgbench <subcommand> --help' for detailed help.\n"
        return s
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        exit(code)
    }
}
