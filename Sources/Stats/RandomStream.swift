internal import CGSL

/// One independent, reproducible source of random numbers: GSL's MT19937
/// generator, owned by this object and freed in `deinit`.
///
/// Create one per (experiment seed, user index, stream name) with
/// ``init(seed:user:stream:)``; draw variates with the methods in
/// `RandomStream+Distributions.swift`. Code that needs randomness takes the
/// stream as an argument (`using rng: RandomStream`) rather than creating one,
/// so the caller decides which stream feeds what.
///
/// Seeding: `gsl_rng_set` uses only 32 bits of its seed, so a million streams
/// would share seeds by the birthday bound. Instead the whole 624-word state
/// is filled from SplitMix64 started at the 64-bit ``StreamKey``.
///
/// A stream is deliberately not `Sendable`: it is mutable C state and must
/// never be shared across threads. Each thread makes its own.
public final class RandomStream {
    /// The GSL generator. Internal: the C type never leaks out of `Stats`.
    let rng: UnsafeMutablePointer<gsl_rng>

    /// The 64-bit key this stream was seeded from.
    public let key: UInt64

    /// A stream seeded from a 64-bit key.
    public init(key: UInt64) {
        GSL.prepare()
        guard let rng = gsl_rng_alloc(cgsl_rng_mt19937()) else {
            fatalError("gsl_rng_alloc failed: out of memory")
        }
        precondition(gsl_rng_size(rng) == cgsl_mt19937_state_size(),
                     "GSL's MT19937 state layout differs from the shim's copy")
        self.rng = rng
        self.key = key
        var expander = SplitMix64(seed: key)
        var words = [UInt32](repeating: 0, count: 624)
        for i in 0..<624 { words[i] = UInt32(truncatingIfNeeded: expander.next() >> 32) }
        // An all-zero state would be a fixed point; 624 zero words from
        // SplitMix64 cannot happen, but guard the invariant anyway.
        if words.allSatisfy({ $0 == 0 }) { words[0] = 0x8000_0000 }
        words.withUnsafeBufferPointer { cgsl_mt19937_set_state(rng, $0.baseAddress!) }
    }

    /// The stream `name` of user `user` in the experiment seeded `seed`.
    public convenience init(seed: UInt64, user: Int, stream name: String) {
        self.init(key: StreamKey.derive(seed: seed, user: UInt64(truncatingIfNeeded: user), stream: name))
    }

    deinit { gsl_rng_free(rng) }
}

extension RandomStream: RandomNumberGenerator {
    /// 64 random bits from two 32-bit MT19937 outputs, so a stream also
    /// serves Swift's `shuffled(using:)`, `randomElement(using:)`, ...
    public func next() -> UInt64 {
        let hi = UInt64(gsl_rng_get(rng)) & 0xFFFF_FFFF
        let lo = UInt64(gsl_rng_get(rng)) & 0xFFFF_FFFF
        return hi << 32 | lo
    }
}
