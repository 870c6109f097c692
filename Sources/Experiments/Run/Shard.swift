/// A deterministic slice of an experiment's work: shard `index` of `count`
/// takes the contiguous block of work items [index·N/count, (index+1)·N/count),
/// where the N items are (replication, user) pairs in order. Every
/// configuration of an item runs in the same shard, so paired comparisons
/// never straddle shards, and the union of all shards is the whole run.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public static let whole = Shard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 0 && index < count)
        self.index = index
        self.count = count
    }

    /// Parses `i/n` with 0 <= i < n (Slurm's `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        self.init(index: i, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The items of this shard out of `total`.
    public func items(of total: Int) -> Range<Int> {
        (index * total / count) ..< ((index + 1) * total / count)
    }
}
