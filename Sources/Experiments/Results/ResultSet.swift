/// One per-user metric as it appears in `runs.csv`: its column name, unit and meaning.
public struct MetricDescriptor: Sendable, Equatable {
    public let name: String
    public let unit: String
    public let description: String
}

/// Identifies one simulation run: a configuration (policy with its
/// parameters), one replication (an independent world) and one user.
/// Rows are ordered by configuration, then replication, then user, in every
/// output, whichever thread or shard produced them.
public struct RunKey: Hashable, Comparable, Sendable {
    public let configuration: Int
    public let replication: Int
    public let user: Int

    public static func < (a: RunKey, b: RunKey) -> Bool {
        (a.configuration, a.replication, a.user) < (b.configuration, b.replication, b.user)
    }
}

/// The per-run results of an experiment (or of one shard of it): one row of
/// metric values per run, in the order of `metrics`.
public struct ResultSet: Sendable {
    /// Configuration labels, indexed by `RunKey.configuration`.
    public var configurations: [String]
    public var metrics: [MetricDescriptor]
    public private(set) var keys: [RunKey] = []
    /// Row-major values: row r is `values[r*metrics.count ..< (r+1)*metrics.count]`.
    public private(set) var values: [Double] = []

    public init(configurations: [String], metrics: [MetricDescriptor]) {
        self.configurations = configurations
        self.metrics = metrics
    }

    /// A table built elsewhere: `values` row-major, one row per key.
    init(configurations: [String], metrics: [MetricDescriptor], keys: [RunKey], values: [Double]) {
        precondition(values.count == keys.count * metrics.count, "values do not match keys × metrics")
        self.configurations = configurations
        self.metrics = metrics
        self.keys = keys
        self.values = values
    }

    public var rowCount: Int { keys.count }

    public mutating func append(_ key: RunKey, _ row: [Double]) {
        precondition(row.count == metrics.count, "row has \(row.count) values, expected \(metrics.count)")
        keys.append(key)
        values.append(contentsOf: row)
    }

    public func row(_ r: Int) -> ArraySlice<Double> {
        values[r * metrics.count ..< (r + 1) * metrics.count]
    }

    /// Rows sorted by key (configuration, replication, user).
    public func sorted() -> ResultSet {
        if zip(keys, keys.dropFirst()).allSatisfy({ $0.0 < $0.1 }) { return self }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var out = ResultSet(configurations: configurations, metrics: metrics)
        out.keys.reserveCapacity(keys.count)
        out.values.reserveCapacity(values.count)
        for r in order { out.append(keys[r], Array(row(r))) }
        return out
    }

    /// Row indices of each configuration, in row order: one pass over the rows.
    public func rowsByConfiguration() -> [[Int]] {
        var out = [[Int]](repeating: [], count: configurations.count)
        for r in keys.indices { out[keys[r].configuration].append(r) }
        return out
    }

    public func value(row r: Int, metric m: Int) -> Double { values[r * metrics.count + m] }

    public func metricIndex(_ name: String) -> Int? { metrics.firstIndex { $0.name == name } }
}
