// Turns one user's real open/close events into the trace-set's sessions:
// sorted, non-overlapping, at least 1 s apart, and says what it repaired or
// dropped (`ImportReport`).

/// Counts of what an import repaired or dropped, for the report.
public struct ImportReport: Sendable, Equatable {
    public var events = 0
    public var sessions = 0
    /// An open while another app was in front: the other session was closed
    /// at this open (real logs miss closes).
    public var closedAtNextOpen = 0
    /// An open with no close before the log ends: dropped.
    public var unpairedOpensDropped = 0
    /// A close with no open before it: dropped.
    public var unpairedClosesDropped = 0
    /// A second open of the app already in front: ignored.
    public var duplicateOpensIgnored = 0
    /// A session shorter than 1 s (close at or right after its open): set to 1 s.
    public var lengthenedToOneSecond = 0
    /// A session starting before the previous one ended (+ 1 s gap): moved later.
    public var overlapsMoved = 0
    /// LSApp "User Interaction" events (no change of the app in front).
    public var interactionsIgnored = 0
    /// LSApp "Broken" events: ignored.
    public var brokenIgnored = 0
    /// Users whose events gave no session: left out of the trace set.
    public var usersWithoutSessionsDropped = 0

    public init() {}

    public static func + (a: ImportReport, b: ImportReport) -> ImportReport {
        var r = a
        r.events += b.events; r.sessions += b.sessions; r.closedAtNextOpen += b.closedAtNextOpen
        r.unpairedOpensDropped += b.unpairedOpensDropped; r.unpairedClosesDropped += b.unpairedClosesDropped
        r.duplicateOpensIgnored += b.duplicateOpensIgnored; r.lengthenedToOneSecond += b.lengthenedToOneSecond
        r.overlapsMoved += b.overlapsMoved; r.interactionsIgnored += b.interactionsIgnored; r.brokenIgnored += b.brokenIgnored
        r.usersWithoutSessionsDropped += b.usersWithoutSessionsDropped
        return r
    }

    /// One line per non-zero count.
    public var lines: [String] {
        [("events read", events), ("sessions written", sessions),
         ("sessions closed at the next open (missing close)", closedAtNextOpen),
         ("opens without a close dropped (end of log)", unpairedOpensDropped),
         ("closes without an open dropped", unpairedClosesDropped),
         ("duplicate opens ignored", duplicateOpensIgnored),
         ("sessions lengthened to 1 s", lengthenedToOneSecond),
         ("overlapping sessions moved later", overlapsMoved),
         ("User Interaction events ignored", interactionsIgnored),
         ("Broken events ignored", brokenIgnored),
         ("users without any session dropped", usersWithoutSessionsDropped)]
            .filter { $0.1 > 0 || $0.0 == "events read" || $0.0 == "sessions written" }
            .map { "\($0.0): \($0.1)" }
    }
}

enum SessionBuilder {
    /// (start, end) in seconds since the epoch and the app name, sorted, no
    /// overlaps, each ≥ 1 s, ≥ 1 s apart; with the report of repairs.
    static func sessions(_ events: [AppEvent]) -> (sessions: [(start: Int64, end: Int64, app: String)], report: ImportReport) {
        var report = ImportReport()
        report.events = events.count
        // Stable sort by time: the file order breaks ties.
        let sorted = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var raw: [(start: Int64, end: Int64, app: String)] = []
        var open: (start: Int64, app: String)?
        for e in sorted {
            switch e.kind {
            case .interaction: report.interactionsIgnored += 1
            case .broken: report.brokenIgnored += 1
            case .open:
                if let o = open {
                    if o.app == e.app { report.duplicateOpensIgnored += 1; continue }
                    raw.append((o.start, e.time, o.app))
                    report.closedAtNextOpen += 1
                }
                open = (e.time, e.app)
            case .close:
                guard let o = open, o.app == e.app else { report.unpairedClosesDropped += 1; continue }
                raw.append((o.start, e.time, o.app))
                open = nil
            }
        }
        if open != nil { report.unpairedOpensDropped += 1 }
        var out: [(start: Int64, end: Int64, app: String)] = []
        var free = Int64.min
        for s in raw {
            var start = s.start, end = s.end
            if start < free { report.overlapsMoved += 1; end += free - start; start = free }
            if end - start < 1 { report.lengthenedToOneSecond += 1; end = start + 1 }
            out.append((start, end, s.app))
            free = end + 1
        }
        report.sessions = out.count
        return (out, report)
    }
}
