import Device
import Foundation
import SimCore
import XCTest

/// The radio model against its closed forms (Huang et al. LTE parameters).
final class RadioEnergyTests: XCTestCase {
    let lte = RadioParameters.lte
    let bytes = 100_000.0

    var activeSeconds: Double { bytes * 8 / (lte.downlinkMbps * 1e6) }
    var activeJoules: Double { (lte.betaWatts + lte.alphaDownWattsPerMbps * lte.downlinkMbps) * activeSeconds }

    func radio() -> RadioModel {
        var r = RadioModel(parameters: EnergyParameters(wifi: .wifi, cellular: .lte))
        r.networkChanged(to: .cellular, at: .zero)
        return r
    }

    func testIsolatedTransfersEachPayPromotionTransferAndFullTail() {
        var r = radio()
        let k = 5
        for i in 0..<k {
            _ = r.backgroundTransfer(at: SimTime(microseconds: Int64(i) * 60_000_000 + 1),
                                     bytesUp: 0, bytesDown: bytes, latency: .zero)
        }
        r.finish()
        let e = r.energy
        XCTAssertEqual(e.promotion, Double(k) * lte.promotionJoules, accuracy: 1e-9)
        XCTAssertEqual(e.active, Double(k) * activeJoules, accuracy: 1e-9)
        XCTAssertEqual(e.tail, Double(k) * lte.tailJoules, accuracy: 1e-4)
        XCTAssertEqual(e.total, Double(k) * (lte.promotionJoules + activeJoules + lte.tailJoules), accuracy: 1e-4)
        XCTAssertEqual(r.promotions, k)
    }

    func testTransfersInsideOneTailShareOnePromotionAndOneTail() {
        var r = radio()
        let k = 5
        let spacing = 2.0 // seconds between transfer starts, well inside the 11.576 s tail
        var ends: [SimTime] = []
        var starts: [SimTime] = []
        for i in 0..<k {
            let t = SimTime(microseconds: 1 + Int64(Double(i) * spacing * 1e6))
            starts.append(t)
            ends.append(r.backgroundTransfer(at: t, bytesUp: 0, bytesDown: bytes, latency: .zero).end)
        }
        r.finish()
        // Gaps: from each transfer's end to the next one's start, at tail power.
        var gaps = 0.0
        for i in 1..<k { gaps += (starts[i] - ends[i - 1]).seconds }
        let e = r.energy
        XCTAssertEqual(e.promotion, lte.promotionJoules, accuracy: 1e-9)
        XCTAssertEqual(e.active, Double(k) * activeJoules, accuracy: 1e-9)
        XCTAssertEqual(e.tail, lte.tailJoules + gaps * lte.tailWatts, accuracy: 1e-4)
        XCTAssertEqual(r.promotions, 1)
    }

    func testTransferRightAfterForegroundRidesItsTail() {
        var r = radio()
        r.foreground(from: .zero, to: SimTime.zero + .seconds(60 as Int64))
        let t = SimTime.zero + .seconds(62 as Int64)
        let end = r.backgroundTransfer(at: t, bytesUp: 0, bytesDown: bytes, latency: .zero).end
        r.finish()
        XCTAssertEqual(r.energy.promotion, 0)
        // Only the tail beyond the foreground's own tail (which ran to 60 s + tail) is charged.
        let extra = (end - (SimTime.zero + .seconds(60 as Int64))).seconds
        XCTAssertEqual(r.energy.tail, extra * lte.tailWatts, accuracy: 1e-4)
    }
}

/// Background transfers during a foreground session (fix-device: β was
/// charged twice, once by the foreground and once by the transfer).
final class ForegroundRadioTests: XCTestCase {
    let lte = RadioParameters.lte
    func radio() -> RadioModel {
        var r = RadioModel(parameters: EnergyParameters(wifi: .wifi, cellular: .lte))
        r.networkChanged(to: .cellular, at: .zero)
        return r
    }

