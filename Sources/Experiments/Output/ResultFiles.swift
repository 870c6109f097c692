import Foundation
import Stats

/// The CSV files of a run directory, column by column. Units and meanings
/// are documented in `Docs/Outputs.md`; the per-user metric columns come
/// from the device model's metric list.
public enum ResultFiles {
    public static let runsKeyColumns = ["configuration", "replication", "user"]

    /// `runs.csv`: one row per configuration × replication × user.
    public static func runsCSV(_ results: ResultSet) -> String {
        var out = ""
        emitRuns(results) { out += $0 }
        return out
    }

    /// Writes `runs.csv` without holding it in memory (large sweeps) and
    /// returns the SHA-256 of its bytes (recorded in the manifest).
    public static func writeRuns(_ results: ResultSet, to path: String) throws(OutputError) -> String {
        var hash = SHA256()
        try OutputFile.stream(to: path) { emit in
            emitRuns(results) { line in
                hash.update(line)
                emit(line)
            }
        }
        return hash.hexDigest
    }

    /// The text of `runs.csv`, one line per call of `emit`.
    static func emitRuns(_ results: ResultSet, _ emit: (String) -> Void) {
        emit(CSV.line(runsKeyColumns + results.metrics.map(\.name)))
        let labels = results.configurations.map(CSV.field)
        var line = ""
        for r in 0..<results.rowCount {
            let k = results.keys[r]
            line.removeAll(keepingCapacity: true)
            line += labels[k.configuration]
            line += ",\(k.replication),\(k.user)"
            for v in results.row(r) {
                line += ","
                line += CSV.number(v)
            }
            line += "\n"
            emit(line)
        }
    }

    /// Reads `runs.csv` back. Configuration labels are taken in order of first
    /// appearance unless `configurations` fixes them; metric descriptors are
    /// looked up by name in `knownMetrics` (unknown names get an empty unit).
    public static func readRuns(path: String, configurations: [String]? = nil,
                                knownMetrics: [MetricDescriptor]) throws(InputFileError) -> ResultSet {
        let text = try InputText.read(path)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let headerLine = lines.first, let header = CSV.split(headerLine),
              Array(header.prefix(3)) == runsKeyColumns
        else {
            throw InputFileError(file: path, line: 1, message: "expected a header starting with \(runsKeyColumns.joined(separator: ","))")
        }
        let metricNames = Array(header.dropFirst(3))
        let metrics = metricNames.map { name in
            knownMetrics.first { $0.name == name } ?? MetricDescriptor(name: name, unit: "", description: "")
        }
        var labels = configurations ?? []
        var labelIndex = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        var rows: [(RunKey, [Double])] = []
        for (n, line) in lines.enumerated().dropFirst() {
            guard let f = CSV.split(line), f.count == header.count else {
                throw InputFileError(file: path, line: n + 1, message: "expected \(header.count) fields")
            }
            guard let rep = Int(f[1]), let user = Int(f[2]) else {
                throw InputFileError(file: path, line: n + 1, message: "replication and user must be whole numbers")
            }
            let c: Int
            if let i = labelIndex[f[0]] { c = i } else {
                guard configurations == nil else {
                    throw InputFileError(file: path, line: n + 1, message: "unknown configuration \"\(f[0])\"")
                }
                c = labels.count
                labels.append(f[0])
                labelIndex[f[0]] = c
            }
            var values: [Double] = []
            values.reserveCapacity(metrics.count)
            for (j, s) in f.dropFirst(3).enumerated() {
                guard let v = CSV.parseNumber(Substring(s)) else {
                    throw InputFileError(file: path, line: n + 1, message: "column \(metricNames[j]): \"\(s)\" is not a number")
                }
                values.append(v)
            }
            rows.append((RunKey(configuration: c, replication: rep, user: user), values))
        }
        var set = ResultSet(configurations: labels, metrics: metrics)
        for (k, v) in rows { set.append(k, v) }
        return set
    }

    public static let summaryColumns = ["configuration", "metric", "unit", "n", "excluded", "mean", "sd",
                                        "ci95_low", "ci95_high", "median", "p95"]

    /// `summary.csv`: per configuration and metric, statistics across runs.
    public static func summaryCSV(_ rows: [SummaryRow]) -> String {
        var out = CSV.line(summaryColumns)
        for r in rows {
            let s = r.summary
            out += CSV.line([r.configuration, r.metric.name, r.metric.unit, String(s.n), String(s.excluded)]
                + [s.mean, s.sd, s.ciLow, s.ciHigh, s.median, s.p95].map(CSV.number))
        }
        return out
    }

    public static let comparisonColumns = ["configuration", "baseline", "metric", "unit", "n_pairs",
                                           "mean_difference", "ci95_low", "ci95_high", "p_value"]

    /// `comparison.csv`: each configuration minus the baseline, paired.
    public static func comparisonCSV(_ rows: [ComparisonRow]) -> String {
        var out = CSV.line(comparisonColumns)
        for r in rows {
            let c = r.comparison
            out += CSV.line([r.configuration, r.baseline, r.metric.name, r.metric.unit, String(c.n)]
                + [c.meanDifference, c.ciLow, c.ciHigh, c.pValue].map(CSV.number))
        }
        return out
    }
}

/// A problem in an input file (trace CSV, runs.csv of a shard, ...), naming
/// the file and, where there is one, the line.
public struct InputFileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
