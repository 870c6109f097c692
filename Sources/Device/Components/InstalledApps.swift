import SimCore

/// The apps on the device: their models (``AppModel``: work, behaviour
/// flags), their mutable state (``AppStateTable``: content cursor, last
/// fetch, processing progress, run counts) and the content their servers
/// publish (the trace's update times, per app).
///
/// Decides: what an app's copy of its content holds (`fetchContent`) and
/// how stale it is at a launch (`launchContent`). Raises: no events of its
/// own (content updates are read by cursor, never events); what an app
/// does at an event (submit, resubmit, retry, report) is in the handlers
/// that read its model.
struct InstalledApps {
    let models: [AppModel]
    /// Per-app bookkeeping (content cursor, last fetch, processing
    /// progress, …), run counts per task slot and wakes by hour (see
    /// `AppStateTable`: not Swift arrays, whose every write checked
    /// uniqueness).
    var state: AppStateTable
    /// Per app, the times its content was updated, sorted.
    let contentUpdates: [[SimTime]]

    init(models: [AppModel], contentUpdates: [[SimTime]]) {
        self.models = models
        self.contentUpdates = contentUpdates
        state = AppStateTable(appCount: models.count)
    }

    /// A copy of a simulator shares the table (a class): makes it this one's own.
    mutating func makeStateUnique() {
        if !isKnownUniquelyReferenced(&state) { state = state.copy() }
    }

    /// The app's content at a launch at `now`, before the foreground fetch:
    /// whether an update it does not hold is out (stale), the age of the
    /// oldest such update and the time since its last fetch, s.
    @inline(__always)
    func launchContent(app: Int, at now: SimTime) -> (stale: Bool, ageSeconds: Double, sinceRefreshSeconds: Double) {
        let updates = contentUpdates[app]
        let c = state[app].updateCursor
        let stale = c < updates.count && updates[c] <= now
        // Times are far from Int64's range (`lastFetch` starts at zero,
        // updates are trace times): wrapping subtractions (`.seconds` of the
        // difference, as before), no overflow tests.
        let age = stale ? Double(now.microseconds &- updates[c].microseconds) / 1_000_000 : 0
        let since = Double(now.microseconds &- state[app].lastFetch.microseconds) / 1_000_000
        return (stale, age, since)
    }

    /// The app's copy now includes every update published up to `t`.
    /// Returns whether anything new came in. Inlined into its two callers
    /// (a task's success, a launch's foreground fetch): short, and called at
    /// most task ends.
    @inline(__always)
    mutating func fetchContent(app: Int, at t: SimTime) -> Bool {
        let updates = contentUpdates[app]
        var c = state[app].updateCursor
        let start = c
        // Through the buffer: `c` starts at a stored cursor (≥ 0), so no
        // sign test and no overflow test per update read.
        updates.withUnsafeBufferPointer { u in
            while c < u.count && u[c] <= t { c &+= 1 }
        }
        state[app].updateCursor = c
        if t > state[app].lastFetch { state[app].lastFetch = t }
        return c > start
    }
}
