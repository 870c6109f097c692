import SimCore

/// The user's foreground sessions: a cursor over the trace's time-sorted
/// sessions.
///
/// Decides: when the next session boundary falls — the end of the session
/// under way, or else the start of the next one (`nextBoundary`;
/// `.farFuture` after the last session) — and which session that is.
///
/// Raises: the loop's session start and session end events. Their handlers
/// (`DeviceSimulator.startSession` and `endSession`,
/// DeviceSimulator+Sessions.swift) switch the screen, set the foreground
/// app, record the launch, expire processing work and tell the policy:
/// they touch other components, so they belong to the wiring.
///
/// Owns: the cursor (`index`, `inSession`) and the boundary it gives. The
/// screen and the foreground app are device state (`DeviceState`, which
/// the policy reads through its context); the handlers write them.
struct SessionStream {
    let sessions: [DeviceTrace.Session]
    /// The session that starts or ends next.
    private(set) var index = 0
    /// Whether the session at `index` is under way.
    private(set) var inSession = false
    /// The next session boundary (`.farFuture`: none).
    private(set) var nextBoundary: SimTime = .farFuture

    init(_ sessions: [DeviceTrace.Session]) {
        self.sessions = sessions
        cursorMoved()
    }

    /// The session at `nextBoundary`: starting, or under way.
    @inline(__always)
    var current: DeviceTrace.Session { sessions[index] }

    /// The next session starts now; returns it.
    @inline(__always)
    mutating func begin() -> DeviceTrace.Session {
        inSession = true
        cursorMoved()
        return sessions[index]
    }

    /// The session under way ends now; returns it.
    @inline(__always)
    mutating func end() -> DeviceTrace.Session {
        let s = sessions[index]
        inSession = false
        index += 1
        cursorMoved()
        return s
    }

    /// Recomputes the next boundary from the cursor.
    @inline(__always)
    private mutating func cursorMoved() {
        if index < sessions.count {
            let s = sessions[index]
            nextBoundary = inSession ? s.end : s.start
        } else {
            nextBoundary = .farFuture
        }
    }
}
