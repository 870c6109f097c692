import Foundation

/// Writes a run's result files into its output directory, each atomically
/// (``AtomicFile``): a reader sees every file whole or not at all, and a
/// failed or interrupted run leaves no half-written file.
///
/// A full run writes `runs.csv`, `summary.csv`, `comparison.csv`, `efficiency.csv`,
/// `wakes_by_hour.csv`, `report.md`, `freshness_vs_energy.svg`,
/// `wakes_by_hour.svg`, `manifest.json` and, when asked, `events.csv`. A
/// shard writes its `runs.csv`, `wakes_by_hour.csv` (and `events.csv`), then
/// `shard.json` last, as the completion marker that `merge` and
/// `Benchmarks/slurm/resubmit.sh` look for.
public enum RunDirectory {
    /// Everything of a full (unsharded or merged) result except the manifest.
    public static func writeFull(results: ResultSet, wakes: WakesByHour, events: String?, spec: ExperimentSpec,
                                 specPath: String, producedBy provenance: RunProvenance, to directory: String,
                                 eventsPresent: Bool? = nil) throws(OutputError) {
        try AtomicFile.makeDirectory(directory)
        let sorted = results.sorted()
        let summaries = Aggregation.summaries(sorted)
        let comparisons = Aggregation.comparisons(sorted, baseline: spec.baseline)
        let efficiency = Aggregation.efficiency(sorted, baseline: spec.baseline, seed: spec.seed)
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        try ResultFiles.writeRuns(sorted, to: path("runs.csv"))
        try AtomicFile.write(ResultFiles.summaryCSV(summaries), to: path("summary.csv"))
        try AtomicFile.write(ResultFiles.comparisonCSV(comparisons), to: path("comparison.csv"))
        try AtomicFile.write(ResultFiles.efficiencyCSV(efficiency), to: path("efficiency.csv"))
        if let events { try AtomicFile.write(events, to: path("events.csv")) }
        let userDays = WakesByHour.userDays(sorted)
        try AtomicFile.write(wakes.csv(userDays: userDays), to: path("wakes_by_hour.csv"))
        let report = ReportWriter(spec: spec, specPath: specPath, provenance: provenance, results: sorted,
                                  summaries: summaries, comparisons: comparisons, efficiency: efficiency)
        try AtomicFile.write(report.freshnessEnergySVG(), to: path("freshness_vs_energy.svg"))
        try AtomicFile.write(report.wakesByHourSVG(wakes, userDays: userDays), to: path("wakes_by_hour.svg"))
        try AtomicFile.write(report.markdown(hasEvents: eventsPresent ?? (events != nil)), to: path("report.md"))
    }

    /// `manifest.json`: version, toolchain, the executable and policy
    /// registry that produced it, the spec as written, seed, threads, shard
    /// and wall time. The one output that differs between runs of the same
    /// spec (wall time, threads), so it is written apart.
    public static func writeManifest(spec: ExperimentSpec, specPath: String, producedBy provenance: RunProvenance,
                                     threads: Int, shards: [Shard],
                                     wallSeconds: Double, runs: Int, to directory: String) throws(OutputError) {
        let manifest = JSONValue.object([
            ("tool", .string("bgbench")),
            ("version", .string(BGBenchVersion.current)),
            ("toolchain", .string(BGBenchVersion.toolchain)),
        ] + provenance.jsonFields + [
            ("spec_path", .string(specPath)),
            ("seed", .number(Double(spec.seed))),
            ("threads", .number(Double(threads))),
            ("shards", .array(shards.map { .string($0.description) })),
            ("runs", .number(Double(runs))),
            ("wall_seconds", .number((wallSeconds * 1000).rounded() / 1000)),
            ("spec", spec.source),
        ])
        try AtomicFile.write(manifest.serialized(pretty: true) + "\n",
                             to: (directory as NSString).appendingPathComponent("manifest.json"))
    }

    /// A shard's partial result, with `shard.json` written last.
    static func writeShard(results: ResultSet, wakes: WakesByHour, events: String?, marker: ShardMarker,
                           to directory: String) throws(OutputError) {
        try AtomicFile.makeDirectory(directory)
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let sorted = results.sorted()
        try ResultFiles.writeRuns(sorted, to: path("runs.csv"))
        try AtomicFile.write(wakes.csv(userDays: WakesByHour.userDays(sorted)), to: path("wakes_by_hour.csv"))
        if let events { try AtomicFile.write(events, to: path("events.csv")) }
        try AtomicFile.write(marker.json().serialized(pretty: true) + "\n", to: path("shard.json"))
    }
}
