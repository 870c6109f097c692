@testable import Device
import Foundation
@testable import Policies
import SimCore
import Traces
import TestSupport
import XCTest

/// What the OS tells a policy on Android (bucket, quota left, Doze) reaches
/// a decision process with the values a Swift policy reads from its
/// context (Docs/ExternalPolicyProtocol.md, "Android"), through the
/// reference Python client in delta mode and in whole-list mode; an iOS
/// device's messages carry none of it.
final class ExternalAndroidStateTests: XCTestCase {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/python")

    /// What a policy saw at one decision point: the time, Doze, and per
    /// pending request its id, bucket and quota left (µs). One line each,
    /// the same text from Swift and from Python.
    final class SeenLog: @unchecked Sendable {
        var lines: [String] = []
    }

    /// Records what its context says on Android, then lets `base` decide.
    struct Recording<Base: SchedulingPolicy>: SchedulingPolicy {
        var base: Base
        let log: SeenLog
        static var traits: PolicyTraits { Base.traits }
        var instanceTraits: PolicyTraits { base.instanceTraits }
        mutating func observe(_ o: PolicyObservation, context: PolicyContext) { base.observe(o, context: context) }
        mutating func decide(context c: PolicyContext) -> PolicyDecision {
            let pending = c.pending.map { r in
                "\(r.id.rawValue):\(c.standbyBucket(of: r.app).map(\.name) ?? "-"):\(c.quotaLeft(of: r.app).map { String($0.microseconds) } ?? "-")"
            }
            log.lines.append("\(c.now.microseconds) \(c.dozeDefersWork) \(pending.joined(separator: ","))")
            return base.decide(context: c)
        }
    }

    /// A decision process (the reference client) that writes the same
    /// line per `decide` to `out` and acts as greedy; it also writes the
    /// `start`'s platform first.
    func script(out: String, wholeList: Bool) -> String {
        """
        import sys
        sys.path.insert(0, '\(Self.python.path)')
        from bgbench_policy import Decision, Policy, serve
        out = open('\(out)', 'w')
        class Seen(Policy):
            def __init__(self, start):
                super().__init__(start)
                out.write(self.platform + '\\n')
            def decide(self, ctx):
                pending = ['%d:%s:%s' % (r['id'], r.get('bucket', '-'), r.get('quotaLeft', '-')) for r in ctx.pending]
                out.write('%d %s %s\\n' % (ctx.now, 'true' if ctx.doze_defers else 'false', ','.join(pending)))
                out.flush()
                return Decision(run_all_eligible=True, wake_at=ctx.next_earliest_begin())
        serve(Seen, pending_delta=\(wholeList ? "False" : "True"))
        """
    }

    /// Three days: app 2 used only on the first morning (its bucket falls),
    /// quiet nights off the charger (Doze), processing work without power.
    func world() -> (DeviceTrace, DeviceConfiguration) {
        func at(_ h: Double) -> SimTime { SimTime.zero + .seconds(h * 3600) }
        var sessions: [DeviceTrace.Session] = [.init(start: at(8), end: at(8.1), app: 2)]
        for d in 0..<3 {
            for h in stride(from: 9.0, to: 22.0, by: 2.5) {
                let s = at(Double(d) * 24 + h)
                sessions.append(.init(start: s, end: s + .seconds(120 as Int64), app: Int32(sessions.count % 2)))
            }
        }
        let trace = DeviceTrace(horizon: SimTime(day: 3), appNames: ["news", "mail", "social"], sessions: sessions,
                                charging: [.init(start: at(30), end: at(31))],
                                network: [.init(start: .zero, end: at(72), kind: .wifi)],
                                contentUpdates: (0..<3).map { a in stride(from: 0.5, to: 72.0, by: Double(a + 1)).map(at) })
        var config = DeviceConfiguration()
        config.platform = .android
        config.defaultApp.processingInterval = .hours(2)
        config.defaultApp.processingRequiresExternalPower = false
        return (trace, config)
    }

    func run(wholeList: Bool, platform: DevicePlatform = .android) throws -> (swift: [String], process: [String]) {
        try XCTSkipUnless(pythonIsOnPath, "python3 is not on PATH")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bgbench-android-state-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("seen.txt").path
        let made = try PolicyRegistry.standard.makeOwningResources(PolicyConfiguration(name: "external", params: [
            "command": .array([.string("python3"), .string("-c"), .string(script(out: out, wholeList: wholeList))])]))
        var (trace, config) = world()
        config.platform = platform
        let log = SeenLog()
        func simulate<P: SchedulingPolicy>(_ p: P) { _ = simulateDevice(trace: trace, configuration: config, policy: Recording(base: p, log: log), randomKey: 0xA05) }
        simulate(made.policy)
        for r in made.resources { r.shutDown() }
        XCTAssertNil(made.resources.first?.failure)
        let process = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        return (log.lines, process)
    }

    func testAProcessSeesWhatASwiftPolicySeesOnAndroid() throws {
        for wholeList in [false, true] {
            let (swift, process) = try run(wholeList: wholeList)
            XCTAssertEqual(process.first, "android")
            XCTAssertEqual(Array(process.dropFirst()), swift, "whole list: \(wholeList)")
            // The world shows the state change: else the comparison proves little.
            let fields = swift.flatMap { $0.split(separator: " ").dropFirst(2).first.map { $0.split(separator: ",") } ?? [] }
            let buckets = Set(fields.map { $0.split(separator: ":")[1] })
            XCTAssertGreaterThan(buckets.count, 1, "more than one bucket seen: \(buckets)")
            XCTAssertTrue(swift.contains { $0.split(separator: " ")[1] == "true" }, "Doze deferred work at some decision")
            let left = Set(fields.map { $0.split(separator: ":")[2] })
            XCTAssertGreaterThan(left.count, 2, "the quota left changes: \(left)")
        }
    }

    func testIOSMessagesCarryNoAndroidState() throws {
        let (swift, process) = try run(wholeList: true, platform: .ios)
        XCTAssertEqual(process.first, "ios", "no platform in an iOS start: the client's default")
        XCTAssertEqual(Array(process.dropFirst()), swift)
        XCTAssertFalse(swift.isEmpty)
        XCTAssertTrue(swift.allSatisfy { !$0.contains(" true ") && !$0.contains(":frequent") }, "no Doze, no bucket on iOS")
        XCTAssertTrue(process.dropFirst().allSatisfy { line in
            line.split(separator: " ").dropFirst(2).first.map { $0.split(separator: ",").allSatisfy { $0.hasSuffix(":-:-") } } ?? true
        })
    }
}
