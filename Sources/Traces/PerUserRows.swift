// The rules of the five per-user files (sessions, charging, Low Power Mode,
// network, content updates; Datasets/README.md), in one place: each file is
// read user by user through its own cursor (`UserRowCursor`), whose
// `take…(position)` method for that file returns the user's rows checked.
// Both readers use them: `TraceSetStream` one user at a time,
// `TraceSetReader.read` by draining the stream.
//
// Rows are grouped by user in users.csv order, so a user's rows are the
// rows from the cursor on that name the user; the first row of a later user
// stays at the cursor for its own `take…`. A user may have no rows in
// sessions, charging or content (a quiet user); Low Power Mode and network
// must be complete for every user.
import Foundation
import SimCore

/// What the row rules need to know of the set: where each user id stands,
/// the apps and the horizon.
struct UserRowContext {
    let position: [Int: Int]
    /// `position` as an array for small ids (-1: unknown): one load per
    /// row instead of a hash lookup, ids being 0..<n in practice.
    let dense: [Int]
    /// The user id at each position (for messages).
    let ids: [Int]
    let appCount: Int
    let horizon: Int64
    let days: Int

    init(_ header: TraceSetHeader) {
        ids = header.profiles.map(\.index)
        position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var dense = [Int](repeating: -1, count: min((position.keys.max() ?? -1) + 1, 4 * position.count + 16))
        for (id, pos) in position where id < dense.count { dense[id] = pos }
        self.dense = dense
        appCount = header.apps.count
        horizon = header.horizon.microseconds
        days = header.days
    }

    /// The position of the row's user, checking that users come in the
    /// users.csv order. Inlined (as are `interval` and the field parsers)
    /// because it runs on every row of every per-user file.
    @inline(__always)
    func user(_ row: CSVRow, after previous: Int?) throws -> Int {
        let id = try row.int(1, min: 0, what: "a user index")
        let known = id < dense.count ? (dense[id] >= 0 ? dense[id] : nil) : position[id]
        guard let pos = known else { throw row.error(1, "unknown user \(id): not in users.csv") }
        if let previous, pos < previous {
            throw row.error(1, "expected rows grouped by user in users.csv order; user \(id) comes after a later user")
        }
        return pos
    }

    /// [start, end) in columns 2 and 3, inside [0, horizon], start < end.
    @inline(__always)
    func interval(_ row: CSVRow) throws -> (Int64, Int64) {
        // The messages capture the horizon alone, not `self` (capturing the
        // struct would retain its dictionary and arrays on every row).
        let horizon = self.horizon
        let s = try row.int64(2, in: 0...horizon, what: "a start time in µs in [0, \(horizon)] (the horizon)")
        let e = try row.int64(3, in: 0...horizon, what: "an end time in µs in [0, \(horizon)] (the horizon)")
        guard e > s else { throw row.error(3, "expected end_us > start_us (\(s)), found \(e)") }
        return (s, e)
    }
}

/// One per-user file being read user by user: its cursor, the last user
/// whose rows it has given (rows of an earlier user after it are out of
/// order) and the line of the last row taken.
struct UserRowCursor {
    let cursor: CSVCursor
    var previous: Int?
    var lastLine = 1

    init(_ dir: URL, _ file: String) throws { cursor = try CSVCursor(dir, file) }

    /// Hands `body` each row of the user at `pos` (checked for its field
    /// count and user); returns the line of the first row of a later user,
    /// nil at the end of the file.
    @inline(__always)
    mutating func rows(of pos: Int, _ ctx: UserRowContext, _ body: (CSVRow) throws -> Void) throws -> Int? {
        var stop: Int?
        var previous = self.previous, lastLine = self.lastLine
        defer { self.previous = previous; self.lastLine = lastLine }
        try cursor.scan { row in
            try row.expectCount()
            let p = try ctx.user(row, after: previous)
            guard p == pos else {
                // A later user's row: its own `take…` reads it. (An earlier
                // one cannot reach here: `user` rejects it above.)
                stop = row.line
                return false
            }
            try body(row)
            previous = p
            lastLine = row.line
            return true
        }
        return stop
    }

