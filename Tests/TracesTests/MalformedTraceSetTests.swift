// Each kind of malformed file is rejected with the right file, line, column
// and a message that says what was expected.
import Foundation
import SimCore
import TestSupport
import Traces
import XCTest

final class MalformedTraceSetTests: XCTestCase {
    var dir: TemporaryDirectory!
    let horizon = SimTime(day: 2).microseconds

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        try TraceSetWriter.write(PopulationGenerator(parameters: .default, seed: 3, days: 2).traceSet(users: 3), to: dir.url)
    }

    override func tearDown() { dir.remove() }

    /// Lines of a file (index 0 = line 1, the header), without the final newline.
    func lines(_ file: String) throws -> [String] {
        try String(contentsOf: dir.url.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func edit(_ file: String, _ change: (inout [String]) -> Void) throws {
        var l = try lines(file)
        change(&l)
        try Data((l.joined(separator: "\n") + "\n").utf8).write(to: dir.url.appendingPathComponent(file))
    }

    /// Replaces field `column` (1-based) of line `line` (1-based).
    func setField(_ file: String, line: Int, column: Int, to value: String) throws {
        try edit(file) { l in
            var f = l[line - 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[column - 1] = value
            l[line - 1] = f.joined(separator: ",")
        }
    }

    func field(_ file: String, line: Int, column: Int) throws -> String {
        String(try lines(file)[line - 1].split(separator: ",", omittingEmptySubsequences: false)[column - 1])
    }

    func assertRejected(_ file: String, line: Int, column: Int, _ fragment: String,
                        source: StaticString = #filePath, at: UInt = #line) {
        do {
            _ = try TraceSetReader.read(directory: dir.url)
            XCTFail("accepted a malformed \(file)", file: source, line: at)
        } catch let e as TraceFormatError {
            XCTAssertEqual(e.file, file, "\(e)", file: source, line: at)
            XCTAssertEqual(e.line, line, "\(e)", file: source, line: at)
            XCTAssertEqual(e.column, column, "\(e)", file: source, line: at)
            XCTAssert(e.message.contains(fragment), "\(e) should mention \(fragment)", file: source, line: at)
        } catch {
            XCTFail("unexpected error \(error)", file: source, line: at)
        }
    }

    func testTheFixtureIsValid() throws {
        XCTAssertEqual(try TraceSetReader.read(directory: dir.url).users.count, 3)
    }

    func testWrongHeader() throws {
        try edit(TraceSetFile.sessions) { $0[0] = "user,start,end_us,app" }
        assertRejected(TraceSetFile.sessions, line: 1, column: 2, "should be \"start_us\"")
    }

    func testWrongFieldCount() throws {
        try edit(TraceSetFile.sessions) { $0[2] += ",extra" }
        assertRejected(TraceSetFile.sessions, line: 3, column: 0, "expected 4 comma-separated fields")
    }

    func testWrongType() throws {
        try setField(TraceSetFile.sessions, line: 2, column: 2, to: "12.5s")
        assertRejected(TraceSetFile.sessions, line: 2, column: 2, "an integer")
    }

    func testOverlappingSessions() throws {
        let start = Int64(try field(TraceSetFile.sessions, line: 2, column: 2))!
        try setField(TraceSetFile.sessions, line: 3, column: 2, to: String(start + 1))
        assertRejected(TraceSetFile.sessions, line: 3, column: 2, "not overlapping")
    }

    func testEndNotAfterStart() throws {
        try setField(TraceSetFile.sessions, line: 2, column: 3, to: try field(TraceSetFile.sessions, line: 2, column: 2))
        assertRejected(TraceSetFile.sessions, line: 2, column: 3, "end_us > start_us")
    }

    func testUnknownUser() throws {
        try setField(TraceSetFile.sessions, line: 2, column: 1, to: "99")
        assertRejected(TraceSetFile.sessions, line: 2, column: 1, "unknown user 99")
    }

    func testHugeDaysIsAClearError() throws {
        try setField(TraceSetFile.traceSet, line: 2, column: 2, to: "999999999999")
        assertRejected(TraceSetFile.traceSet, line: 2, column: 2, "[1, 36500]")
    }

    func testOverflowingIntegersAreClearErrors() throws {
        // 20 digits overflow Int64: an error naming the field, not a trap.
        try setField(TraceSetFile.sessions, line: 2, column: 2, to: "99999999999999999999")
        assertRejected(TraceSetFile.sessions, line: 2, column: 2, "an integer")
    }

    func testNineteenDigitIntegersAreCheckedForOverflow() throws {
        // The largest Int64 parses (and is then out of range); one more
        // overflows: the reader's 19th digit is the one checked.
        try setField(TraceSetFile.sessions, line: 2, column: 2, to: "9223372036854775807")
        assertRejected(TraceSetFile.sessions, line: 2, column: 2, "9223372036854775807 is outside")
        try setField(TraceSetFile.sessions, line: 2, column: 2, to: "9223372036854775808")
        assertRejected(TraceSetFile.sessions, line: 2, column: 2, "an integer; found \"9223372036854775808\"")
        try setField(TraceSetFile.sessions, line: 2, column: 2, to: "12x4")
        assertRejected(TraceSetFile.sessions, line: 2, column: 2, "an integer; found \"12x4\"")
        // A non-digit among eight read as one word, and one just past them.
        for bad in ["1234567:9012", "123456789/12", "/2345678"] {
            try setField(TraceSetFile.sessions, line: 2, column: 2, to: bad)
            assertRejected(TraceSetFile.sessions, line: 2, column: 2, "an integer; found \"\(bad)\"")
        }
    }

    func testAFileWithoutAFinalNewlineReadsTheSame() throws {
        let before = try TraceSetReader.read(directory: dir.url)
        for name in [TraceSetFile.sessions, TraceSetFile.contentUpdates] {
            let url = dir.url.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            try String(text.dropLast()).write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try TraceSetReader.read(directory: dir.url).users, before.users)
    }

    func testCRLFLinesAreAccepted() throws {
        for name in TraceSetFile.allCSV {
            let url = dir.url.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: url, atomically: true, encoding: .utf8)
        }
        XCTAssertNoThrow(try TraceSetReader.read(directory: dir.url))
    }

    func testUnknownApp() throws {
        // One past the last app of the default catalogue.
        let unknown = "\(TraceApp.defaultApps.count)"
        try setField(TraceSetFile.sessions, line: 2, column: 4, to: unknown)
        assertRejected(TraceSetFile.sessions, line: 2, column: 4, "unknown app \(unknown)")
    }

    func testTimeOutsideHorizon() throws {
        let last = try lines(TraceSetFile.sessions).count
        try setField(TraceSetFile.sessions, line: last, column: 3, to: String(horizon + 1))
        assertRejected(TraceSetFile.sessions, line: last, column: 3, "the horizon")
    }

    func testUsersOutOfOrder() throws {
        let l = try lines(TraceSetFile.sessions)
        let firstOfUser1 = try XCTUnwrap(l.firstIndex { $0.hasPrefix("1,") })
        try edit(TraceSetFile.sessions) { l in
            let row = l.remove(at: firstOfUser1)
            l.insert(row, at: 1)
        }
        assertRejected(TraceSetFile.sessions, line: 3, column: 1, "grouped by user")
    }

    func testOverlappingCharging() throws {
        let l = try lines(TraceSetFile.charging)
        // Two consecutive intervals of the same user.
        let i = try XCTUnwrap((2..<l.count).first { l[$0].prefix(2) == l[$0 - 1].prefix(2) })
        let start = try field(TraceSetFile.charging, line: i, column: 2)
        try setField(TraceSetFile.charging, line: i + 1, column: 2, to: start)
        assertRejected(TraceSetFile.charging, line: i + 1, column: 2, "not overlapping")
    }

    func testNetworkGap() throws {
        let start = Int64(try field(TraceSetFile.network, line: 3, column: 2))!
        try setField(TraceSetFile.network, line: 3, column: 2, to: String(start + 1))
        assertRejected(TraceSetFile.network, line: 3, column: 2, "leaves a gap")
    }

    func testNetworkNotCoveringTheHorizon() throws {
        try edit(TraceSetFile.network) { $0.removeLast() }
        let count = try lines(TraceSetFile.network).count
        assertRejected(TraceSetFile.network, line: count + 1, column: 0, "user 2: expected network intervals tiling")
    }

    func testNetworkUnknownKind() throws {
        try setField(TraceSetFile.network, line: 2, column: 4, to: "lte")
        assertRejected(TraceSetFile.network, line: 2, column: 4, "wifi, cellular or offline")
    }

    func testContentOutOfOrder() throws {
        try edit(TraceSetFile.contentUpdates) { $0.swapAt(1, 2) }
        assertRejected(TraceSetFile.contentUpdates, line: 3, column: 3, "non-decreasing")
    }

    func testLowPowerModeWrongThreshold() throws {
        try setField(TraceSetFile.lowPowerMode, line: 2, column: 3, to: "10")
        assertRejected(TraceSetFile.lowPowerMode, line: 2, column: 3, "expected threshold 20")
    }

    func testLowPowerModeMissingUser() throws {
        try edit(TraceSetFile.lowPowerMode) { $0.removeAll { $0.hasPrefix("1,") } }
        assertRejected(TraceSetFile.lowPowerMode, line: 6, column: 0, "user 1 has 0 decisions")
    }

    func testLowPowerModeBadBoolean() throws {
        try setField(TraceSetFile.lowPowerMode, line: 2, column: 4, to: "yes")
        assertRejected(TraceSetFile.lowPowerMode, line: 2, column: 4, "expected 1 (accepts) or 0")
    }

    func testMissingFile() throws {
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent(TraceSetFile.charging))
        assertRejected(TraceSetFile.charging, line: 0, column: 0, "missing file")
    }

    func testUnexpectedFile() throws {
        try Data("user\n".utf8).write(to: dir.url.appendingPathComponent("session.csv"))
        assertRejected("session.csv", line: 0, column: 0, "unexpected CSV file")
    }

    func testWrongFormatVersion() throws {
        try setField(TraceSetFile.traceSet, line: 2, column: 1, to: "bgbench-traces-0")
        assertRejected(TraceSetFile.traceSet, line: 2, column: 1, "expected format")
    }

    func testBlankLine() throws {
        try edit(TraceSetFile.charging) { $0.insert("", at: 2) }
        assertRejected(TraceSetFile.charging, line: 3, column: 0, "blank line")
    }

    func testAppsOutOfOrder() throws {
        try setField(TraceSetFile.apps, line: 3, column: 1, to: "5")
        assertRejected(TraceSetFile.apps, line: 3, column: 1, "expected app index 1")
    }

    func testUnknownIntensity() throws {
        try setField(TraceSetFile.users, line: 2, column: 2, to: "extreme")
        assertRejected(TraceSetFile.users, line: 2, column: 2, "light, moderate or heavy")
    }

    func testProbabilityOutOfRange() throws {
        try setField(TraceSetFile.users, line: 2, column: 9, to: "1.5")
        assertRejected(TraceSetFile.users, line: 2, column: 9, "a probability in [0, 1]")
    }
}
