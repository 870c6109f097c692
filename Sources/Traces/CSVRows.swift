// The byte-level CSV layer of the trace-set reader: splitting a file into
// rows and fields, and parsing fields with errors that name file:line:column
// (format: Datasets/README.md; figures: Docs/Performance.md, "Trace reading").
import Foundation

/// One data row of a CSV file, with the helpers that parse its fields and
/// build errors that point at them. The fields are byte ranges of the
/// file's bytes: integers (most of a trace set) are parsed straight from the
/// bytes, text fields become strings only when asked for.
struct CSVRow {
    /// Index of the file in `TraceSetFile.knownCSV` (an integer rather than the
    /// name: a String field would be retained and released on every row).
    let fileIndex: Int
    var file: String { TraceSetFile.knownCSV[fileIndex] }
    let line: Int
    let bytes: UnsafeBufferPointer<UInt8>
    /// Start and end (exclusive) byte offset of each field (at most
    /// `CSVRows.maxFields`; `fieldCount` says how many the line has).
    let ranges: UnsafeBufferPointer<(Int, Int)>
    let fieldCount: Int
    let expectedCount: Int
    /// An empty line (nothing before its end of line).
    var isBlank = false

    var fields: UnsafeBufferPointer<(Int, Int)> { ranges }

    subscript(i: Int) -> Substring {
        let (a, b) = ranges[i]
        return Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self))
    }

    func error(_ column: Int, _ message: String) -> TraceFormatError {
        TraceFormatError(file: file, line: line, column: column, message: message)
    }

    @inline(__always)
    func expectCount() throws {
        guard fieldCount == expectedCount else { throw countError() }
    }

    @inline(never)
    func countError() -> TraceFormatError {
        error(0, "expected \(expectedCount) comma-separated fields (\(TraceSetFile.headers[file]!.joined(separator: ","))), found \(fieldCount)")
    }

    /// The integer in field `i` (0-based): an optional '-' then 1–19 digits,
    /// nil on anything else or on overflow (no trap, whatever the input).
    @inline(__always)
    func integer(_ i: Int) -> Int64? {
        var (a, b) = ranges[i]
        guard a < b else { return nil }
        let negative = bytes[a] == UInt8(ascii: "-")
        if negative { a += 1 }
        guard a < b, b - a <= 19 else { return nil }
        // Eighteen digits cannot overflow (10^18 < Int64.max), so they are
        // accumulated without checks; only a 19th digit needs them. Every
        // time in µs of a trace set has at most 17 digits.
        var v: Int64 = 0
        let unchecked = Swift.min(b, a + 18)
        while unchecked - a >= 8 {
            guard let eight = eightDigits(at: a) else { return nil }
            v = v &* 100_000_000 &+ eight
            a += 8
        }
        while a < unchecked {
            let d = bytes[a] &- 48
            guard d < 10 else { return nil }
            v = v &* 10 &+ Int64(d)
            a += 1
        }
        if a < b {
            let d = bytes[a] &- 48
            guard d < 10 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (r, o2) = m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            v = r
        }
        return negative ? -v : v
    }

    /// The eight ASCII digits at byte offset `a` as a number, nil if any of
    /// them is not a digit. The eight bytes are tested and combined as one
    /// 64-bit word (pairs of digits, then fours, then the eight) rather than
    /// digit by digit: most of a trace set's bytes are the digits of µs times.
    @inline(__always)
    func eightDigits(at a: Int) -> Int64? {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + a).loadUnaligned(as: UInt64.self))
        // A byte is a digit (0x30–0x39) iff its high nibble is 3 and stays 3
        // when 6 is added.
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        guard word & high == threes, (word &+ 0x0606_0606_0606_0606) & high == threes else { return nil }
        // The first digit is the lowest byte; each step merges neighbours
        // (no lane overflows: 99, 9 999, 99 999 999).
        var v = word &- threes
        v = (v &* 10 &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
        v = (v &* 100 &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
        v = (v &* 10_000 &+ (v >> 32)) & 0xFFFF_FFFF
        return Int64(v)
    }

    // The parsers below are inlined into each reader's row loop and keep
    // only the test there; building the message (string interpolation,
    // the `what` closure) happens out of line, on the error path alone.

    /// Column numbers are 1-based.
    @inline(__always)
    func int(_ column: Int, min: Int, what: @autoclosure () -> String) throws -> Int {
        guard let v = integer(column - 1), v >= Int64(min), v <= Int64(Int.max) else {
            throw intError(column, "expected \(what()) (an integer >= \(min)),")
        }
        return Int(v)
    }

    @inline(__always)
    func int(_ column: Int, min: Int, max: Int, what: @autoclosure () -> String) throws -> Int {
        guard let v = integer(column - 1), v >= Int64(min), v <= Int64(max) else {
            throw intError(column, "expected \(what()) (an integer in [\(min), \(max)]),")
        }
        return Int(v)
    }

    @inline(__always)
    func int64(_ column: Int, in range: ClosedRange<Int64>, what: @autoclosure () -> String) throws -> Int64 {
        guard let v = integer(column - 1) else { throw intError(column, "expected \(what()), an integer;") }
        guard range.contains(v) else { throw error(column, "expected \(what()); \(v) is outside") }
        return v
    }

    /// `expectation` followed by the field as found.
    @inline(never)
    func intError(_ column: Int, _ expectation: String) -> TraceFormatError {
        error(column, "\(expectation) found \"\(self[column - 1])\"")
    }

    /// A decimal real (``DecimalText``: no hexadecimal, `inf` or `nan`).
    func real(_ column: Int, min: Double, what: @autoclosure () -> String) throws -> Double {
        let f = self[column - 1]
        guard let v = DecimalText.real(f), v.isFinite, v >= min else { throw error(column, "expected \(what()), found \"\(f)\"") }
        return v
    }

    func real(_ column: Int, in range: Range<Double>, what: @autoclosure () -> String) throws -> Double {
        let f = self[column - 1]
        guard let v = DecimalText.real(f), range.contains(v) else { throw error(column, "expected \(what()), found \"\(f)\"") }
        return v
    }

    func bool(_ column: Int) throws -> Bool {
        let (a, b) = ranges[column - 1]
        if b - a == 1 && bytes[a] == UInt8(ascii: "1") { return true }
        if b - a == 1 && bytes[a] == UInt8(ascii: "0") { return false }
        throw error(column, "expected 1 (accepts) or 0 (declines), found \"\(self[column - 1])\"")
    }
}

