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
