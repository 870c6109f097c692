import XCTest
@testable import Stats

final class RandomStreamTests: XCTestCase {
    func testSameKeyGivesSameSequence() {
        let a = RandomStream(seed: 42, user: 7, stream: "usage")
        let b = RandomStream(seed: 42, user: 7, stream: "usage")
        for _ in 0..<1000 { XCTAssertEqual(a.next(), b.next()) }
    }

    func testStreamsDifferBySeedUserAndName() {
        func first(_ r: RandomStream) -> [UInt64] { (0..<8).map { _ in r.next() } }
        let s = first(RandomStream(seed: 42, user: 7, stream: "usage"))
        XCTAssertNotEqual(s, first(RandomStream(seed: 43, user: 7, stream: "usage")))
        XCTAssertNotEqual(s, first(RandomStream(seed: 42, user: 8, stream: "usage")))
        XCTAssertNotEqual(s, first(RandomStream(seed: 42, user: 7, stream: "power")))
        // Swapping seed and user must not give the same stream.
        XCTAssertNotEqual(StreamKey.derive(seed: 1, user: 2, stream: "x"),
                          StreamKey.derive(seed: 2, user: 1, stream: "x"))
    }

    /// The derivation uses no shared state: creating other streams in between,
    /// in any order, does not change a stream.
    func testStreamDoesNotDependOnOtherStreams() {
        let alone = RandomStream(seed: 3, user: 5, stream: "net")
        let expected = (0..<16).map { _ in alone.uniform() }
        var others: [RandomStream] = []
        for u in 0..<50 { others.append(RandomStream(seed: 3, user: u, stream: "net")) }
        for o in others { _ = o.uniform() }
        let again = RandomStream(seed: 3, user: 5, stream: "net")
        XCTAssertEqual((0..<16).map { _ in again.uniform() }, expected)
    }

    /// Keys of 200 000 streams are all distinct (32-bit seeding would collide
    /// with probability ≈ 99 %; 64-bit keys essentially never).
    func testKeysDoNotCollide() {
        var keys = Set<UInt64>()
        for u in 0..<50_000 {
            for name in ["usage", "power", "network", "content"] {
                keys.insert(StreamKey.derive(seed: 1, user: UInt64(u), stream: name))
            }
        }
        XCTAssertEqual(keys.count, 200_000)
    }

    /// Neighbouring users' streams are uncorrelated: Pearson r of 20 000 paired
    /// uniforms is within 4/√n of 0.
    func testAdjacentStreamsAreUncorrelated() {
        let a = RandomStream(seed: 1, user: 0, stream: "s")
        let b = RandomStream(seed: 1, user: 1, stream: "s")
        let n = 20_000
        var sxy = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0
        for _ in 0..<n {
            let x = a.uniform(), y = b.uniform()
            sx += x; sy += y; sxy += x * y; sxx += x * x; syy += y * y
        }
        let dn = Double(n)
        let r = (sxy - sx * sy / dn) / ((sxx - sx * sx / dn) * (syy - sy * sy / dn)).squareRoot()
        XCTAssertLessThan(abs(r), 4 / dn.squareRoot())
    }

    func testIntegerBelowStaysInRange() {
        let r = RandomStream(key: 99)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let v = r.integer(below: 7)
            XCTAssertTrue((0..<7).contains(v))
            seen.insert(v)
        }
        XCTAssertEqual(seen.count, 7)
    }
}