/// Line-by-line reading of one trace-set CSV file: checks the header, then
/// hands out the data rows one at a time, on demand (`scan`), so that a
/// reader can take one user's rows and leave the next user's first row for
/// later. Lines end in "\n" ("\r\n" is accepted); no quoting (no field may
/// contain a comma); no blank lines. Works on the file's bytes (no String per
/// line or field: Docs/Performance.md).
///
/// The file is read in chunks of `CSVRows.chunkBytes` into one buffer,
/// reused chunk after chunk (a line longer than the buffer grows it, up to
/// `TextLimits.maxLineBytes`): memory does not grow with the file, and the
/// buffer stays in cache instead of faulting in a fresh copy of the whole file.
final class CSVCursor {
    let file: String
    private let fileIndex: Int
    private let expectedCount: Int
    private let fd: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity = CSVRows.chunkBytes
    /// Field ranges of the current line, in a buffer reused line after line.
    private let store: UnsafeMutableBufferPointer<(Int, Int)>
    /// Line number of the current row (1 = the header).
    private(set) var line = 0
    /// buffer[start..<filled]: bytes not yet consumed (the current row first).
    private var start = 0, filled = 0
    private var atEnd = false
    /// Whether the current row is split (its fields in `store`) and not yet
    /// consumed; `next` is where the row after it begins, `fieldCount` its count.
    private var hasRow = false
    private var next = 0
    private var fieldCount = 0

