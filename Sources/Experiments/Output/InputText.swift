import Foundation

/// Reads an input file (spec, manifest, runs.csv of a result) as UTF-8 text
/// with errors a user can act on: the path and the system's reason ("No such
/// file or directory", "Is a directory", "Permission denied"), or the byte
/// offset of the first invalid UTF-8 sequence — never a Foundation error
/// code. Files above `limit` bytes are refused before they are read.
public enum InputText {
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
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputFileError(file: path, line: nil, message: "cannot read (\(errnoText()))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= limit else {
                throw InputFileError(file: path, line: nil, message: "is larger than \(limit) bytes")
            }
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
