import Foundation
import Experiments

struct MergeCommand: Command {
    static let path = ["merge"]
    static let overview = "Combine the shard directories of a sharded run into exactly the unsharded result."
    static let usage = "bgbench merge --out <dir> [--force] <shard-dir>..."
    static let arguments = [("<shard-dir>", "Directories written by 'bgbench run --shard i/n', all n of them.")]
    static let options = OutputDirectory.options("Directory for the merged result (created whole at the end; never one of the shards).")

    let output: OutputDirectory, shards: [String]

    init(parsing args: inout ArgumentList) throws(UsageError) {
        output = try OutputDirectory(parsing: &args)
        shards = try args.positionals()
        guard !shards.isEmpty else { throw UsageError("give the shard directories to merge") }
    }

    func run(tool: ExperimentTool) throws {
        do {
            let runs = try ExperimentCommands.merge(shardDirectories: shards, out: output.path, force: output.force, tool: tool)
            print("merged \(shards.count) shards (\(runs) runs) into \(output.path)")
        } catch let e as ExperimentCommands.MergeError {
            throw CommandFailure.badInput(e.message)
        }
    }
}

struct ReportCommand: DirectoryCommand {
    static let path = ["report"]
    static let overview = "Re-render report.md, summary.csv, comparison.csv and plots of a run directory from its runs.csv (checked against manifest.json first)."
    static let directoryHelp = "Output directory of 'bgbench run' or 'bgbench merge'."

    let directory: String

    func run(tool: ExperimentTool) throws {
        try ExperimentCommands.report(directory: directory, tool: tool)
        print("re-rendered \(directory)/report.md")
    }
}

struct ValidateCommand: Command {
    static let path = ["validate"]
    static let overview = "Check an experiment file without running it; errors name the JSON path."
    static let usage = "bgbench validate <spec> [--threads <n>]"
    static let arguments = [("<spec>", "Experiment file (JSON).")]
    static let options = [("--threads <n>", "Threads the run would use (default: all cores), for the memory estimate; as in 'bgbench run'.")]

    let spec: String, threads: Int

    init(parsing args: inout ArgumentList) throws(UsageError) {
        threads = try args.intOption("--threads", in: 1...1024) ?? ProcessInfo.processInfo.activeProcessorCount
        spec = try args.onePositional("validate takes exactly one spec file")
    }

    func run(tool: ExperimentTool) throws {
        print(try ExperimentCommands.validate(specPath: spec, threads: threads, registry: tool.registry))
    }
}

struct PoliciesCommand: Command {
    static let path = ["policies"]
    static let overview = "List every scheduling policy with its parameters, defaults and what it does."
    static let usage = "bgbench policies"

    init(parsing args: inout ArgumentList) throws(UsageError) {
        guard try args.positionals().isEmpty else { throw UsageError("policies takes no arguments") }
    }

    func run(tool: ExperimentTool) throws {
        print(ExperimentCommands.policyListing(registry: tool.registry), terminator: "")
    }
}
