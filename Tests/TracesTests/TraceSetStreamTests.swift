// The per-user stream (`TraceSetStream`): each user in users.csv order with
// the rows the whole-set reader gives it, errors at the user whose rows are
// bad with the file, line and column the whole-set reader reports, and what
// is particular to reading user by user: interleaved users, a user missing
// from a file, a truncated last row, several bad files.
import Foundation
import SimCore
import TestSupport
import Traces
import XCTest

final class TraceSetStreamTests: XCTestCase {
    var dir: TemporaryDirectory!
    var set: TraceSet!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        set = PopulationGenerator(parameters: .default, seed: 5, days: 2).traceSet(users: 4)
        try TraceSetWriter.write(set, to: dir.url)
    }

    override func tearDown() { dir.remove() }

    func lines(_ file: String) throws -> [String] {
        try String(contentsOf: dir.url.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Rewrites `file` (lines without their "\n"; `finalNewline` false cuts the last one's).
    func edit(_ file: String, finalNewline: Bool = true, _ change: (inout [String]) -> Void) throws {
        var l = try lines(file)
        change(&l)
        try Data((l.joined(separator: "\n") + (finalNewline ? "\n" : "")).utf8).write(to: dir.url.appendingPathComponent(file))
    }

    /// The index (0-based, = 1-based line - 1) of the first data row of user `id`.
    func firstRow(of id: Int, in l: [String]) throws -> Int {
        try XCTUnwrap(l.indices.dropFirst().first { l[$0].hasPrefix("\(id),") })
    }

    /// Reads the stream until it fails: the users it gave, then the error.
    func streamUntilError() throws -> (users: [UserTrace], error: TraceFormatError?) {
        let stream = try TraceSetStream(directory: dir.url)
        var users: [UserTrace] = []
        do {
            while let u = try stream.next() { users.append(u) }
        } catch let e as TraceFormatError {
            return (users, e)
        }
        return (users, nil)
    }

    /// The stream gives `usersBefore` users, then fails with the error the
    /// whole-set reader reports.
    func assertRejected(afterUsers usersBefore: Int, _ file: String, line: Int, column: Int, _ fragment: String,
                        at: UInt = #line) throws {
        let (users, error) = try streamUntilError()
        let e = try XCTUnwrap(error, "the stream accepted a bad \(file)", line: at)
        XCTAssertEqual(users.count, usersBefore, "\(e)", line: at)
        XCTAssertEqual(users, Array(set.users.prefix(usersBefore)), line: at)
        XCTAssertEqual([e.file, "\(e.line)", "\(e.column)"], [file, "\(line)", "\(column)"], "\(e)", line: at)
        XCTAssertTrue(e.message.contains(fragment), "\(e) should mention \(fragment)", line: at)
        XCTAssertThrowsError(try TraceSetReader.read(directory: dir.url), line: at) { whole in
            XCTAssertEqual(whole as? TraceFormatError, e, line: at)
        }
    }

    func testTheStreamGivesEachUserInUsersCSVOrderOnce() throws {
        let stream = try TraceSetStream(directory: dir.url)
        XCTAssertEqual(stream.header.profiles, set.users.map(\.profile))
        XCTAssertEqual(stream.header.days, 2)
        var users: [UserTrace] = []
        while let u = try stream.next() {
            users.append(u)
            XCTAssertEqual(stream.position, users.count)
        }
        XCTAssertEqual(users, set.users)
        XCTAssertEqual(users, try TraceSetReader.read(directory: dir.url).users)
        XCTAssertNil(try stream.next(), "the end stays the end")
        // A second pass on the header already read gives the same users.
        let again = try TraceSetStream(directory: dir.url, header: stream.header)
        XCTAssertEqual(try again.next(), set.users[0])
    }

    func testAUserWhoseRowsAreInterleavedWithTheNextUsersIsRejectedAtItsLateRow() throws {
        // User 0's last session moved after user 1's first: user 0 reads (one
        // session short), then user 1's read meets the late row.
        var late = 0
        try edit(TraceSetFile.sessions) { l in
            let first1 = l.firstIndex { $0.hasPrefix("1,") }!
            let row = l.remove(at: first1 - 1)
            l.insert(row, at: first1)
            late = first1 + 1  // 1-based line of the moved row
        }
        set.users[0].sessions.removeLast()
        try assertRejected(afterUsers: 1, TraceSetFile.sessions, line: late, column: 1, "grouped by user in users.csv order; user 0 comes after a later user")
    }

    func testContentRowsOutOfOrderWithinAUserAreRejectedAtTheirLine() throws {
        // User 2's rows with two apps swapped: sorted by app is the rule.
        let l = try lines(TraceSetFile.contentUpdates)
        let first2 = try firstRow(of: 2, in: l)
        let firstApp = l[first2].split(separator: ",")[1]
        let other = try XCTUnwrap((first2..<l.count).first { l[$0].hasPrefix("2,") && l[$0].split(separator: ",")[1] != firstApp })
        try edit(TraceSetFile.contentUpdates) { l in l.swapAt(first2, other) }
        try assertRejected(afterUsers: 2, TraceSetFile.contentUpdates, line: first2 + 2, column: 2, "sorted by app")
    }

    func testAUserMissingFromSessionsOrContentIsAQuietUser() throws {
        for file in [TraceSetFile.sessions, TraceSetFile.contentUpdates] {
            try edit(file) { l in l.removeAll { $0.hasPrefix("1,") } }
        }
        set.users[1].sessions = []
        set.users[1].contentUpdates = set.users[1].contentUpdates.map { _ in [] }
        let (users, error) = try streamUntilError()
        XCTAssertNil(error)
        XCTAssertEqual(users, set.users)
    }

    func testAUserMissingFromNetworkIsRejectedAtTheNextUsersFirstRow() throws {
        let l = try lines(TraceSetFile.network)
        let first1 = try firstRow(of: 1, in: l)
        try edit(TraceSetFile.network) { l in l.removeAll { $0.hasPrefix("1,") } }
        // The first row of user 2 is now where user 1's was.
        try assertRejected(afterUsers: 1, TraceSetFile.network, line: first1 + 1, column: 0,
                           "user 1: expected network intervals tiling [0, \(SimTime(day: 2).microseconds)); there are none")
    }

    func testTheLastUserMissingFromLowPowerModeIsRejectedPastTheEnd() throws {
        try edit(TraceSetFile.lowPowerMode) { l in l.removeAll { $0.hasPrefix("3,") } }
        let count = try lines(TraceSetFile.lowPowerMode).count
        try assertRejected(afterUsers: 3, TraceSetFile.lowPowerMode, line: count + 1, column: 0, "user 3 has 0 decisions; expected 4")
    }

    func testATruncatedLastRowIsRejectedAtItsLine() throws {
        // The last row cut inside its last field, no newline after it (a
        // copy interrupted): two fields left, of the last user.
        try edit(TraceSetFile.contentUpdates, finalNewline: false) { l in
            let f = l[l.count - 1].split(separator: ",")
            l[l.count - 1] = "\(f[0]),\(f[1])"
        }
        let count = try lines(TraceSetFile.contentUpdates).count + 1  // the cut line has no "\n"
        try assertRejected(afterUsers: 3, TraceSetFile.contentUpdates, line: count, column: 0,
                           "expected 3 comma-separated fields (user,app,time_us), found 2")
    }

    func testARowOfAnUnknownUserAfterTheLastIsRejected() throws {
        // Met when the last user's rows end, so the last user is not given.
        try edit(TraceSetFile.charging) { l in l.append("99,0,1") }
        let count = try lines(TraceSetFile.charging).count
        try assertRejected(afterUsers: 3, TraceSetFile.charging, line: count, column: 1, "unknown user 99")
    }

    func testWithSeveralBadFilesTheFirstUserWithABadRowIsReported() throws {
        // A bad session of user 3 and a bad content row of user 1: user 1's
        // comes first (the files are read user by user, then in file order).
        let sessions = try lines(TraceSetFile.sessions)
        let bad3 = try firstRow(of: 3, in: sessions)
        try edit(TraceSetFile.sessions) { l in l[bad3] = "3,x,1,0" }
        let content = try lines(TraceSetFile.contentUpdates)
        let bad1 = try firstRow(of: 1, in: content)
        try edit(TraceSetFile.contentUpdates) { l in l[bad1] = "1,0,-5" }
        try assertRejected(afterUsers: 1, TraceSetFile.contentUpdates, line: bad1 + 1, column: 3, "is outside")
        // Within one user, the files in order: sessions before content.
        try edit(TraceSetFile.sessions) { l in l[try! self.firstRow(of: 1, in: l)] = "1,x,1,0" }
        let s1 = try firstRow(of: 1, in: try lines(TraceSetFile.sessions))
        try assertRejected(afterUsers: 1, TraceSetFile.sessions, line: s1 + 1, column: 2, "an integer")
    }
}
