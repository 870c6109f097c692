import Foundation
import Traces

/// Reads an input file (spec, manifest, runs.csv of a result) as UTF-8 text
/// with errors a user can act on: the path and the system's reason ("No such
/// file or directory", "Is a directory", "Permission denied"), or the byte
/// offset of the first invalid UTF-8 sequence — never a Foundation error
/// code. Files above `limit` bytes are refused before they are read, a line
/// above `TextLimits.maxLineBytes` as soon as it is (the one line-length
/// limit of every text input).
public enum InputText {
    /// Calls `body` with each block read from the open file `fd` (at
    /// `path`, for the error), in order, until its end; an interrupted read
    /// is retried. The one read loop of the tool's inputs: a file is never
    /// held whole unless `body` keeps it.
    static func forEachBlock(of fd: Int32, path: String, blockSize: Int = 1 << 16,
                             _ body: (ArraySlice<UInt8>) throws(InputFileError) -> Void) throws(InputFileError) {
        var chunk = [UInt8](repeating: 0, count: blockSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw InputFileError(file: path, line: nil, message: "cannot read (\(errnoText()))") }
            if n == 0 { return }
            try body(chunk[0..<n])
        }
    }

    public static func read(_ path: String, limit: Int = 1 << 34) throws(InputFileError) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputFileError(file: path, line: nil, message: "cannot open (\(errnoText()))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputFileError(file: path, line: nil, message: "cannot read (\(errnoText()))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputFileError(file: path, line: nil, message: "is a directory; expected a file")
        }
        guard Int(info.st_size) <= limit else {
            throw InputFileError(file: path, line: nil, message: "is \(info.st_size) bytes; at most \(limit) are read")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(info.st_size))
        var lines = LineLengthCheck()
        try forEachBlock(of: fd, path: path) { (block) throws(InputFileError) in
            if let line = lines.add(block) {
                throw InputFileError(file: path, line: line, message: TextLimits.lineTooLong)
            }
            bytes.append(contentsOf: block)
            guard bytes.count <= limit else {
                throw InputFileError(file: path, line: nil, message: "is larger than \(limit) bytes")
            }
        }
        if let line = lines.finish() {
            throw InputFileError(file: path, line: line, message: TextLimits.lineTooLong)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            var line = 1
            let bad = firstInvalidUTF8(bytes)
            for b in bytes[..<bad] where b == UInt8(ascii: "\n") { line += 1 }
            throw InputFileError(file: path, line: line, message: "not UTF-8 text (invalid byte at offset \(bad))")
        }
        return text
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var lo = 0, hi = bytes.count
        // The longest valid prefix, by bisection (a prefix cut inside a
        // sequence is invalid too, which only moves the answer by < 4 bytes).
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if String(validating: bytes[..<mid], as: UTF8.self) != nil { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The text of the current `errno`.
    public static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Line lengths of a file read in chunks: the number of the first line
/// longer than `TextLimits.maxLineBytes` (its "\n", and a "\r" before it,
/// not counted), found as soon as its bytes are seen.
struct LineLengthCheck {
    private var line = 1
    /// Bytes of the current line so far.
    private var length = 0
    private var endsInCR = false

    mutating func add(_ bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if let nl = bytes[i...].firstIndex(of: 10) {
                length += nl - i
                if nl > i { endsInCR = bytes[nl - 1] == 13 }
                if length - (endsInCR ? 1 : 0) > TextLimits.maxLineBytes { return line }
                line += 1
                length = 0
                endsInCR = false
                i = nl + 1
            } else {
                length += bytes.endIndex - i
                endsInCR = bytes[bytes.endIndex - 1] == 13
                if length > TextLimits.maxLineBytes + 1 { return line }
                i = bytes.endIndex
            }
        }
        return nil
    }

    /// At the end of the file: the last line, if it has no "\n" and is too long.
    func finish() -> Int? {
        length - (endsInCR ? 1 : 0) > TextLimits.maxLineBytes ? line : nil
    }
}
