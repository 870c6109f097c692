import Foundation
import Traces

/// `bgbench report`: re-rendering a result from its verified `runs.csv`.
extension ExperimentCommands {
    /// Re-renders `summary.csv`, `comparison.csv`, `report.md` and the plot
    /// of a finished run directory from its `runs.csv` and `manifest.json`
    /// (e.g. after changing the report code), without simulating anything.
    ///
    /// `runs.csv` is checked first against the manifest (its SHA-256, and
    /// every run present exactly once); the directory is then rebuilt in a
    /// staging directory (the kept files linked, not copied) and swapped in
    /// whole, so an interrupted report leaves the old one intact. The spec
    /// is read with `tool`'s policies; the report keeps naming the
    /// executable and registry the manifest records.
    public static func report(directory: String, tool: ExperimentTool) throws {
        let manifestPath = (directory as NSString).appendingPathComponent("manifest.json")
        let text: String
        do { text = try InputText.read(manifestPath) } catch {
            throw MergeError(message: "\(error); is \(directory) the output of 'bgbench run' or 'bgbench merge'?")
        }
        let manifest: JSONValue
        do { manifest = try JSONParser.parse(text) } catch {
            throw InputFileError(file: manifestPath, line: error.line, message: error.message)
        }
        guard let source = manifest["spec"], case let .string(specPath)? = manifest["spec_path"],
              case let .number(runs)? = manifest["runs"],
              case let .string(runsHash)? = manifest["hashes"]?["runs_sha256"] else {
            throw InputFileError(file: manifestPath, line: nil, message: "expected \"spec\", \"spec_path\", \"runs\" and \"hashes\".\"runs_sha256\" (a manifest from an older bgbench has no hashes: run again)")
        }
        let provenance = RunProvenance(json: manifest) ?? RunProvenance(tool)
        var spec: ExperimentSpec
        do { spec = try ExperimentSpec.parse(source.serialized(), registry: tool.registry) } catch {
            var e = error
            e.file = manifestPath
            if provenance.registryFingerprint != tool.registry.fingerprint {
                e.message += " (this run was made by \(provenance.executable) with policy registry \(provenance.registryFingerprint); re-render it with that executable)"
            }
            throw e
        }
        spec.file = specPath
        // The decision processes the manifest records must be the spec's
        // `external` commands: a manifest spliced from another run is refused.
        let recorded: DecisionProcessProvenance?
        do { recorded = try DecisionProcessProvenance.read(manifest["decision_processes"].map { JSONNode($0, path: "$.decision_processes") }) } catch {
            throw InputFileError(file: manifestPath, line: nil, message: "\(error.path): \(error.message)")
        }
        if let why = DecisionProcessProvenance.disagreement(recorded, with: spec) {
            throw MergeError(message: "\(manifestPath): \(why); the manifest does not belong to this result: run again rather than report from it")
        }
        let runsPath = (directory as NSString).appendingPathComponent("runs.csv")
        guard try ContentHashes.file(runsPath) == runsHash else {
            throw MergeError(message: "\(runsPath): its SHA-256 is not the one manifest.json recorded; runs.csv was edited, truncated or replaced after the run; run again rather than report from it")
        }
        let results = try ResultFiles.readRuns(path: runsPath, configurations: spec.configurations.map(\.label),
                                               knownMetrics: Runner.metrics(for: spec))
        let labels = spec.configurations.map(\.label)
        if let problem = RunsCheck.problem(results, items: labels.isEmpty ? 0 : Int(runs) / labels.count) {
            throw MergeError(message: "\(runsPath): \(problem)")
        }
        let wakes = try WakesByHour.read(path: (directory as NSString).appendingPathComponent("wakes_by_hour.csv"),
                                         configurations: labels)
        let eventsPresent = FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("events.csv"))
        let stage = try StagedDirectory(target: directory, force: true)
        do {
            // Everything but the re-rendered files is kept (linked, so a large events.csv is not copied).
            let rendered: Set<String> = ["summary.csv", "comparison.csv", "efficiency.csv", "wakes_by_hour.csv",
                                         "freshness_vs_energy.svg", "wakes_by_hour.svg", "report.md"]
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for kept in entries.sorted() where !rendered.contains(kept) {
                let from = (directory as NSString).appendingPathComponent(kept)
                if link(from, stage.file(kept)) != 0 {
                    let reason = InputText.errnoText()
                    do { try FileManager.default.copyItem(atPath: from, toPath: stage.file(kept)) } catch {
                        throw OutputError(path: stage.file(kept), message: "cannot link or copy \(from) (\(reason))")
                    }
                }
            }
            try RunDirectory.writeFull(results: results, wakes: wakes, hasEvents: eventsPresent, spec: spec,
                                       specPath: specPath, producedBy: provenance, to: stage.path, writeRuns: false)
            try stage.commit()
        } catch {
            stage.abort()
            throw error
        }
    }
}
