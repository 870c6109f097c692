import Foundation

/// Writes one file of an output directory with POSIX calls, so that every
/// failure (disk full, read-only, a path through a file) reports the path
/// and `strerror(errno)`. Files are written only inside a
/// ``StagedDirectory``, which makes the whole directory appear at once; a
/// single file needs no temporary name of its own.
public enum OutputFile {
    public static func write(_ text: String, to path: String) throws(OutputError) {
        try stream(to: path) { emit in emit(text) }
    }

    /// Writes a large file piece by piece (no whole-file string in memory):
    /// `body` calls `emit` with consecutive pieces of text, buffered in 1 MiB
    /// blocks. A write error stops the file; it is reported when `body` returns.
    public static func stream(to path: String, _ body: ((String) -> Void) -> Void) throws(OutputError) {
        var file = try OutputStreamFile(path: path)
        body { file.append($0) }
        try file.close()
    }
}
