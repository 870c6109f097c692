/// One output column (`runs.csv`, `apps.csv`): its name, unit and
/// description (Docs/Outputs.md) and how its value is read from `Root`.
public struct MetricColumn<Root>: Sendable {
    public let name: String
    public let unit: String
    public let description: String
    public let value: @Sendable (Root) -> Double

    public init(name: String, unit: String, description: String, value: @escaping @Sendable (Root) -> Double) {
        self.name = name; self.unit = unit; self.description = description; self.value = value
    }

    /// The same column read from the part of `Outer` at `part` (a group's
    /// columns placed among its owner's).
    public func lifted<Outer>(_ part: KeyPath<Outer, Root> & Sendable) -> MetricColumn<Outer> {
        let value = self.value
        return MetricColumn<Outer>(name: name, unit: unit, description: description) { value($0[keyPath: part]) }
    }

    /// The same column read from an optional part of `Outer`; NaN where the
    /// part is absent (an Android column on an iOS device's row).
    public func lifted<Outer>(_ part: KeyPath<Outer, Root?> & Sendable) -> MetricColumn<Outer> {
        let value = self.value
        return MetricColumn<Outer>(name: name, unit: unit, description: description) {
            $0[keyPath: part].map(value) ?? .nan
        }
    }
}

/// A group of metrics: its counters (`Count`) and its sums (`Sum`, joules
/// or seconds), stored by ``MetricCounters``. Each output column is one
/// line of its table (`.count`, `.sum`, `.mean` below, naming the counter
/// or sum it reads), so adding a metric is a case plus its column line.
public protocol MetricGroup: Sendable {
    associatedtype Count: RawRepresentable, CaseIterable, Sendable where Count.RawValue == Int
    associatedtype Sum: RawRepresentable, CaseIterable, Sendable where Sum.RawValue == Int
}

/// The stored values of a ``MetricGroup``: one whole count per `Count`
/// case, one real sum per `Sum` case, all zero at the start.
public struct MetricCounters<Group: MetricGroup>: Sendable, Hashable {
    private var counts = [Int](repeating: 0, count: Group.Count.allCases.count)
    private var sums = [Double](repeating: 0, count: Group.Sum.allCases.count)

    public init() {}

    public subscript(count: Group.Count) -> Int {
        get { counts[count.rawValue] }
        set { counts[count.rawValue] = newValue }
    }

    public subscript(sum: Group.Sum) -> Double {
        get { sums[sum.rawValue] }
        set { sums[sum.rawValue] = newValue }
    }

    /// `sum` divided by the total of `per`; NaN when that total is 0
    /// ("undefined", as every ratio of `UserMetrics`).
    public func mean(_ sum: Group.Sum, per: [Group.Count]) -> Double {
        let n = per.reduce(0) { $0 + self[$1] }
        return n > 0 ? self[sum] / Double(n) : .nan
    }
}

extension MetricColumn {
    /// A count of the group at `group`, unit "count".
    public static func count<G>(_ group: KeyPath<Root, MetricCounters<G>> & Sendable, _ key: G.Count,
                                _ name: String, _ description: String) -> MetricColumn {
        MetricColumn(name: name, unit: "count", description: description) { Double($0[keyPath: group][key]) }
    }

    /// A sum of the group at `group`, in `unit`.
    public static func sum<G>(_ group: KeyPath<Root, MetricCounters<G>> & Sendable, _ key: G.Sum,
                              _ name: String, unit: String, _ description: String) -> MetricColumn {
        MetricColumn(name: name, unit: unit, description: description) { $0[keyPath: group][key] }
    }

    /// A sum of the group at `group` per the total of the counts `per`
    /// (NaN when that is 0), in `unit`.
    public static func mean<G>(_ group: KeyPath<Root, MetricCounters<G>> & Sendable, _ key: G.Sum, per: [G.Count],
                               _ name: String, unit: String, _ description: String) -> MetricColumn {
        MetricColumn(name: name, unit: unit, description: description) { $0[keyPath: group].mean(key, per: per) }
    }

    /// A whole number stored at `path`, unit "count".
    public static func count(_ path: KeyPath<Root, Int> & Sendable, _ name: String, _ description: String) -> MetricColumn {
        MetricColumn(name: name, unit: "count", description: description) { Double($0[keyPath: path]) }
    }

    /// A number stored at `path`, in `unit`.
    public static func value(_ path: KeyPath<Root, Double> & Sendable, _ name: String, unit: String,
                             _ description: String) -> MetricColumn {
        MetricColumn(name: name, unit: unit, description: description) { $0[keyPath: path] }
    }
}
