@testable import Experiments
import XCTest

/// The headroom section compares the bound with the learning policies only:
/// a label's innermost policy decides, under wrappers and a device variant.
final class HeadroomLabelTests: XCTestCase {
    func testTheInnermostPolicyOfALabel() {
        XCTAssertEqual(ReportWriter.innermostPolicy("greedy"), "greedy")
        XCTAssertEqual(ReportWriter.innermostPolicy("fixed-interval 1h"), "fixed-interval")
        XCTAssertEqual(ReportWriter.innermostPolicy("exponential-backoff(greedy)"), "greedy")
        XCTAssertEqual(ReportWriter.innermostPolicy("coalescing(fixed-interval 1h)"), "fixed-interval")
        XCTAssertEqual(ReportWriter.innermostPolicy("exponential-backoff(coalescing(usage-predictor))"), "usage-predictor")
        XCTAssertEqual(ReportWriter.innermostPolicy("every-update: ios-system"), "ios-system")
        XCTAssertEqual(ReportWriter.innermostPolicy("cost-aware-predictor 60"), "cost-aware-predictor")
        XCTAssertTrue(ReportWriter.fixedRules.contains(ReportWriter.innermostPolicy("none: exponential-backoff(greedy)")))
        XCTAssertFalse(ReportWriter.fixedRules.contains(ReportWriter.innermostPolicy("exponential-backoff(cost-aware-predictor)")))
    }
}
