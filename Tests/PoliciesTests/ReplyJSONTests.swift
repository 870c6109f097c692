import Device
import Foundation
import SimCore
import XCTest
@testable import Policies

/// The fast path of reply reading (``ReplyJSON``, ``ExternalFastReplies``):
/// it reads JSON as RFC 8259 says, and on every reply it accepts it gives
/// exactly what the slow path (JSONSerialization and the checks that name
/// errors) gives; what it refuses, the slow path reads or names.
final class ReplyJSONTests: XCTestCase {
    func testParsesTheGrammarAndRefusesWhatIsNotJSON() {
        XCTAssertEqual(ReplyJSON.parse(Array(#" {"a":[1,-2,0,true,false,null,"x\"\u00e9\ud83d\ude00\n"],"b":{},"c":[]} "#.utf8)),
                       .object(["a": .array([.int(1), .int(-2), .int(0), .bool(true), .bool(false), .null, .string("x\"é😀\n")]),
                                "b": .object([:]), "c": .array([])]))
        XCTAssertEqual(ReplyJSON.parse(Array("1.5".utf8)), .number)
        XCTAssertEqual(ReplyJSON.parse(Array("1e3".utf8)), .number)
        XCTAssertEqual(ReplyJSON.parse(Array("9223372036854775807".utf8)), .int(.max))
        XCTAssertEqual(ReplyJSON.parse(Array("-9223372036854775808".utf8)), .int(.min))
        XCTAssertEqual(ReplyJSON.parse(Array("9223372036854775808".utf8)), .number, "beyond Int64: not a whole µs")
        for bad in ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"a", "\"\\x\"", "\"\u{01}\"", "{1:2}", "[1] 2",
                    "\"\\ud83d\"", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)] {
            XCTAssertNil(ReplyJSON.parse(Array(bad.utf8)), bad)
        }
        XCTAssertNil(ReplyJSON.parse([0x22, 0xFF, 0x22]), "invalid UTF-8")
    }

    let pending = [3, 7].map {
        TaskRequest(id: RequestID(UInt32($0)), app: Int32($0 % 2), identifier: 0, kind: .appRefresh,
                    earliestBegin: SimTime(microseconds: 0), submittedAt: SimTime(microseconds: 0))
    }

    /// The slow path's answer, or nil when it throws.
    func slowDecision(_ line: String) -> PolicyDecision? {
        try? ExternalSession.decision(ExternalReply.object(Array(line.utf8)), pending: pending, now: SimTime(microseconds: 0))
    }

    func slowPlans(_ line: String) -> ExternalPlans.Reply? {
        try? ExternalPlans.parse(ExternalReply.object(Array(line.utf8)), asked: pending, apps: 2)
    }

    func testDecisionsReadFastAreTheSlowPathsAndTheRestFallBack() {
        let accepted = [
            #"{"type":"decision","run":[7,3],"runAllEligible":true,"wakeAt":31200000000}"#,
            #"{ "wakeAt" : null , "type" : "decision" , "extra" : {"x":[1,{"y":"\u0041"}]} }"#,
            #"{"type":"decision"}"#, #"{"type":"decision","run":null,"runAllEligible":null}"#,
            #"{"type":"decision","run":[],"runAllEligible":false,"wakeAt":-5}"#,
        ]
        for line in accepted {
            let fast = ExternalFastReplies.decision(Array(line.utf8), pending: pending)
            XCTAssertNotNil(fast, line)
            XCTAssertEqual(fast, slowDecision(line), line)
        }
        let fallBack = [
            #"{"type":"decision","run":[4]}"#, #"{"type":"decision","run":[3.0]}"#, #"{"type":"decision","run":"3"}"#,
            #"{"type":"decision","runAllEligible":1}"#, #"{"type":"decision","wakeAt":"soon"}"#,
            #"{"type":"decision","wakeAt":1.5}"#, #"{"type":"plans"}"#, #"{"type":"error","message":"x"}"#, "[1]", "nonsense",
        ]
        for line in fallBack {
            XCTAssertNil(ExternalFastReplies.decision(Array(line.utf8), pending: pending), line)
        }
    }

    func testPlansAndRulesReadFastAreTheSlowPathsAndTheRestFallBack() {
        let accepted = [
            #"{"type":"plans","plans":[{"id":3,"runFrom":0,"wakeAt":5},{"id":7,"runFrom":null}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":-300000000,"wakeAt":null},{"id":7,"runFrom":0,"wakeAt":0}],"rules":[{"runFrom":0,"wakeAt":0},{"app":1,"kind":"processing","runFrom":null},{"kind":"fetch","app":null,"runFrom":9,"wakeAt":10}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":null}"#,
        ]
        for line in accepted {
            let fast = ExternalFastReplies.plans(Array(line.utf8), asked: pending, apps: 2)
            XCTAssertNotNil(fast, line)
            XCTAssertEqual(fast, slowPlans(line), line)
        }
        let fallBack = [
            #"{"type":"plans","plans":[{"id":3,"runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":7,"runFrom":0},{"id":3,"runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":3},{"id":7,"runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0,"wakeAt":"soon"},{"id":7,"runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":[{"app":2,"runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":[{"kind":"push","runFrom":0}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":[{"wakeAt":0}]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":[7]}"#,
            #"{"type":"plans","plans":[{"id":3,"runFrom":0},{"id":7,"runFrom":0}],"rules":{}}"#,
            #"{"type":"decision"}"#,
        ]
        for line in fallBack {
            XCTAssertNil(ExternalFastReplies.plans(Array(line.utf8), asked: pending, apps: 2), line)
        }
    }
}
