import Device
import Foundation
import SimCore
import XCTest
@testable import Policies
import Traces

/// The fast path of reply reading (``ExternalFastReplies``, over
/// ``JSONParser``): on every reply it accepts it gives exactly what the
/// slow path (JSONSerialization and the checks that name errors) gives;
/// what it refuses, the slow path reads or names.
final class ExternalFastRepliesTests: XCTestCase {
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
            #"{"type":"decision","run":[3.0],"wakeAt":1e3}"#,
        ]
        for line in accepted {
            let fast = ExternalFastReplies.decision(Array(line.utf8), pending: pending)
            XCTAssertNotNil(fast, line)
            XCTAssertEqual(fast, slowDecision(line), line)
        }
        let fallBack = [
            #"{"type":"decision","run":[4]}"#, #"{"type":"decision","run":"3"}"#, #"{"type":"decision","wakeAt":9007199254740993}"#,
            #"{"type":"decision","type":"decision"}"#,
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
