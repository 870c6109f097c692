import Foundation
import Traces

/// What a shard records of each CSV file it carries (`shard.json`, "files"):
/// its data rows (lines after the header) and the SHA-256 of its bytes.
/// `merge` and `run --shard` recompute both, so a file truncated, cut
/// short, appended to or edited since the shard wrote it is refused, never
/// merged or taken for a finished shard.
public struct FileDigest: Sendable, Equatable {
    public var rows: Int
    public var sha256: String

    func json() -> JSONValue {
        .object([("rows", .number(Double(rows))), ("sha256", .string(sha256))])
    }

    /// The digest of the file at `path`, read in blocks (a large events.csv
    /// is never held whole).
    static func of(path: String) throws(InputFileError) -> FileDigest {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputFileError(file: path, line: nil, message: "cannot open (\(InputText.errnoText()))") }
        defer { close(fd) }
        var digester = FileDigester()
        try InputText.forEachBlock(of: fd, path: path, blockSize: 1 << 20) { block in
            block.withUnsafeBytes { digester.add($0) }
        }
        return digester.digest
    }

    /// nil if the file at `path` has this digest; otherwise why not, for
    /// the user (`what` names whose record it is, e.g. "its shard.json").
    func mismatch(path: String, recordedIn what: String) throws(InputFileError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): missing, but \(what) lists it" }
        let found = try FileDigest.of(path: path)
        if found.rows != rows {
            return "\(path): has \(found.rows) data rows, \(what) recorded \(rows); the file was truncated, appended to or replaced after the shard wrote it"
        }
        if found.sha256 != sha256 {
            return "\(path): its SHA-256 is not the one \(what) recorded; the file was edited or truncated after the shard wrote it"
        }
        return nil
    }
}

/// Accumulates a ``FileDigest`` of bytes as they are written or read.
struct FileDigester {
    private var hash = SHA256()
    private var lines = 0

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        hash.update(bytes)
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0, let nl = memchr(p, 10, left) {
            lines += 1
            let skip = p.distance(to: UnsafeRawPointer(nl)) + 1
            p += skip
            left -= skip
        }
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// Rows after the header line.
    var digest: FileDigest { FileDigest(rows: max(0, lines - 1), sha256: hash.hexDigest) }
}