    /// An error about the whole of a user's rows, placed at the line after
    /// them: `stop` (what `rows` returned: the next user's first row) or,
    /// at the end of the file, the line after the last.
    func errorAfterRows(_ stop: Int?, _ message: String) -> TraceFormatError {
        TraceFormatError(file: cursor.file, line: stop ?? lastLine + 1, column: 0, message: message)
    }

    /// After the last user: any row left is out of order or of an unknown user.
    mutating func expectEnd(_ ctx: UserRowContext) throws {
        let previous = self.previous
        try cursor.scan { row in
            try row.expectCount()
            let pos = try ctx.user(row, after: previous)
            throw row.error(1, "expected rows grouped by user in users.csv order; user \(ctx.ids[pos]) comes after a later user")
        }
    }
}

/// Each file's rules, one `take…` method per file: the user's rows, checked.
extension UserRowCursor {
    /// The rows of the user at `pos`, each made a value by `value`, which
    /// is handed the row and the user's values so far (a row's rules are
    /// about the rows before it); and where `rows` stopped.
    @inline(__always)
    mutating func values<T>(of pos: Int, _ ctx: UserRowContext,
                            _ value: (CSVRow, [T]) throws -> T) throws -> (values: [T], stop: Int?) {
        var values: [T] = []
        let stop = try rows(of: pos, ctx) { row in
            let v = try value(row, values)
            values.append(v)
        }
        return (values, stop)
    }

    /// sessions.csv: sorted, not overlapping, inside the horizon, known apps.
    @inline(__always)
    mutating func takeSessions(_ pos: Int, _ ctx: UserRowContext) throws -> [Session] {
        try values(of: pos, ctx) { row, sessions in
            let (s, e) = try ctx.interval(row)
            let app = try row.int(4, min: 0, what: "an app index")
            guard app < ctx.appCount else { throw row.error(4, "unknown app \(app): apps.csv has 0..<\(ctx.appCount)") }
            if let previousEnd = sessions.last?.end.microseconds, s < previousEnd {
                throw row.error(2, "expected sessions sorted and not overlapping: start \(s) is before the previous session's end \(previousEnd)")
            }
            return Session(start: SimTime(microseconds: s), end: SimTime(microseconds: e), app: app)
        }.values
    }

    /// charging.csv: sorted, not overlapping, inside the horizon.
    mutating func takeCharging(_ pos: Int, _ ctx: UserRowContext) throws -> [ChargingInterval] {
        try values(of: pos, ctx) { row, charging in
            let (s, e) = try ctx.interval(row)
            if let last = charging.last, s < last.end.microseconds {
                throw row.error(2, "expected charging intervals sorted and not overlapping: start \(s) is before the previous interval's end \(last.end.microseconds)")
            }
            return ChargingInterval(start: SimTime(microseconds: s), end: SimTime(microseconds: e))
        }.values
    }

    /// low_power_mode.csv: every user has exactly 2 · days rows: day 0 at 20
    /// then 10, day 1, ...
    mutating func takeLowPowerMode(_ pos: Int, _ ctx: UserRowContext) throws -> [LowPowerModeDecision] {
        let (decisions, stop): ([LowPowerModeDecision], Int?) = try values(of: pos, ctx) { row, decisions in
            let n = decisions.count
            let day = try row.int(2, min: 0, what: "a day index")
            let threshold = try row.int(3, min: 0, what: "20 or 10")
            let accepts = try row.bool(4)
            guard day == n / 2 else {
                throw row.error(2, "expected day \(n / 2) (one row per day and threshold, days in order, each day 0..<\(ctx.days) once), found \(day)")
            }
            guard day < ctx.days else { throw row.error(2, "expected a day in 0..<\(ctx.days), found \(day)") }
            let expected = n % 2 == 0 ? 20 : 10
            guard threshold == expected else { throw row.error(3, "expected threshold \(expected) (20 then 10 each day), found \(threshold)") }
            return LowPowerModeDecision(day: day, thresholdPercent: threshold, accepts: accepts)
        }
        guard decisions.count == 2 * ctx.days else {
            throw errorAfterRows(stop, "user \(ctx.ids[pos]) has \(decisions.count) decisions; expected \(2 * ctx.days) (day 0..<\(ctx.days), thresholds 20 and 10)")
        }
        return decisions
    }

