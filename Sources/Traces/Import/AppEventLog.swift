// Real app-usage logs read into one list of events per user, strictly:
// a wrong header, field count, time or event type is an error naming the
// file, line and column. Formats: Datasets/README.md ("Importing real
// traces").
import Foundation

/// One app event of a real log.
public struct AppEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case open, close, interaction, broken }
    /// Seconds since 1970-01-01 00:00 in the user's local time (no zone).
    public var time: Int64
    public var app: String
    public var kind: Kind
    /// 1-based line in the input file (for the repair report).
    public var line: Int
}

/// The formats `bgbench traces import` reads.
public enum AppEventLogFormat: String, Sendable, CaseIterable {
    /// LSApp (Aliannejadi et al.): tab-separated `user_id, session_id,
    /// timestamp, app_name, event_type`, events Opened / Closed /
    /// User Interaction / Broken, timestamp `YYYY-MM-DD HH:MM:SS`.
    case lsapp
    /// A generic comma-separated log: `user,time,app,event`, time
    /// `YYYY-MM-DDTHH:MM:SS` (or a space for the T), event `open` / `close`.
    case events
}

public enum AppEventLog {
    /// Events per user id, in file order, users in order of first appearance.
    public static func read(_ url: URL, format: AppEventLogFormat) throws -> [(user: String, events: [AppEvent])] {
        let file = url.lastPathComponent
        // Read line by line (never the whole file at once), so a corrupt
        // log with a huge line is refused at the line-length limit.
        let reader: LineReader
        do { reader = try LineReader(path: url.path, name: file) } catch {
            throw TraceFormatError(file: url.path, line: 0, column: 0, message: "expected a readable UTF-8 text file: \(error.message)")
        }
        let separator: Character = format == .lsapp ? "\t" : ","
        let header = format == .lsapp ? ["user_id", "session_id", "timestamp", "app_name", "event_type"]
                                      : ["user", "time", "app", "event"]
        let columns = format == .lsapp ? (user: 0, time: 2, app: 3, event: 4) : (user: 0, time: 1, app: 2, event: 3)
        var order: [String] = []
        var byUser: [String: [AppEvent]] = [:]
        var sawHeader = false
        while let line = try reader.nextString() {
            let lineNumber = reader.line
            // The reader yields no empty line for a final newline.
            if line.isEmpty { throw TraceFormatError(file: file, line: lineNumber, column: 0, message: "blank line") }
            let fields = line.split(separator: separator, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if !sawHeader {
                guard fields == header else {
                    throw TraceFormatError(file: file, line: lineNumber, column: 0,
                                           message: "expected the header \(header.joined(separator: format == .lsapp ? "<TAB>" : ","))")
                }
                sawHeader = true
                continue
            }
            guard fields.count == header.count else {
                throw TraceFormatError(file: file, line: lineNumber, column: 0,
                                       message: "expected \(header.count) fields (\(header.joined(separator: ", "))), found \(fields.count)")
            }
            let user = fields[columns.user], app = fields[columns.app]
            guard !user.isEmpty else { throw TraceFormatError(file: file, line: lineNumber, column: columns.user + 1, message: "empty user") }
            guard !app.isEmpty else { throw TraceFormatError(file: file, line: lineNumber, column: columns.app + 1, message: "empty app name") }
            guard let time = parseLocalTime(fields[columns.time]) else {
                throw TraceFormatError(file: file, line: lineNumber, column: columns.time + 1,
                                       message: "expected a local time YYYY-MM-DD HH:MM:SS (or with a T), found \"\(fields[columns.time])\"")
            }
            let kind: AppEvent.Kind
            switch (format, fields[columns.event]) {
            case (.lsapp, "Opened"), (.events, "open"): kind = .open
            case (.lsapp, "Closed"), (.events, "close"): kind = .close
            case (.lsapp, "User Interaction"): kind = .interaction
            case (.lsapp, "Broken"): kind = .broken
            default:
                let allowed = format == .lsapp ? "Opened, Closed, User Interaction or Broken" : "open or close"
                throw TraceFormatError(file: file, line: lineNumber, column: columns.event + 1,
                                       message: "expected an event \(allowed), found \"\(fields[columns.event])\"")
            }
            if byUser[user] == nil { order.append(user) }
            byUser[user, default: []].append(AppEvent(time: time, app: app, kind: kind, line: lineNumber))
        }
        guard sawHeader else { throw TraceFormatError(file: file, line: 1, column: 0, message: "empty file; expected a header") }
        return order.map { ($0, byUser[$0]!) }
    }

    /// "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DDTHH:MM:SS" → seconds since the
    /// epoch, as wall-clock time (no zone); nil when malformed or out of
    /// range (years 1970–2200).
    public static func parseLocalTime(_ s: String) -> Int64? {
        let u = Array(s.utf8)
        guard u.count == 19, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              u[10] == UInt8(ascii: " ") || u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":") else { return nil }
        func number(_ a: Int, _ b: Int) -> Int? {
            var v = 0
            for i in a..<b {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = number(0, 4), let m = number(5, 7), let d = number(8, 10),
              let hh = number(11, 13), let mm = number(14, 16), let ss = number(17, 19),
              (1970...2200).contains(y), (1...12).contains(m), hh < 24, mm < 60, ss < 60 else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        guard (1...length).contains(d) else { return nil }
        return (daysFromCivil(y, m, d) * 86_400) + Int64(hh * 3600 + mm * 60 + ss)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
    /// algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int64(era * 146_097 + doe - 719_468)
    }
}
