// Reads a trace-set directory strictly, whole (formats: Datasets/README.md;
// the rules: TraceSetHeader.swift and PerUserRows.swift).
//
// Every problem is an error naming the file, the 1-based line and column
// (column 0 = the whole line, line 0 = the whole file) and what was expected.
// Nothing is skipped or repaired: a converted real trace either matches the
// format exactly or the researcher learns precisely where it does not.
import Foundation
import SimCore

/// A trace-set file that does not match the format.
public struct TraceFormatError: Error, Equatable, CustomStringConvertible {
    /// File name inside the trace-set directory, e.g. `sessions.csv`.
    public let file: String
    /// 1-based line number; 0 when the problem concerns the whole file.
    public let line: Int
    /// 1-based column (field) number; 0 when the problem concerns the whole line.
    public let column: Int
    public let message: String

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

public enum TraceSetReader {
    /// Reads and validates the whole trace set in `directory`: the stream
    /// (`TraceSetStream`) drained, so the two readers apply the same rules
    /// and report the same error for the same bad file.
    public static func read(directory: URL) throws -> TraceSet {
        let stream = try TraceSetStream(directory: directory)
        var users: [UserTrace] = []
        users.reserveCapacity(stream.header.profiles.count)
        while let user = try stream.next() { users.append(user) }
        let h = stream.header
        return TraceSet(apps: h.apps, days: h.days, users: users, provenance: h.provenance,
                        missingStreams: h.missingStreams, hasUsersFile: h.hasUsersFile, hasBatteryLevel: h.hasBatteryLevel)
    }
}
