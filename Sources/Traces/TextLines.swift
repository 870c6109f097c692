// The one line-length limit of every text input bgbench reads (trace sets,
// imported logs, specs, manifests, a result's CSV files), and a chunked
// line reader that enforces it. A file is read in bounded pieces, so a
// hostile or corrupt input (one line of a gigabyte) is refused after at most
// the limit's worth of bytes instead of being read whole into memory.
import Foundation

public enum TextLimits {
    /// The most bytes a line of any text input may have, its end of line
    /// ("\n", or "\r\n") not counted. Far above any line bgbench writes or
    /// reads legitimately (a trace row is under 200 bytes, a runs.csv row
    /// under 2 KiB, a spec line a few hundred), low enough that a reader
    /// holds at most a few MiB for a line.
    public static let maxLineBytes = 1 << 20

    /// The message for a line that exceeds the limit (the error names the
    /// file and the line).
    public static let lineTooLong = "the line is longer than \(maxLineBytes) bytes, the most a line of any input file may have"
}

/// Reads a text file line by line, in chunks, holding at most one line (and
/// one chunk) in memory. Lines end in "\n"; a "\r" before it is dropped; a
/// last line without "\n" is a line too. Errors name `name` and the line.
public final class LineReader {
    /// The file as errors name it.
    public let name: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// buffer[start..<buffer.count]: bytes read and not yet handed out.
    private var start = 0
    private var atEnd = false
    /// Number of the line last returned by `next` (1-based).
    public private(set) var line = 0

    static let chunkBytes = 1 << 16

    public init(path: String, name: String? = nil) throws(TraceFormatError) {
        self.name = name ?? path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TraceFormatError(file: self.name, line: 0, column: 0, message: "cannot open (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw TraceFormatError(file: self.name, line: 0, column: 0, message: "is a directory; expected a file")
        }
    }

    deinit { close(fd) }

    /// The next line's bytes (without its end of line), nil at the end of
    /// the file. Throws for a line longer than `TextLimits.maxLineBytes`.
    public func next() throws(TraceFormatError) -> ArraySlice<UInt8>? {
        var searched = start
        while true {
            if let nl = buffer[searched...].firstIndex(of: 10) {
                return try take(upTo: nl, next: nl + 1)
            }
            searched = buffer.count
            guard buffer.count - start <= TextLimits.maxLineBytes + 1 else { throw tooLong() }
            if atEnd {
                return start < buffer.count ? try take(upTo: buffer.count, next: buffer.count) : nil
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                searched -= start
                start = 0
            }
            try read()
        }
    }

    /// The next line as a String, checked to be UTF-8.
    public func nextString() throws(TraceFormatError) -> String? {
        guard let bytes = try next() else { return nil }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw TraceFormatError(file: name, line: line, column: 0, message: "not UTF-8 text")
        }
        return s
    }

    private func take(upTo end: Int, next: Int) throws(TraceFormatError) -> ArraySlice<UInt8> {
        line += 1
        var stop = end
        if stop > start && buffer[stop - 1] == 13 { stop -= 1 }
        guard stop - start <= TextLimits.maxLineBytes else { throw tooLong(current: true) }
        let slice = buffer[start..<stop]
        start = next
        return slice
    }

    private func tooLong(current: Bool = false) -> TraceFormatError {
        let n = current ? line : line + 1
        return TraceFormatError(file: name, line: n, column: 0, message: TextLimits.lineTooLong)
    }

    private func read() throws(TraceFormatError) {
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkBytes))
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + old, Self.chunkBytes) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw TraceFormatError(file: name, line: line + 1, column: 0, message: "cannot read (\(String(cString: strerror(errno))))")
            }
            buffer.removeLast(Self.chunkBytes - n)
            if n == 0 { atEnd = true }
            return
        }
    }
}

/// The number syntax of every CSV and TSV field bgbench reads as a real
/// (Datasets/README.md: reals are decimal): an optional "-", digits with
/// an optional fraction, an optional exponent (`0.5`, `12`, `-3.25`,
/// `1e-05`, `2.5E+3`). Swift's `Double(_:)` alone would also take
/// hexadecimal (`0x10` as 16), `inf`, `nan` and a leading "+".
public enum DecimalText {
    /// The value of `text` if it is a decimal number as above, else nil
    /// (possibly ±infinity for an exponent out of range: callers check the range).
    public static func real<S: StringProtocol>(_ text: S) -> Double? {
        guard isDecimal(text.utf8) else { return nil }
        return Double(text)
    }

    /// An optional "-" and 1–18 decimal digits (no sign "+", no spaces).
    public static func wholeNumber<S: StringProtocol>(_ text: S) -> Int? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
        return Int(text)
    }

    static func isDecimal<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.startIndex
        func digits() -> Int {
            var n = 0
            while i < bytes.endIndex, bytes[i] &- 48 < 10 { n += 1; i = bytes.index(after: i) }
            return n
        }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") { i = bytes.index(after: i) }
        var mantissa = digits()
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i = bytes.index(after: i) }
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
