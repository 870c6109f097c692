/// Derives the 64-bit key of one random stream from
/// (experiment seed, user index, stream name), with no shared state.
///
/// A user's randomness is a pure function of these three values, so user 7
/// sees the same world whether the population has 10 or 10 000 users,
/// whatever the thread count and whichever policy is simulated (common
/// random numbers). The mixing is SplitMix64's finaliser (Steele, Lea and
/// Flood, OOPSLA 2014) over the seed, the user index and the FNV-1a hash of
/// the name, applied in sequence so that swapping fields changes the key.
public enum StreamKey {
    /// The key of stream `name` of user `user` in the experiment seeded `seed`.
    public static func derive(seed: UInt64, user: UInt64, stream name: String) -> UInt64 {
        var h = mix(seed &+ 0x9E37_79B9_7F4A_7C15)
        h = mix(h ^ mix(user &+ 0xD1B5_4A32_D192_ED03))
        h = mix(h ^ fnv1a(name))
        return h
    }

    /// SplitMix64's output function: a bijection on 64-bit words with full avalanche.
    @inlinable
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `s`.
    public static func fnv1a(_ s: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in s.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator used only to
/// expand a 64-bit key into a larger generator's state.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return StreamKey.mix(state)
    }
}
