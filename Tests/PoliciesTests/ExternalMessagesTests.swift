import Traces
import Device
import Foundation
import SimCore
import XCTest
@testable import Policies

/// The messages of Docs/ExternalPolicyProtocol.md are valid JSON with the
/// documented fields and values.
final class ExternalMessagesTests: XCTestCase {
    let request = TaskRequest(id: RequestID(12), app: 2, identifier: 0, kind: .appRefresh,
                              earliestBegin: SimTime(microseconds: 5_000_000), requiresNetworkConnectivity: true,
                              submittedAt: SimTime(microseconds: 1_000_000))

    func parse(_ line: String) throws -> [String: Any] {
        XCTAssertFalse(line.contains("\n"), "one message, one line")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func testDecideCarriesTheContextAndEligibility() throws {
        let context = PolicyContext(now: SimTime(microseconds: 2_000_000),
                                    device: DeviceState(batteryPercent: 81.5, network: .cellular),
                                    pending: [request], appCount: 3, lastSessionEnd: SimTime(microseconds: 500),
                                    backgroundJoules: 4.25)
        let observation = ExternalMessages.observation(.submitted(request), context)
        var full: [RequestID]? = nil
        let m = try parse(ExternalMessages.decide(context, reason: .stateChanged, observations: observation, sent: &full))
        XCTAssertEqual(m["type"] as? String, "decide")
        XCTAssertEqual(m["reason"] as? String, "stateChanged")
        XCTAssertEqual(m["now"] as? Int, 2_000_000)
        XCTAssertTrue(m["radioUpUntil"] is NSNull)
        XCTAssertEqual(m["lastSessionEnd"] as? Int, 500)
        XCTAssertEqual(m["backgroundJoules"] as? Double, 4.25)
        XCTAssertEqual(m["refreshBudget"] as? Int, 30_000_000)
        let device = try XCTUnwrap(m["device"] as? [String: Any])
        XCTAssertEqual(device["batteryPercent"] as? Double, 81.5)
        XCTAssertEqual(device["network"] as? String, "cellular")
        XCTAssertTrue(device["foregroundApp"] is NSNull)
        let pending = try XCTUnwrap(m["pending"] as? [[String: Any]])
        XCTAssertEqual(pending.count, 1)
        XCTAssertEqual(pending[0]["id"] as? Int, 12)
        XCTAssertEqual(pending[0]["kind"] as? String, "refresh")
        XCTAssertEqual(pending[0]["eligible"] as? Bool, false)
        XCTAssertEqual(pending[0]["refusal"] as? String, "before_earliest_begin")
        let observations = try XCTUnwrap(m["observations"] as? [[String: Any]])
        XCTAssertEqual(observations.first?["kind"] as? String, "submitted")
        XCTAssertEqual((observations.first?["request"] as? [String: Any])?["earliestBegin"] as? Int, 5_000_000)
        XCTAssertNil((observations.first?["request"] as? [String: Any])?["eligible"], "eligibility only in pending")
    }

    /// The reason is read from the observations at the decision point's
    /// time, a session start first (it also turns the screen on and may
    /// expire a processing task), and `start` for a device's first.
    func testDecideReasonFollowsTheObservationsAtItsTime() {
        func reason(first: Bool = false, _ observations: [PolicyObservation]) -> String {
            var seen = DecideReason.Seen()
            for o in observations { seen.insert(o) }
            return DecideReason(first: first, seen: seen).rawValue
        }
        let report = TaskReport(request: request, start: .zero, end: .zero, outcome: .expired)
        XCTAssertEqual(reason(first: true, [.launch(app: 1)]), "start")
        XCTAssertEqual(reason([.stateChanged(.screenOn), .taskFinished(report), .launch(app: 1)]), "sessionStart")
        XCTAssertEqual(reason([.stateChanged(.screenOff), .sessionEnded(app: 1), .submitted(request)]), "sessionEnd")
        XCTAssertEqual(reason([.taskFinished(report), .stateChanged(.networkChanged)]), "stateChanged")
        XCTAssertEqual(reason([.taskFinished(report), .submitted(request)]), "taskFinished")
        XCTAssertEqual(reason([]), "wake")
        XCTAssertEqual(reason([.refused(request.id, .screenOn)]), "wake")
    }

    /// Delta mode: applying each message's `pendingRemoved` and
    /// `pendingAdded` to the previous list (as the reference client does)
    /// gives the pending list in order, also when a request went back to the
    /// end of the list (then the whole list is sent again); `eligible` and
    /// `refusals` give every request's eligibility.
    func testPendingDeltaRebuildsThePendingListInOrder() throws {
        func r(_ id: UInt32, earliest: Int64 = 0, power: Bool = false) -> TaskRequest {
            TaskRequest(id: RequestID(id), app: Int32(id % 3), identifier: 0, kind: .appRefresh,
                        earliestBegin: SimTime(microseconds: earliest), requiresExternalPower: power, submittedAt: .zero)
        }
        var sent: [RequestID]? = []
        var held: [Int] = []
        let lists: [[TaskRequest]] = [[r(1), r(2, earliest: 9_000_000), r(3, power: true)], [r(2, earliest: 9_000_000), r(3, power: true), r(4)],
                                      [r(3, power: true), r(2, earliest: 9_000_000)], [], [r(5)]]
        for pending in lists {
            let context = PolicyContext(now: SimTime(microseconds: 1_000_000), device: DeviceState(), pending: pending, appCount: 3)
            let m = try parse(ExternalMessages.decide(context, reason: .wake, observations: "", sent: &sent))
            XCTAssertNil(m["pending"], "no whole list in delta mode")
            let removed = Set(try XCTUnwrap(m["pendingRemoved"] as? [Int]))
            held.removeAll { removed.contains($0) }
            held += try XCTUnwrap(m["pendingAdded"] as? [[String: Any]]).map { $0["id"] as! Int }
            XCTAssertEqual(held, pending.map { Int($0.id.rawValue) })
            let eligible = try XCTUnwrap(m["eligible"] as? [Int])
            let refusals = try XCTUnwrap(m["refusals"] as? [String: String])
            for q in pending {
                let why = context.refusal(for: q)
                XCTAssertEqual(eligible.contains(Int(q.id.rawValue)), why == nil)
                if let why, why != .beforeEarliestBegin { XCTAssertEqual(refusals[String(q.id.rawValue)], why.name) }
                else { XCTAssertNil(refusals[String(q.id.rawValue)]) }
            }
        }
    }

    /// On iOS the Android fields are absent: the messages are those of
    /// before the Android platform, byte for byte.
    func testIOSMessagesHaveNoAndroidFields() throws {
        let context = PolicyContext(now: SimTime(microseconds: 2_000_000), device: DeviceState(), pending: [request], appCount: 3)
        var full: [RequestID]? = nil, delta: [RequestID]? = []
        let whole = ExternalMessages.decide(context, reason: .wake, observations: "", sent: &full)
        XCTAssertEqual(whole, #"{"type":"decide","now":2000000,"reason":"wake","observations":[],"device":{"batteryPercent":100.0,"charging":false,"lowPowerMode":false,"network":"wifi","screenOn":false,"foregroundApp":null},"pending":[{"id":12,"app":2,"identifier":0,"kind":"refresh","earliestBegin":5000000,"submittedAt":1000000,"requiresExternalPower":false,"requiresNetworkConnectivity":true,"eligible":false,"refusal":"before_earliest_begin"}],"radioUpUntil":null,"lastSessionEnd":null,"backgroundJoules":0.0,"refreshBudget":30000000}"#)
        let changes = ExternalMessages.decide(context, reason: .wake, observations: "", sent: &delta)
        XCTAssertTrue(changes.hasSuffix(#""refusals":{},"radioUpUntil":null,"lastSessionEnd":null,"backgroundJoules":0.0,"refreshBudget":30000000}"#), changes)
        let start = ExternalMessages.start(device: nil, appCount: 3, params: [:])
        XCTAssertEqual(start, #"{"type":"start","device":null,"apps":3,"params":{}}"#)
        XCTAssertEqual(ExternalMessages.start(device: nil, appCount: 3, params: [:], platform: .android),
                       #"{"type":"start","device":null,"apps":3,"params":{},"platform":"android"}"#)
    }

    func testStartEscapesStringsAndSortsParams() throws {
        let line = ExternalMessages.start(device: SimulatedDevice(configuration: "a \"quoted\"\nlabel", replication: 1, user: 7),
                                          appCount: 7, params: ["z": .number(1), "a": .array([.string("x"), .bool(true)])])
        let m = try parse(line)
        XCTAssertEqual((m["device"] as? [String: Any])?["configuration"] as? String, "a \"quoted\"\nlabel")
        XCTAssertEqual((m["device"] as? [String: Any])?["user"] as? Int, 7)
        XCTAssertEqual(m["apps"] as? Int, 7)
        XCTAssertTrue(line.contains(#""params":{"a":["x",true],"z":1}"#), line)
    }

    func testEveryObservationKindIsNamed() throws {
        let context = PolicyContext(now: .zero, device: DeviceState())
        let cases: [(PolicyObservation, String)] = [
            (.launch(app: 1), "launch"), (.sessionEnded(app: 1), "sessionEnded"), (.submitted(request), "submitted"),
            (.stateChanged(.lowPowerModeOn), "stateChanged"),
            (.refused(RequestID(3), .screenOn), "refused"),
        ]
        for (o, kind) in cases {
            let m = try parse(ExternalMessages.observation(o, context))
            XCTAssertEqual(m["kind"] as? String, kind)
        }
        // (taskFinished: testTaskFinishedCarriesBytesAndNetwork.)
        XCTAssertEqual(ExternalMessages.number(.infinity), "null", "JSON has no infinity")
        XCTAssertEqual(try parse(ExternalMessages.observation(.stateChanged(.lowPowerModeOn), context))["change"] as? String, "lowPowerModeOn")
        XCTAssertEqual(try parse(ExternalMessages.observation(.refused(RequestID(3), .screenOn), context))["reason"] as? String, "screen_on")
    }

    /// The report of a finished task carries its bytes and network (the
    /// TaskReport fields of the app behaviours), and they read back as written.
    func testTaskFinishedCarriesBytesAndNetwork() throws {
        let context = PolicyContext(now: SimTime(microseconds: 9_000_000), device: DeviceState(network: .wifi))
        let report = TaskReport(request: request, start: SimTime(microseconds: 6_000_000), end: SimTime(microseconds: 8_000_000),
                                outcome: .expired, fetchResult: .failed, energyJoules: 1.5,
                                bytesUp: 1234.5, bytesDown: 0.1 + 0.2, network: .cellular)
        let m = try parse(ExternalMessages.observation(.taskFinished(report), context))
        XCTAssertEqual(m["kind"] as? String, "taskFinished")
        let r = try XCTUnwrap(m["report"] as? [String: Any])
        XCTAssertEqual(r["outcome"] as? String, "expired")
        XCTAssertEqual(r["fetchResult"] as? String, "failed")
        XCTAssertEqual(r["energyJoules"] as? Double, 1.5)
        XCTAssertEqual(r["bytesUp"] as? Double, 1234.5)
        // Shortest round-trip form: the same Double back (Foundation's reader on Linux
        // is not exact in the last digit, so the text is checked).
        let line = ExternalMessages.observation(.taskFinished(report), context)
        XCTAssertTrue(line.contains(#""bytesDown":\#(0.1 + 0.2),"#), line)
        XCTAssertEqual(Double("\(0.1 + 0.2)"), 0.1 + 0.2)
        XCTAssertEqual(r["network"] as? String, "cellular")
        XCTAssertEqual((r["request"] as? [String: Any])?["id"] as? Int, 12)
        // A task that moved nothing: zeros and "offline".
        let none = TaskReport(request: request, start: .zero, end: .zero, outcome: .failed)
        let n = try XCTUnwrap(try parse(ExternalMessages.observation(.taskFinished(none), context))["report"] as? [String: Any])
        XCTAssertEqual(n["bytesUp"] as? Double, 0)
        XCTAssertEqual(n["bytesDown"] as? Double, 0)
        XCTAssertEqual(n["network"] as? String, "offline")
    }

    /// One JSON string writer for the messages and the Experiments JSON
    /// writer: control characters, quotes, backslashes and non-ASCII.
    func testStringsAreEscapedForJSON() throws {
        let s = "a\"b\\c\n\r\t\u{01}\u{1f}é✓"
        XCTAssertEqual(JSONText.quote(s), #""a\"b\\c\n\r\t\u0001\u001fé✓""#)
        XCTAssertEqual(ExternalMessages.string(s), JSONText.quote(s))
        let back = try JSONSerialization.jsonObject(with: Data(JSONText.quote(s).utf8), options: .fragmentsAllowed) as? String
        XCTAssertEqual(back, s)
    }

    func testDecisionReplyIsChecked() throws {
        let pending = [request]
        let ok = try ExternalSession.decision(["type": "decision", "run": [12], "runAllEligible": true, "wakeAt": 99],
                                              pending: pending, now: .zero)
        XCTAssertEqual(ok, PolicyDecision(run: [RequestID(12)], runAllEligible: true, wakeAt: SimTime(microseconds: 99)))
        XCTAssertEqual(try ExternalSession.decision(["type": "decision"], pending: pending, now: .zero), .none)
        for (bad, fragment) in [
            (["type": "decison"] as [String: Any], "instead of \"decision\""),
            (["type": "decision", "run": 12], "expected an array of request ids"),
            (["type": "decision", "run": [1.5]], "expected request ids"),
            (["type": "decision", "run": [13]], "request 13, which is not pending (pending: 12)"),
            (["type": "decision", "runAllEligible": "yes"], "expected true or false"),
            (["type": "decision", "wakeAt": "soon"], "expected whole microseconds"),
        ] {
            XCTAssertThrowsError(try ExternalSession.decision(bad, pending: pending, now: .zero)) { e in
                XCTAssertTrue((e as? ExternalReply.Invalid)?.problem.contains(fragment) == true, "\(bad): \(e)")
            }
        }
    }
}
