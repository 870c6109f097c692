import Foundation
import Traces

/// Writes a run's result files into a staging directory (``StagedDirectory``
/// makes them appear together, or not at all).
///
/// A full run writes `runs.csv`, `summary.csv`, `comparison.csv`, `efficiency.csv`,
/// `wakes_by_hour.csv`, `report.md`, `freshness_vs_energy.svg`,
/// `wakes_by_hour.svg`, `manifest.json` and, when asked, `events.csv`. A
/// shard writes its `runs.csv`, `wakes_by_hour.csv` (and `events.csv`), then
/// `shard.json`, the completion marker that `merge` and
/// `Benchmarks/slurm/resubmit.sh` look for.
public enum RunDirectory {
    /// Everything of a full (unsharded or merged) result except the manifest
    /// and `events.csv` (written by the caller, streamed). Returns the
    /// SHA-256 of the `runs.csv` written. `writeRuns: false` keeps an
    /// existing `runs.csv` (``ExperimentCommands/report(directory:)``).
    @discardableResult
    public static func writeFull(results: ResultSet, wakes: WakesByHour, hasEvents: Bool, spec: ExperimentSpec,
                                 specPath: String, producedBy provenance: RunProvenance, to directory: String,
                                 writeRuns: Bool = true) throws(OutputError) -> String? {
        let sorted = results.sorted()
        let summaries = Aggregation.summaries(sorted)
        let comparisons = Aggregation.comparisons(sorted, baseline: spec.baseline)
        let efficiency = Aggregation.efficiency(sorted, baseline: spec.baseline, seed: spec.seed)
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let runsHash = writeRuns ? try ResultFiles.writeRuns(sorted, to: path("runs.csv")) : nil
        try OutputFile.write(ResultFiles.summaryCSV(summaries), to: path("summary.csv"))
        try OutputFile.write(ResultFiles.comparisonCSV(comparisons), to: path("comparison.csv"))
        try OutputFile.write(ResultFiles.efficiencyCSV(efficiency), to: path("efficiency.csv"))
        let userDays = WakesByHour.userDays(sorted)
        try OutputFile.write(wakes.csv(userDays: userDays), to: path("wakes_by_hour.csv"))
        let report = ReportWriter(spec: spec, specPath: specPath, provenance: provenance, results: sorted,
                                  summaries: summaries, comparisons: comparisons, efficiency: efficiency)
        try OutputFile.write(report.freshnessEnergySVG(), to: path("freshness_vs_energy.svg"))
        try OutputFile.write(report.wakesByHourSVG(wakes, userDays: userDays), to: path("wakes_by_hour.svg"))
        try OutputFile.write(report.markdown(hasEvents: hasEvents), to: path("report.md"))
        return runsHash
    }

    /// `manifest.json`: version, toolchain, the executable and policy
    /// registry that produced it, the spec as written, seed, threads, shard,
    /// the run's cost (wall and CPU time, simulated events, peak memory)
    /// and the content hashes that `report` and `merge` verify. The one
    /// output that differs between runs of the same spec (cost, threads),
    /// so it is written apart, and nothing hashes it.
    public static func writeManifest(spec: ExperimentSpec, specPath: String, producedBy provenance: RunProvenance,
                                     threads: Int, shards: [Shard],
                                     cost: RunCost, runs: Int, hashes: ContentHashes,
                                     to directory: String,
                                     decisionProcesses: DecisionProcessProvenance? = nil) throws(OutputError) {
        var fields: [(key: String, value: JSONValue)] = [
            ("tool", .string("bgbench")),
            ("version", .string(BGBenchVersion.current)),
            ("toolchain", .string(BGBenchVersion.toolchain)),
        ]
        fields += provenance.jsonFields
        fields += [
            ("spec_path", .string(specPath)),
            ("seed", .number(Double(spec.seed))),
            ("threads", .number(Double(threads))),
            ("shards", .array(shards.map { .string($0.description) })),
            ("runs", .number(Double(runs))),
        ]
        fields += cost.jsonFields
        fields.append(("hashes", hashes.json()))
        if let decisionProcesses { fields.append(("decision_processes", decisionProcesses.json())) }
        fields.append(("spec", spec.source))
        let manifest = JSONValue.object(fields)
        try OutputFile.write(manifest.serialized(pretty: true) + "\n",
                             to: (directory as NSString).appendingPathComponent("manifest.json"))
    }

    /// A shard's partial result, with `shard.json` written last. `streamed`:
    /// the digests of the files already written (events.csv, apps.csv);
    /// the marker lists those of runs.csv and wakes_by_hour.csv before them.
    static func writeShard(results: ResultSet, wakes: WakesByHour, marker: ShardMarker,
                           streamed: [(name: String, digest: FileDigest)] = [],
                           to directory: String) throws(OutputError) {
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let sorted = results.sorted()
        var marker = marker
        marker.hashes.runs = try ResultFiles.writeRuns(sorted, to: path("runs.csv"))
        let wakesText = wakes.csv(userDays: WakesByHour.userDays(sorted))
        try OutputFile.write(wakesText, to: path("wakes_by_hour.csv"))
        var wakesDigest = FileDigester()
        wakesDigest.add(wakesText)
        marker.files = [("runs.csv", FileDigest(rows: sorted.rowCount, sha256: marker.hashes.runs)),
                        ("wakes_by_hour.csv", wakesDigest.digest)] + streamed
        try OutputFile.write(marker.json().serialized(pretty: true) + "\n", to: path("shard.json"))
    }
}
