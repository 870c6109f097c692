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
/// Owns: the cursor (an ``IntervalCursor``) and the boundary it gives. The
/// screen and the foreground app are device state (`DeviceState`, which
/// the policy reads through its context); the handlers write them.
struct SessionStream {
    private var cursor: IntervalCursor<DeviceTrace.Session>

    init(_ sessions: [DeviceTrace.Session]) {
        cursor = IntervalCursor(sessions)
    }

    /// The session that starts or ends next.
    @inline(__always)
    var index: Int { cursor.index }
    /// Whether the session at `index` is under way.
    @inline(__always)
    var inSession: Bool { cursor.inside }
    /// The next session boundary (`.farFuture`: none).
    @inline(__always)
    var nextBoundary: SimTime { cursor.nextBoundary }

    /// The session at `nextBoundary`: starting, or under way.
    @inline(__always)
    var current: DeviceTrace.Session { cursor.current }

    /// The next session starts now; returns it.
    @inline(__always)
    mutating func begin() -> DeviceTrace.Session {
        cursor.enter()
        return cursor.current
    }

    /// The session under way ends now; returns it.
    @inline(__always)
    mutating func end() -> DeviceTrace.Session {
        let s = cursor.current
        cursor.leave()
        return s
    }
}
