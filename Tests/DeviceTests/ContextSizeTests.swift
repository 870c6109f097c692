@testable import Device
import XCTest

/// The policy's context is copied into every policy call; at more than
/// 128 bytes the copy becomes a `memcpy` call (Docs/Performance.md).
final class ContextSizeTests: XCTestCase {
    func testTheContextFitsAnInlineCopy() {
        XCTAssertLessThanOrEqual(MemoryLayout<PolicyContext>.size, 128)
    }
}
