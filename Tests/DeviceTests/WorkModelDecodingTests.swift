import Foundation
import XCTest
@testable import Device

/// A work model written in part keeps the default of its own role for the
/// keys it omits: a processing run that names only its CPU time still
/// downloads a processing run's bytes, not a refresh's.
final class WorkModelDecodingTests: XCTestCase {
    private let decoder = JSONDecoder()

    func testPartialProcessingWorkKeepsTheProcessingDefaults() throws {
        let m = try decoder.decode(AppModel.self, from: Data(#"{"processing": {"cpuSeconds": 30}}"#.utf8))
        var expected = AppDefaults.processingWork
        expected.cpuSeconds = 30
        XCTAssertEqual(m.processing, expected)
        XCTAssertNotEqual(m.processing.bytesDown, AppDefaults.refreshWork.bytesDown)
        XCTAssertEqual(m.refresh, AppDefaults.refreshWork)
    }

    func testPartialRefreshWorkAndNullTakeTheRefreshDefaults() throws {
        let m = try decoder.decode(AppModel.self, from: Data(#"{"refresh": {"bytesDown": 7}, "processing": null}"#.utf8))
        var expected = AppDefaults.refreshWork
        expected.bytesDown = 7
        XCTAssertEqual(m.refresh, expected)
        XCTAssertEqual(m.processing, AppDefaults.processingWork)
    }

    func testMechanismWorkKeepsItsOwnDefaults() throws {
        let job = try decoder.decode(ContinuedProcessingJob.self,
                                     from: Data(#"{"probability": 0.5, "work": {"cpuSeconds": 3}}"#.utf8))
        var expectedJob = ContinuedProcessingJob.defaultWork
        expectedJob.cpuSeconds = 3
        XCTAssertEqual(job.work, expectedJob)
        let finishing = try decoder.decode(FinishingWork.self,
                                           from: Data(#"{"probability": 0.5, "work": {"bytesUp": 9}}"#.utf8))
        var expectedFinishing = FinishingWork.defaultWork
        expectedFinishing.bytesUp = 9
        XCTAssertEqual(finishing.work, expectedFinishing)
    }

    func testAnUnknownKeyInsideAPartialWorkModelIsStillRejected() {
        XCTAssertThrowsError(try decoder.decode(AppModel.self, from: Data(#"{"processing": {"cpuSecs": 30}}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("cpuSecs"), "\(error)")
        }
    }

    func testAFullModelRoundTrips() throws {
        var m = AppModel()
        m.processing.cpuSeconds = 42
        m.refresh.bytesUp = 3
        XCTAssertEqual(try decoder.decode(AppModel.self, from: JSONEncoder().encode(m)), m)
    }
}
