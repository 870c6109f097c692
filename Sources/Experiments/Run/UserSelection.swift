/// A set of user ids, written as ranges and single ids separated by commas
/// (`0-9`, `3,17,42`, `0-9,100-109`): the users whose events `--events-users`
/// logs. Ids are those of the `user` column of the outputs (a trace set's
/// own ids; 0, 1, 2, ... for a generated population).
public struct UserSelection: Sendable, Equatable, CustomStringConvertible {
    /// Disjoint, sorted, non-adjacent ranges.
    public let ranges: [ClosedRange<Int>]

    /// nil unless `text` is a non-empty comma-separated list of `A` or
    /// `A-B` (0 <= A <= B, whole decimal numbers).
    public init?(parsing text: String) {
        var parts: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count),
                  let a = Self.id(ends[0]), let b = ends.count == 2 ? Self.id(ends[1]) : a, a <= b else { return nil }
            parts.append(a...b)
        }
        guard !parts.isEmpty else { return nil }
        var merged: [ClosedRange<Int>] = []
        for r in parts.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        ranges = merged
    }

    private static func id(_ s: Substring) -> Int? {
        guard (1...18).contains(s.utf8.count), s.utf8.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
        return Int(s)
    }

    public func contains(_ user: Int) -> Bool {
        ranges.contains { $0.contains(user) }
    }

    /// The canonical spelling (sorted, overlaps merged): what shard.json records.
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
    }
}
