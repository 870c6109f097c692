import Foundation
import Stats
import Traces

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
    /// appearance unless `configurations` fixes them; every metric column
    /// must be one of `knownMetrics` (a misspelt or foreign column is an
    /// error naming it, never a metric with no unit). Read line by line
    /// (``LineReader``: the one line-length limit); numbers strictly
    /// (``CSV/parseNumber(_:)``).
    public static func readRuns(path: String, configurations: [String]? = nil,
                                knownMetrics: [MetricDescriptor]) throws(InputFileError) -> ResultSet {
        do {
            return try readRuns(LineReader(path: path), configurations: configurations, knownMetrics: knownMetrics)
        } catch let e as TraceFormatError {
            throw InputFileError(file: path, line: e.line == 0 ? nil : e.line, message: e.message)
        } catch let e as InputFileError {
            throw e
        } catch {
            throw InputFileError(file: path, line: nil, message: "\(error)")
        }
    }

    private static func readRuns(_ reader: LineReader, configurations: [String]?,
                                 knownMetrics: [MetricDescriptor]) throws -> ResultSet {
        let path = reader.name
        guard let headerLine = try reader.nextString(), let header = CSV.split(Substring(headerLine)),
              Array(header.prefix(3)) == runsKeyColumns
        else {
            throw InputFileError(file: path, line: 1, message: "expected a header starting with \(runsKeyColumns.joined(separator: ","))")
        }
        let metricNames = Array(header.dropFirst(3))
        var metrics: [MetricDescriptor] = []
        for (j, name) in metricNames.enumerated() {
            guard let known = knownMetrics.first(where: { $0.name == name }) else {
                throw InputFileError(file: path, line: 1, message: "column \(j + 4) \"\(name)\" is not a metric bgbench writes; expected \(knownMetrics.map(\.name).joined(separator: ", "))")
            }
            guard !metrics.contains(where: { $0.name == name }) else {
                throw InputFileError(file: path, line: 1, message: "column \(j + 4) \"\(name)\" appears twice")
            }
            metrics.append(known)
        }
        var labels = configurations ?? []
        var labelIndex = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        var keys: [RunKey] = []
        var values: [Double] = []
        while let line = try reader.nextString() {
            let n = reader.line
            guard let f = CSV.split(Substring(line)), f.count == header.count else {
                throw InputFileError(file: path, line: n, message: "expected \(header.count) fields")
            }
            guard let rep = DecimalText.wholeNumber(f[1]), let user = DecimalText.wholeNumber(f[2]) else {
                throw InputFileError(file: path, line: n, message: "replication and user must be whole numbers")
            }
            let c: Int
            if let i = labelIndex[f[0]] { c = i } else {
                guard configurations == nil else {
                    throw InputFileError(file: path, line: n, message: "unknown configuration \"\(f[0])\"")
                }
                c = labels.count
                labels.append(f[0])
                labelIndex[f[0]] = c
            }
            for (j, s) in f.dropFirst(3).enumerated() {
                guard let v = CSV.parseNumber(Substring(s)) else {
                    throw InputFileError(file: path, line: n, message: "column \(metricNames[j]): \"\(s)\" is not a number")
                }
                values.append(v)
            }
            keys.append(RunKey(configuration: c, replication: rep, user: user))
        }
        return ResultSet(configurations: labels, metrics: metrics, keys: keys, values: values)
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
