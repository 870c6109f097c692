import Foundation
import Traces

/// Background wakes by hour of day, totalled over all runs of each
/// configuration (`wakes_by_hour.csv`). Totals are integers, so shards add
/// up exactly; the per-user-day rate is derived when the file is written.
public struct WakesByHour: Sendable, Equatable {
    public let configurations: [String]
    /// `totals[c][h]`: wakes of configuration c in hour h (0–23), all runs.
    public private(set) var totals: [[Int]]

    public init(configurations: [String]) {
        self.configurations = configurations
        totals = Array(repeating: Array(repeating: 0, count: 24), count: configurations.count)
    }

    public mutating func add(configuration c: Int, _ hours: [Int]) {
        for h in 0..<24 { totals[c][h] += hours[h] }
    }

    public mutating func add(_ other: WakesByHour) {
        for c in totals.indices { add(configuration: c, other.totals[c]) }
    }

    public static let columns = ["configuration", "hour", "wakes", "wakes_per_user_day"]

    /// The CSV; `userDays[c]` is the simulated user-days of configuration c.
    public func csv(userDays: [Double]) -> String {
        var out = CSV.line(Self.columns)
        for (c, label) in configurations.enumerated() {
            for h in 0..<24 {
                out += CSV.line([label, String(h), String(totals[c][h]),
                                 CSV.number(Double(totals[c][h]) / userDays[c])])
            }
        }
        return out
    }

    /// Reads the totals back (the rate column is recomputed, not read).
    public static func read(path: String, configurations: [String]) throws(InputFileError) -> WakesByHour {
        let text = try InputText.read(path)
        var w = WakesByHour(configurations: configurations)
        let index = Dictionary(uniqueKeysWithValues: configurations.enumerated().map { ($1, $0) })
        for (n, line) in text.split(separator: "\n").enumerated() {
            guard let f = CSV.split(line), f.count == columns.count else {
                throw InputFileError(file: path, line: n + 1, message: "expected \(columns.count) fields")
            }
            if n == 0 {
                guard f == columns else { throw InputFileError(file: path, line: 1, message: "expected the header \(columns.joined(separator: ","))") }
                continue
            }
            guard let c = index[f[0]], let h = DecimalText.wholeNumber(f[1]), (0..<24).contains(h), let total = DecimalText.wholeNumber(f[2]), total >= 0 else {
                throw InputFileError(file: path, line: n + 1, message: "expected a known configuration, an hour 0–23 and a whole number of wakes")
            }
            w.totals[c][h] += total
        }
        return w
    }

    /// Simulated user-days of each configuration: the sum of the `days`
    /// column over its runs (in row order, so the sum is deterministic).
    static func userDays(_ results: ResultSet) -> [Double] {
        guard let m = results.metricIndex("days") else { return Array(repeating: .nan, count: results.configurations.count) }
        return results.rowsByConfiguration().map { rows in rows.reduce(0) { $0 + results.value(row: $1, metric: m) } }
    }
}
