import Device
import Foundation
import SimCore
import Traces
import XCTest

/// FCM delivery (Docs/Android.md, rules A13–A14) and the declared
/// parameters of the Android rules.
final class FCMAndParameterTests: XCTestCase {
    func at(_ h: Int64, _ m: Int64 = 0) -> SimTime { SimTime.zero + .hours(h) + .minutes(m) }
    let timeline = DozeTimeline(rules: DozeRules())

    func phase(_ t: SimTime) -> DozePhase { timeline.phase(quietSince: .zero, at: t) }
    func window(_ t: SimTime) -> SimTime { timeline.nextMaintenanceStart(quietSince: .zero, at: t) }

    /// Android 13+: no bucket caps; high priority goes through deep Doze,
    /// normal priority waits for the window (deep idle at 1 h 30: 2 h).
    func testAndroid13HighPriorityAlwaysNormalWaitsForWindow() {
        var fcm = FCMDelivery(rules: FCMRules())
        for k in 0..<20 {
            let t = at(1, 30) + .seconds(Int64(k))
            XCTAssertEqual(fcm.receive(.high, at: t, bucket: .rare, doze: phase(t), nextWindow: window(t)),
                           .deliverNow(asHighPriority: true))
        }
        XCTAssertEqual(fcm.receive(.normal, at: at(1, 30), bucket: .active, doze: phase(at(1, 30)),
                                   nextWindow: window(at(1, 30))), .deferred(window: at(2)))
        XCTAssertEqual(fcm.receive(.normal, at: at(2, 1), bucket: .active, doze: phase(at(2, 1)),
                                   nextWindow: window(at(2, 1))), .deliverNow(asHighPriority: false))
        let awake = DozePhase.awake(since: .zero)
        XCTAssertEqual(fcm.receive(.normal, at: at(5), bucket: .rare, doze: awake, nextWindow: at(5)),
                       .deliverNow(asHighPriority: false))
    }

    /// Android <= 12, rare (5 a day): the sixth high-priority message in
    /// 24 h is a normal one (deferred while dozing, at once while awake);
    /// a day after the first, high priority is back.
    func testAndroid12RareCap() {
        var fcm = FCMDelivery(rules: .upToAndroid12)
        let awake = DozePhase.awake(since: .zero)
        for k in 0..<5 {
            XCTAssertEqual(fcm.receive(.high, at: at(Int64(k)), bucket: .rare, doze: awake, nextWindow: at(Int64(k))),
                           .deliverNow(asHighPriority: true))
        }
        XCTAssertEqual(fcm.highPriorityCount(at: at(5)), 5)
        XCTAssertEqual(fcm.receive(.high, at: at(5), bucket: .rare, doze: awake, nextWindow: at(5)),
                       .deliverNow(asHighPriority: false))
        XCTAssertEqual(fcm.receive(.high, at: at(1, 30), bucket: .rare, doze: phase(at(1, 30)), nextWindow: window(at(1, 30))),
                       .deferred(window: at(2)))
        XCTAssertEqual(fcm.receive(.high, at: at(5), bucket: .workingSet, doze: awake, nextWindow: at(5)),
                       .deliverNow(asHighPriority: true), "working set is not capped")
        // Every high-priority delivery counts (the working-set one at 5 h
        // too): at 24 h the first has left the 24 h window but the cap is
        // still full; at 25 h the second has left too.
        XCTAssertEqual(fcm.receive(.high, at: at(24) + .seconds(1 as Int64), bucket: .rare, doze: awake,
                                   nextWindow: at(24)), .deliverNow(asHighPriority: false))
        XCTAssertEqual(fcm.receive(.high, at: at(25) + .seconds(1 as Int64), bucket: .rare, doze: awake,
                                   nextWindow: at(25)), .deliverNow(asHighPriority: true))
        XCTAssertEqual(FCMRules.upToAndroid12.dailyCap(for: .frequent), 10)
        XCTAssertNil(FCMRules().dailyCap(for: .rare))
    }

    /// Every declared leaf has a source and a range where it is a number,
    /// the defaults are in range, and a partial object keeps the other
    /// defaults; an unknown key is named.
    func testDeclarations() throws {
        func leaves(_ infos: [ParameterInfo]) -> [ParameterInfo] {
            infos.flatMap { $0.kind == .object ? leaves($0.children) : [$0] }
        }
        let all = leaves(Self.ruleSets)
        XCTAssertGreaterThan(all.count, 50)
        for p in all {
            XCTAssertFalse(p.source.isEmpty, p.key)
            if p.kind != .flag { XCTAssertNotNil(p.range, p.key) }
            if let v = p.defaultNumber, let r = p.range { XCTAssertTrue(r.contains(v), "\(p.key) default \(v) not in \(r)") }
        }
        var android12 = AndroidWorkRules()
        android12.quotaTable = .upToAndroid12
        XCTAssertNil(AndroidWorkRules().rangeProblem)
        XCTAssertNil(android12.rangeProblem)
        let json = Data(#"{"jobQuota": {"rareWindow": "12h"}, "dozeTimings": {"idleTimeout": "30m"}}"#.utf8)
        let p = try JSONDecoder().decode(AndroidWorkRules.self, from: json)
        XCTAssertEqual(p.jobQuota.rare.window, .hours(12))
        XCTAssertEqual(p.jobQuota.frequent.window, .hours(12))
        XCTAssertEqual(p.dozeTimings.idleTimeout, .minutes(30))
        XCTAssertEqual(p.standby, StandbyRules())
        let bad = Data(#"{"dozeTimings": {"idleTimeOut": "30m"}}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(AndroidWorkRules.self, from: bad)) { error in
            XCTAssertTrue(String(describing: error).contains("idleTimeOut"), "\(error)")
        }
        let round = try JSONDecoder().decode(AndroidWorkRules.self, from: JSONEncoder().encode(android12))
        XCTAssertEqual(round, android12)
    }

    /// The rule sets' objects under `device.android` (`standby`, `jobQuota`, `dozeTimings`, `fcm`).
    static let ruleSets = AndroidWorkRules.declarations.filter { $0.kind == .object }

    /// Docs/ExperimentSpec.md has a row for every leaf: `android.key` | default | range | source.
    func testDocumentedParameterTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("Docs/ExperimentSpec.md"), encoding: .utf8)
        let rows = Set(doc.split(separator: "\n").map(String.init))
        var missing: [String] = []
        let json = String(decoding: try JSONEncoder().encode(AndroidWorkRules()), as: UTF8.self)
        XCTAssertEqual(Self.ruleSets.map(\.key), ["standby", "jobQuota", "dozeTimings", "fcm"])
        for object in Self.ruleSets {
            for leaf in object.children {
                let value: String
                switch leaf.kind {
                case .duration: value = "`\"\(SimDuration.seconds(leaf.defaultNumber!).description)\"`"
                case .flag: value = json.contains("\"\(leaf.key)\":true") ? "true" : "false"
                default: value = ValueRange.show(leaf.defaultNumber!)
                }
                let row = "| `android.\(object.key).\(leaf.key)` | \(value) | \(leaf.range?.description ?? "true or false") | \(leaf.source) |"
                if !rows.contains(row) { missing.append(row) }
            }
        }
        XCTAssertTrue(missing.isEmpty, "Docs/ExperimentSpec.md lacks these rows:\n" + missing.joined(separator: "\n"))
    }
}
