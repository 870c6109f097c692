// The bgbench command line as a library, so that a researcher's own
// executable can be the whole CLI: its `main.swift` registers its policies
// and calls `BGBenchCLI.main(registry: .standard.adding(MyPolicy.registration))`
// (Examples/CustomPolicy). Kept thin: parsing and help here, every
// action calls into Experiments. Exit codes (`ExitCodes`): 0 success, 1 a
// run failed, 64 usage error (EX_USAGE), 65 bad input data (EX_DATAERR),
// 74 I/O error (EX_IOERR), 130 SIGINT, 143 SIGTERM.
import Experiments
import Foundation
import Policies

/// The `bgbench` command line.
public enum BGBenchCLI {
    /// Every subcommand, in the order of the top-level help.
    static let commands: [any Command.Type] = [
        RunCommand.self, MergeCommand.self, ReportCommand.self, ValidateCommand.self,
        PoliciesCommand.self, TracesGenerateCommand.self, TracesStatsCommand.self, TracesImportCommand.self,
    ]

    /// Runs the command named by `arguments` (without the program name)
    /// with the policies of `registry`, and exits with its status. Results
    /// name `executable` (default: this program as invoked) and the registry.
    public static func main(registry: PolicyRegistry = .standard,
                            executable: String = CommandLine.arguments.first ?? "bgbench",
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let tool = ExperimentTool(executable: executable, registry: registry)
        let argv = arguments
        Interrupt.install()
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
            if !group.isEmpty, argv.count == 2, ["--help", "-h"].contains(argv[1]) {
                print(groupHelp(argv[0], group), terminator: "")
                exit(0)
            }
            if !group.isEmpty {
                fail("'\(argv.joined(separator: " "))' is not a command; try \(group.map { "'bgbench \($0.path.joined(separator: " "))'" }.joined(separator: " or "))\nSee 'bgbench --help'.", code: 64)
            }
            fail("unknown subcommand '\(argv[0])'\nSee 'bgbench --help'.", code: 64)
        }

        var rest = ArgumentList(Array(argv.dropFirst(command.path.count)))
        if (try? rest.flag("-h", "--help")) ?? true {
            print(command.help, terminator: "")
            exit(0)
        }
        do {
            let parsed = try command.init(parsing: &rest)
            try parsed.run(tool: tool)
        } catch let error as UsageError {
            fail("\(error.message)\nSee '\(command.commandName) --help'.", code: 64)
        } catch let error as RunOptionError {
            fail("\(error)\nSee '\(command.commandName) --help'.", code: 64)
        } catch let error as CommandFailure {
            fail(error.message, code: error.exitCode)
        } catch let error as OutputError {
            fail("\(error)", code: error.refused ? 64 : 74)
        } catch let error as CocoaError where error.code.rawValue >= CocoaError.fileWriteUnknown.rawValue && error.code.rawValue <= CocoaError.fileWriteVolumeReadOnly.rawValue {
            fail("\(error.userInfo[NSFilePathErrorKey] ?? ""): cannot write (\(error.localizedDescription))", code: 74)
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
        s += "\n" + ExitCodes.help
        return s
    }

    /// `bgbench traces --help`: the commands of a group.
    static func groupHelp(_ group: String, _ members: [any Command.Type]) -> String {
        var s = "OVERVIEW: The '\(group)' commands.\n\nUSAGE: bgbench \(group) <subcommand> [options]\n\nSUBCOMMANDS:\n"
        s += HelpLayout.table(members.map { ($0.path.joined(separator: " "), $0.overview) })
        s += "\n  See 'bgbench \(group) <subcommand> --help' for detailed help.\n"
        s += "\nOPTIONS:\n" + HelpLayout.table([("-h, --help", "Show help information.")])
        s += "\n" + ExitCodes.help
        return s
    }

    static func fail(_ message: String, code: Int32) -> Never {
        // Once a signal has arrived, its handler owns the exit (130 or 143):
        // the failure seen here may be its own doing (it kills the external
        // policy's decision processes, whose broken pipes then fail the
        // run), and must not win the race with its own exit status.
        if Interrupt.shared.isSet { while true { sleep(1) } }
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        exit(code)
    }
}
