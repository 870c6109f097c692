// The bgbench command line. Kept thin: every subcommand calls into Experiments.
import Experiments
import Foundation

let help = """
OVERVIEW: BGBench — benchmark background-task scheduling policies on simulated phone users.

USAGE: bgbench <subcommand> [options]

SUBCOMMANDS:
  traces generate --users N --days D --seed S --out DIR   write a synthetic trace set
  traces stats DIR                                        statistics of a trace set (markdown)
"""

let tracesHelp = """
USAGE: bgbench traces generate --users N --days D --seed S --out DIR
       bgbench traces stats DIR

  generate  Generate N users × D days from seed S with the default generator
            parameters and write the CSV trace set (plus generator.json) to DIR.
  stats     Read the trace set in DIR strictly and print per-user sessions a day,
            session-length quantiles, time charging / on Wi-Fi / cellular /
            offline and Low Power Mode time as a markdown table.
"""

func usageError(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\nsee 'bgbench traces --help'\n".utf8))
    exit(64)
}

func fail(_ error: Error) -> Never {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

var args = Array(CommandLine.arguments.dropFirst())
if args.isEmpty || args == ["--help"] || args == ["-h"] {
    print(help)
    exit(0)
}
guard args.removeFirst() == "traces" else { usageError("unknown subcommand; the only one so far is 'traces'") }
guard let sub = args.first else { usageError("missing traces subcommand: generate or stats") }
if sub == "--help" || sub == "-h" {
    print(tracesHelp)
    exit(0)
}
args.removeFirst()
switch sub {
case "generate":
    var options: [String: String] = [:]
    while !args.isEmpty {
        let name = args.removeFirst()
        guard ["--users", "--days", "--seed", "--out"].contains(name) else { usageError("unknown option \(name)") }
        guard !args.isEmpty else { usageError("\(name) needs a value") }
        options[name] = args.removeFirst()
    }
    guard let users = options["--users"].flatMap({ Int($0) }), users >= 1 else { usageError("--users needs an integer >= 1") }
    guard let days = options["--days"].flatMap({ Int($0) }), days >= 1 else { usageError("--days needs an integer >= 1") }
    guard let seed = options["--seed"].flatMap({ UInt64($0) }) else { usageError("--seed needs an unsigned integer") }
    guard let out = options["--out"] else { usageError("--out needs a directory") }
    do {
        print(try TraceCommands.generate(users: users, days: days, seed: seed, out: URL(fileURLWithPath: out)))
    } catch { fail(error) }
case "stats":
    guard args.count == 1 else { usageError("stats takes exactly one directory") }
    do { print(try TraceCommands.stats(directory: URL(fileURLWithPath: args[0])), terminator: "") } catch { fail(error) }
default:
    usageError("unknown traces subcommand '\(sub)'")
}
