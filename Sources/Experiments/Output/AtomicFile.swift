import Foundation

/// An error writing results, naming the path and what to do about it.
public struct OutputError: Error, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
}

/// Writes files so that a reader never sees a half-written one: the bytes go
/// to a hidden temporary file in the same directory, which is then renamed
/// over the target (rename is atomic within one file system).
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(OutputError) {
        try write(Data(text.utf8), to: path)
    }

    public static func write(_ data: Data, to path: String) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let tmp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try data.write(to: tmp)
        } catch {
            throw OutputError(path: path, message: "cannot write (\(error.localizedDescription)); check that the directory exists and is writable")
        }
        try commit(temporary: tmp.path, to: path)
    }

    /// Writes a large file piece by piece (no whole-file string in memory):
    /// `body` calls `emit` with consecutive pieces of text, which are
    /// buffered and written to the temporary file; the file is renamed onto
    /// `path` only when `body` returns.
    public static func stream(to path: String, _ body: ((String) -> Void) -> Void) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let tmp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        guard FileManager.default.createFile(atPath: tmp.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: tmp) else {
            throw OutputError(path: path, message: "cannot write; check that the directory exists and is writable")
        }
        var buffer = Data()
        buffer.reserveCapacity(1 << 20)
        var failure: Error?
        func flush() {
            guard failure == nil, !buffer.isEmpty else { return }
            do { try handle.write(contentsOf: buffer) } catch { failure = error }
            buffer.removeAll(keepingCapacity: true)
        }
        body { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 20 { flush() }
        }
        flush()
        try? handle.close()
        if let failure {
            unlink(tmp.path)
            throw OutputError(path: path, message: "cannot write (\(failure.localizedDescription))")
        }
        try commit(temporary: tmp.path, to: path)
    }

    /// Renames a finished temporary file onto its target.
    public static func commit(temporary: String, to path: String) throws(OutputError) {
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: path, message: "cannot move the finished file into place (\(reason))")
        }
    }

    /// Creates `path` and its parents if needed.
    public static func makeDirectory(_ path: String) throws(OutputError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: path, message: "cannot create the output directory (\(error.localizedDescription))")
        }
    }
}
