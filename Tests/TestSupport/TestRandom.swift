import Foundation
import SimCore

/// The one random generator of the tests: SplitMix64 (Steele, Lea and Flood
/// 2014), small, seeded and well mixed, so every randomized case replays
/// from its seed. Independent of the simulator's own streams (`Stats`,
/// `DeviceRandom`), so a test's inputs do not move when those change.
public struct TestRandom {
    public var state: UInt64

    /// Starts one SplitMix64 step after `seed`: the hand-made traces of the
    /// Device and Policies tests were tuned with generators that did, and
    /// keep their draws.
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// The next 64 random bits.
    public mutating func bits() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    public mutating func next() -> Double { Double(bits() >> 11) * 0x1.0p-53 }

    /// Uniform in 0..<bound (0 for a bound of 0 or 1; modulo bias negligible
    /// for the small bounds tests use).
    public mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(bits() % UInt64(bound)) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { next() < p }

    /// One of `items` (not empty), uniformly.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Exponential with the given rate (per microsecond).
    public mutating func exponential(ratePerMicro: Double) -> Double { -Foundation.log(1 - next()) / ratePerMicro }

    /// The times of a Poisson process with `perHour` events an hour in
    /// [from, horizon), increasing (accumulated in Double, truncated to µs).
    public mutating func poisson(perHour: Double, from: SimTime = .zero, horizon: SimTime) -> [SimTime] {
        var out: [SimTime] = []
        var t = Double(from.microseconds)
        while true {
            t += exponential(ratePerMicro: perHour / 3.6e9)
            if t >= Double(horizon.microseconds) { return out }
            out.append(SimTime(microseconds: Int64(t)))
        }
    }
}