    /// During a foreground session the radio is already active and the
    /// foreground pays β: a background transfer costs only its α terms
    /// (no promotion, no β, no tail).
    func testTransferDuringSessionCostsOnlyAlphaTerms() {
        var r = radio()
        r.foreground(from: .zero, to: .zero + .seconds(60 as Int64))
        let up = 20_000.0, down = 100_000.0
        let upS = up * 8 / (lte.uplinkMbps * 1e6), downS = down * 8 / (lte.downlinkMbps * 1e6)
        let t = r.backgroundTransfer(at: .zero + .seconds(10 as Int64), bytesUp: up, bytesDown: down,
                                     latency: .milliseconds(200))
        XCTAssertEqual(t.ledger.promotion, 0)
        XCTAssertEqual(t.ledger.active, lte.alphaUpWattsPerMbps * lte.uplinkMbps * upS
                       + lte.alphaDownWattsPerMbps * lte.downlinkMbps * downS, accuracy: 1e-12)
        r.finish()
        XCTAssertEqual(r.energy.tail, 0)
        XCTAssertEqual(r.promotions, 0)
    }

    /// A transfer that outlasts the session pays β only for the part after it.
    func testTransferOutlastingSessionPaysBetaAfterIt() {
        var r = radio()
        let end = SimTime.zero + .seconds(60 as Int64)
        r.foreground(from: .zero, to: end)
        let down = 1_000_000.0
        let downS = down * 8 / (lte.downlinkMbps * 1e6)
        let start = end - .milliseconds(100)
        let t = r.backgroundTransfer(at: start, bytesUp: 0, bytesDown: down, latency: .zero)
        let beyond = (t.end - end).seconds
        XCTAssertEqual(beyond, downS - 0.1, accuracy: 1e-6)
        XCTAssertEqual(t.ledger.active, lte.betaWatts * beyond + lte.alphaDownWattsPerMbps * lte.downlinkMbps * downS,
                       accuracy: 1e-5)
        XCTAssertEqual(t.ledger.promotion, 0)
    }

    /// Cut halfway through (an expiration), a transfer inside the session
    /// keeps half its α energy and never paid β.
    func testCutTransferDuringSessionRefundsAlphaShare() {
        var r = radio()
        r.foreground(from: .zero, to: .zero + .seconds(60 as Int64))
        let down = 1_000_000.0
        let downS = down * 8 / (lte.downlinkMbps * 1e6)
        let start = SimTime.zero + .seconds(10 as Int64)
        let t = r.backgroundTransfer(at: start, bytesUp: 0, bytesDown: down, latency: .zero)
        let mid = start + SimDuration(microseconds: (t.end - start).microseconds / 2)
        _ = r.cutLastTransfer(at: mid)
        XCTAssertEqual(r.energy.active, lte.alphaDownWattsPerMbps * lte.downlinkMbps * downS / 2, accuracy: 1e-6)
    }
}


/// The JSON parameter sets equal the compiled defaults.
final class EnergyParameterFileTests: XCTestCase {
    func datasets() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Datasets/energy")
    }

    func testJSONFilesEqualCompiledDefaults() throws {
        let dec = JSONDecoder()
        let lte = try dec.decode(RadioParameters.self, from: Data(contentsOf: datasets().appendingPathComponent("lte.json")))
        XCTAssertEqual(lte, .lte)
        let wifi = try dec.decode(RadioParameters.self, from: Data(contentsOf: datasets().appendingPathComponent("wifi.json")))
        XCTAssertEqual(wifi, .wifi)
        let all = try dec.decode(EnergyParameters.self, from: Data(contentsOf: datasets().appendingPathComponent("default.json")))
        XCTAssertEqual(all, .default)
    }

    func testConfigurationDecodesWithDefaultsAndRejectsUnknownKeys() throws {
        let json = #"{"refreshBudget": "10s", "defaultApp": {"forgetProbability": 0.5}}"#
        let c = try JSONDecoder().decode(DeviceConfiguration.self, from: Data(json.utf8))
        XCTAssertEqual(c.refreshBudget, .seconds(10 as Int64))
        XCTAssertEqual(c.defaultApp.forgetProbability, 0.5)
        XCTAssertEqual(c.processingBudget, DeviceConfiguration().processingBudget)
        let bad = #"{"defaultApp": {"forgetProbabilty": 0.5}}"#
        XCTAssertThrowsError(try JSONDecoder().decode(DeviceConfiguration.self, from: Data(bad.utf8))) { error in
            XCTAssertTrue("\(error)".contains("forgetProbabilty"))
        }
        let round = try JSONDecoder().decode(DeviceConfiguration.self, from: JSONEncoder().encode(c))
        XCTAssertEqual(round, c)
    }
}