    /// Opens `file` in `dir` and checks its header line.
    init(_ dir: URL, _ file: String) throws {
        let header = TraceSetFile.headers[file]!
        self.file = file
        fileIndex = TraceSetFile.knownCSV.firstIndex(of: file)!
        expectedCount = header.count
        fd = open(dir.appendingPathComponent(file).path, O_RDONLY)
        guard fd >= 0 else {
            throw TraceFormatError(file: file, line: 0, column: 0, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        buffer = .allocate(capacity: capacity)
        store = .allocate(capacity: CSVRows.maxFields)
        guard let first = try split() else {
            throw TraceFormatError(file: file, line: 1, column: 0, message: "expected the header \(header.joined(separator: ","))")
        }
        try CSVRows.checkHeader(first, header)
        consume()
    }

    deinit {
        close(fd)
        buffer.deallocate()
        store.deallocate()
    }

    /// Hands `body` the rows from the current one on: a row for which it
    /// returns true is consumed, the first for which it returns false stays
    /// the current row (the next `scan` starts with it). Returns at that row
    /// or at the end of the file.
    @inline(__always)
    func scan(_ body: (CSVRow) throws -> Bool) throws {
        while let row = try current() {
            guard try body(row) else { return }
            consume()
        }
    }

    /// The current data row, nil at the end of the file. Valid until `consume`.
    @inline(__always)
    private func current() throws -> CSVRow? {
        if hasRow { return row() }
        guard let r = try split() else { return nil }
        if r.isBlank {
            throw TraceFormatError(file: file, line: line, column: 0, message: "blank line; expected a data row")
        }
        return r
    }

    @inline(__always)
    private func row() -> CSVRow {
        CSVRow(fileIndex: fileIndex, line: line, bytes: UnsafeBufferPointer(start: buffer, count: filled),
               ranges: UnsafeBufferPointer(rebasing: store[0..<min(fieldCount, CSVRows.maxFields)]),
               fieldCount: fieldCount, expectedCount: expectedCount)
    }

    @inline(__always)
    private func consume() {
        start = next
        hasRow = false
    }

    /// Splits the next line into fields (reading on as needed) and makes it
    /// the current row; nil at the end of the file. Inlined into each row
    /// loop, as the whole-file loop it replaced was (`refill` stays out of line).
    @inline(__always)
    private func split() throws -> CSVRow? {
        while true {
            if let i = CSVRows.offset(of: 10, in: UnsafePointer(buffer), from: start, to: filled) {
                if i - start > TextLimits.maxLineBytes { try checkLength(end: i) }
                return fields(end: i, next: i + 1)
            }
            if atEnd {
                if filled - start > TextLimits.maxLineBytes { try checkLength(end: filled) }
                return start < filled ? fields(end: filled, next: filled) : nil
            }
            try refill()
        }
    }

    /// The line buffer[start..<i] (i: its "\n", or the end of the file).
    @inline(__always)
    private func fields(end i: Int, next after: Int) -> CSVRow {
        let base = UnsafePointer(buffer)
        // The fields, at each ',' of the line, found by `memchr`, which
        // tests many bytes per instruction.
        var count = 0
        var f = start
        while let j = CSVRows.offset(of: 44, in: base, from: f, to: i) {
            if count < CSVRows.maxFields { store[count] = (f, j) }
            count += 1
            f = j + 1
        }
        // [start, end): the line without its "\n" and a "\r" before it.
        var end = i
        if end > start && base[end - 1] == 13 { end -= 1 }
        line += 1
        if count < CSVRows.maxFields { store[count] = (f, end) }
        count += 1
        fieldCount = count
        next = after
        hasRow = true
        var r = row()
        r.isBlank = end == start
        return r
    }

    /// Throws if the line buffer[start..<end] (without "\n"; a "\r" before
    /// it not counted) is longer than `TextLimits.maxLineBytes`.
    @inline(never)
    private func checkLength(end: Int) throws {
        var length = end - start
        if length > 0 && buffer[end - 1] == 13 { length -= 1 }
        guard length <= TextLimits.maxLineBytes else {
            throw TraceFormatError(file: file, line: line + 1, column: 0, message: TextLimits.lineTooLong)
        }
    }

    /// No complete line left: keeps the partial one, at the front, and reads
    /// on; a partial line already past the line-length limit is refused
    /// here, so a hostile line is never read whole.
    @inline(never)
    private func refill() throws {
        if filled - start > TextLimits.maxLineBytes + 1 { try checkLength(end: filled) }
        if start > 0 {
            if filled > start { memmove(buffer, buffer + start, filled - start) }
            filled -= start
            start = 0
        }
        if filled == capacity {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity)
            larger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = larger
            capacity *= 2
        }
        while true {
            let n = Foundation.read(fd, buffer + filled, capacity - filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw TraceFormatError(file: file, line: line, column: 0, message: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { atEnd = true }
            filled += n
            return
        }
    }
}

/// Whole-file reading, for the files read in one go (traceset.csv, apps.csv,
/// users.csv): every data row to `body`, in order.
enum CSVRows {
    static let chunkBytes = 1 << 18

    static func forEach(_ dir: URL, _ file: String, _ body: (CSVRow) throws -> Void) throws {
        try CSVCursor(dir, file).scan { row in
            try body(row)
            return true
        }
    }

    /// Every data row of `file`, checked for its field count, made a value
    /// by `value`, which is handed the row and the values so far (a row's
    /// rules are about the rows before it).
    static func values<T>(_ dir: URL, _ file: String, _ value: (CSVRow, [T]) throws -> T) throws -> [T] {
        var values: [T] = []
        try forEach(dir, file) { row in
            try row.expectCount()
            let v = try value(row, values)
            values.append(v)
        }
        return values
    }

    /// The offset of the first `byte` in `base[from..<to]`, nil if none.
    @inline(__always)
    static func offset(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        memchr(base + from, Int32(byte), to - from).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
    }

    /// Fields kept per line; a line with more is an error anyway (every
    /// file has at most 11 columns), reported with its true count.
    static let maxFields = 32

    static func checkHeader(_ row: CSVRow, _ header: [String]) throws {
        let file = row.file
        for (i, name) in header.enumerated() where i >= row.ranges.count || row[i] != name {
            throw TraceFormatError(file: file, line: 1, column: i + 1,
                                   message: "expected the header \(header.joined(separator: ",")); column \(i + 1) should be \"\(name)\"")
        }
        if row.fieldCount > header.count {
            throw TraceFormatError(file: file, line: 1, column: header.count + 1,
                                   message: "expected the header \(header.joined(separator: ",")); unexpected extra column \"\(row[header.count])\"")
        }
    }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
