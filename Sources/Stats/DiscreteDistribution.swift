internal import CGSL

/// A weighted choice among `0..<count` outcomes in O(1) per draw (Walker's
/// alias method, `gsl_ran_discrete`). Weights need not sum to one.
///
/// The lookup table is built once and only read afterwards, so one table may
/// be shared across threads; each thread draws with its own ``RandomStream``.
public final class DiscreteDistribution: @unchecked Sendable {
    private let table: UnsafeMutablePointer<gsl_ran_discrete_t>

    /// Normalised probabilities of each outcome.
    public let probabilities: [Double]

    /// Why a set of weights cannot make a distribution.
    public enum WeightsError: Error, Equatable, CustomStringConvertible {
        case empty
        case invalidWeight(index: Int, value: Double)
        case allZero
        public var description: String {
            switch self {
            case .empty: "a discrete distribution needs at least one weight"
            case let .invalidWeight(i, v): "weight \(i) is \(v); weights must be finite and >= 0"
            case .allZero: "all weights are zero; at least one must be positive"
            }
        }
    }

    public init(weights: [Double]) throws {
        GSL.prepare()
        guard !weights.isEmpty else { throw WeightsError.empty }
        if let i = weights.firstIndex(where: { !$0.isFinite || $0 < 0 }) {
            throw WeightsError.invalidWeight(index: i, value: weights[i])
        }
        let total = weights.reduce(0, +)
        guard total > 0 else { throw WeightsError.allZero }
        guard let table = weights.withUnsafeBufferPointer({
            gsl_ran_discrete_preproc($0.count, $0.baseAddress)
        }) else {
            throw GSLError(status: Int32(GSL_ENOMEM), operation: "gsl_ran_discrete_preproc")
        }
        self.table = table
        self.probabilities = weights.map { $0 / total }
    }

    public var count: Int { probabilities.count }

    /// One outcome index, drawn with `rng`.
    public func sample(using rng: RandomStream) -> Int {
        Int(gsl_ran_discrete(rng.rng, table))
    }

    deinit { gsl_ran_discrete_free(table) }
}
