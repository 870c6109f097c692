/// The completeness check of a result table, run by `merge` on the joined
/// shards and by `report` on a `runs.csv` before anything is rendered: every
/// (configuration, replication, user) appears exactly once, every
/// configuration has the same (replication, user) pairs, and there are
/// `items` of them — so a duplicated, missing or foreign row is an error,
/// never a silently different report.
public enum RunsCheck {
    /// nil when complete; otherwise what is wrong, for the user.
    public static func problem(_ results: ResultSet, items: Int) -> String? {
        let sorted = results.sorted()
        let keys = sorted.keys
        for (a, b) in zip(keys, keys.dropFirst()) where a == b {
            return "configuration \"\(sorted.configurations[a.configuration])\", replication \(a.replication), user \(a.user) appears more than once"
        }
        let rows = sorted.rowsByConfiguration()
        for (c, r) in rows.enumerated() where r.count != items {
            return "configuration \"\(sorted.configurations[c])\" has \(r.count) runs, the spec needs \(items) (a row is missing or extra)"
        }
        guard let first = rows.first else { return nil }
        for (c, r) in rows.enumerated().dropFirst() {
            for (i, j) in zip(first, r) {
                let a = keys[i], b = keys[j]
                if a.replication != b.replication || a.user != b.user {
                    return "configuration \"\(sorted.configurations[c])\" has replication \(b.replication), user \(b.user) where \"\(sorted.configurations[0])\" has replication \(a.replication), user \(a.user): the configurations do not cover the same users"
                }
            }
        }
        return nil
    }
}
