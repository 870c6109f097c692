/// The freshness-versus-energy Pareto frontier: the configurations that no
/// other configuration beats on both axes (at most as much energy and at
/// least as fresh, strictly better on one).
public enum ParetoFrontier {
    public struct Point: Sendable, Equatable {
        public let label: String
        /// Cost axis (lower is better), e.g. background joules per user-day.
        public let cost: Double
        /// Benefit axis (higher is better), e.g. fresh-launch ratio.
        public let benefit: Double
    }

    /// Indices of the non-dominated points, ordered by increasing cost.
    /// Points with a non-finite coordinate are never on the frontier.
    /// - Complexity: O(n log n).
    public static func frontier(_ points: [Point]) -> [Int] {
        let order = points.indices
            .filter { points[$0].cost.isFinite && points[$0].benefit.isFinite }
            .sorted { (points[$0].cost, -points[$0].benefit, $0) < (points[$1].cost, -points[$1].benefit, $1) }
        var out: [Int] = []
        var best = -Double.infinity
        for i in order where points[i].benefit > best {
            out.append(i)
            best = points[i].benefit
        }
        return out
    }
}