    /// network.csv: every user's intervals tile [0, horizon): first at 0, each
    /// starting at the previous end, last ending at the horizon.
    mutating func takeNetwork(_ pos: Int, _ ctx: UserRowContext) throws -> [NetworkInterval] {
        let (network, stop): ([NetworkInterval], Int?) = try values(of: pos, ctx) { row, network in
            let (s, e) = try ctx.interval(row)
            let expectedStart = network.last?.end.microseconds ?? 0
            guard s == expectedStart else {
                let what = s < expectedStart ? "overlaps the previous interval" : "leaves a gap"
                throw row.error(2, "expected start_us \(expectedStart) (intervals tile [0, horizon) with no gaps or overlaps); \(s) \(what)")
            }
            guard let kind = NetworkKind(rawValue: String(row[3])) else {
                throw row.error(4, "expected wifi, cellular or offline, found \"\(row[3])\"")
            }
            return NetworkInterval(start: SimTime(microseconds: s), end: SimTime(microseconds: e), kind: kind)
        }
        let end = network.last?.end.microseconds
        guard end == ctx.horizon else {
            let found = end.map { "they end at \($0)" } ?? "there are none"
            throw errorAfterRows(stop, "user \(ctx.ids[pos]): expected network intervals tiling [0, \(ctx.horizon)); \(found)")
        }
        return network
    }

    /// content_updates.csv: a user's rows sorted by app, then time; times in
    /// [0, horizon). Read row by row rather than as `values`: a user's rows
    /// become one array per app.
    @inline(__always)
    mutating func takeContent(_ pos: Int, _ ctx: UserRowContext) throws -> [[SimTime]] {
        // The current app's times in a local array, moved into the user's
        // per-app arrays when the app changes, so that each row appends to
        // one uniquely held array rather than through two subscripts.
        var updates = [[SimTime]](repeating: [], count: ctx.appCount)
        var times: [SimTime] = []
        var previousApp = 0
        var previousTime = Int64.min  // of the current app's last update
        let horizon = ctx.horizon  // captured alone (see `interval`)
        _ = try rows(of: pos, ctx) { row in
            let app = try row.int(2, min: 0, what: "an app index")
            guard app < ctx.appCount else { throw row.error(2, "unknown app \(app): apps.csv has 0..<\(ctx.appCount)") }
            if app < previousApp {
                throw row.error(2, "expected a user's rows sorted by app, then time; app \(app) comes after app \(previousApp)")
            }
            let t = try row.int64(3, in: 0...(horizon - 1), what: "a time in µs in [0, \(horizon)) (the horizon)")
            if app == previousApp, t < previousTime {
                throw row.error(3, "expected times in non-decreasing order; \(t) is before the previous update \(previousTime)")
            }
            if app != previousApp {
                updates[previousApp] = times
                times = []
            }
            times.append(SimTime(microseconds: t))
            previousApp = app
            previousTime = t
        }
        if !times.isEmpty { updates[previousApp] = times }
        return updates
    }

    /// battery_level.csv (optional, measured): a user's readings in strictly
    /// increasing time inside [0, horizon], levels in [0, 100] %.
    mutating func takeBatteryLevel(_ pos: Int, _ ctx: UserRowContext) throws -> [BatteryLevelSample] {
        let horizon = ctx.horizon  // captured alone (see `interval`)
        return try values(of: pos, ctx) { row, samples in
            let t = try row.int64(2, in: 0...horizon, what: "a time in µs in [0, \(horizon)] (the horizon)")
            if let last = samples.last, t <= last.time.microseconds {
                throw row.error(2, "expected a user's readings in strictly increasing time; \(t) is not after the previous reading \(last.time.microseconds)")
            }
            let percent = try row.real(3, in: 0..<100.000_000_1, what: "a battery level in [0, 100] %")
            return BatteryLevelSample(time: SimTime(microseconds: t), percent: percent)
        }.values
    }
}
