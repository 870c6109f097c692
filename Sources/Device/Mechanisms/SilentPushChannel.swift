import SimCore

/// iOS's side of silent push on one device: the servers' pushes arrive in
/// time order; each is delivered now, held, coalesced into a held one, or
/// dropped. What it decides (Docs/Mechanisms.md, "Silent push"):
///
/// - **Throttle.** Each app has a token bucket (``SilentPushRules/burst``
///   tokens, refilled at ``SilentPushRules/perHour``); a delivery takes a
///   token. A push that finds no token is held until one is there.
/// - **Hold and coalesce.** At most one push per app is held; a push that
///   arrives while one is held is folded into it (one delivery, one fetch,
///   announcing both). A held push keeps the send time of its first push
///   (its delay is measured from there).
/// - **Gates.** The caller says, per push, whether the device lets it
///   through now (``Gate``): closed (Low Power Mode, low battery, offline:
///   held until the caller re-examines it, see ``isDue(_:at:)``), open from
///   a known time (the worker's transfer in flight), or open. App usage is
///   not a gate. A force-quit app's or a Background-App-Refresh-off app's
///   push is dropped (``DropReason``).
///
/// Why per-app arrays and a minimum scan rather than a priority queue:
/// arrivals are known in advance (one merged, sorted array
/// and a cursor); at most one push per app is held, so the held release
/// times are at most one per app, rescanned only when a push event happens
/// (a few per app and hour), never at the loop's other events.
struct SilentPushChannel {
    struct Arrival: Hashable { var time: SimTime; var app: Int32 }

    /// Whether the device lets a push through now.
    enum Gate: Hashable {
        case open
        /// Closed until the device state changes (Low Power Mode, low battery, offline).
        case closed
        /// Open from this time on (a background transfer in flight ends then).
        case openFrom(SimTime)
    }

    enum DropReason: String, Hashable { case forceQuit = "force_quit", backgroundAppRefreshOff = "background_app_refresh_off" }

    /// One delivery: the app, the send time of the first push it announces,
    /// and how many pushes it announces (1, or more when coalesced).
    struct Delivery: Hashable { var app: Int32; var firstSentAt: SimTime; var pushes: Int }

    enum Outcome: Hashable {
        case delivered(Delivery)
        case held
        case coalesced
        case dropped(DropReason, pushes: Int)
    }

    struct Held: Hashable {
        var firstSentAt: SimTime
        var pushes: Int
        /// When to re-examine it: `.farFuture` while its gate is closed.
        var releaseAt: SimTime
    }

    let rules: SilentPushRules
    /// Every server push of the run, by (time, app).
    let arrivals: [Arrival]
    private(set) var nextIndex = 0
    private var tokens: [Double]
    private var refilledAt: [SimTime]
    private(set) var held: [Held?]
    /// Held pushes whose gate was closed when last examined (re-examined at every step).
    private(set) var waitingForGate = 0
    /// The earliest release time of a held push (`.farFuture`: none).
    private(set) var nextRelease = SimTime.farFuture

    init(sendTimes: [[SimTime]], rules: SilentPushRules) {
        self.rules = rules
        var all: [Arrival] = []
        for (a, times) in sendTimes.enumerated() { for t in times { all.append(Arrival(time: t, app: Int32(a))) } }
        // Same instant: the lower app first (a fixed, documented tie order).
        all.sort { ($0.time, $0.app) < ($1.time, $1.app) }
        arrivals = all
        tokens = Array(repeating: rules.burst, count: sendTimes.count)
        refilledAt = Array(repeating: .zero, count: sendTimes.count)
        held = Array(repeating: nil, count: sendTimes.count)
    }

    var nextArrival: SimTime { nextIndex < arrivals.count ? arrivals[nextIndex].time : .farFuture }
    /// The channel's next event: an arrival or a held push's release.
    var nextTime: SimTime { min(nextArrival, nextRelease) }
    var heldCount: Int { held.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// The next arrival (the caller has checked `nextArrival`).
    mutating func takeArrival() -> Arrival {
        let a = arrivals[nextIndex]
        nextIndex += 1
        return a
    }

    /// What happens to a push of `arrival.app` arriving at `now`.
    mutating func offer(_ arrival: Arrival, at now: SimTime, gate: Gate, drop: DropReason?) -> Outcome {
        let a = Int(arrival.app)
        if let drop { return .dropped(drop, pushes: 1) }
        if held[a] != nil {
            held[a]!.pushes += 1
            return .coalesced
        }
        refill(a, at: now)
        if gate == .open && tokens[a] >= 1 {
            tokens[a] -= 1
            return .delivered(Delivery(app: arrival.app, firstSentAt: arrival.time, pushes: 1))
        }
        held[a] = Held(firstSentAt: arrival.time, pushes: 1, releaseAt: releaseTime(a, gate: gate, at: now))
        recomputeTimers()
        return .held
    }

    /// Whether app `app`'s held push should be examined at `now`: its
    /// release time has come, or it waits for a gate.
    func isDue(_ app: Int, at now: SimTime) -> Bool {
        guard let h = held[app] else { return false }
        return h.releaseAt <= now || h.releaseAt == .farFuture
    }

    /// Examines app `app`'s held push at `now` (see ``isDue(_:at:)``):
    /// delivered if the gate is open and a token is there, dropped if the
    /// app may no longer receive it, else still held (nil).
    mutating func examine(_ app: Int, at now: SimTime, gate: Gate, drop: DropReason?) -> Outcome? {
        guard let h = held[app] else { return nil }
        if let drop {
            held[app] = nil
            recomputeTimers()
            return .dropped(drop, pushes: h.pushes)
        }
        refill(app, at: now)
        if gate == .open && tokens[app] >= 1 {
            tokens[app] -= 1
            held[app] = nil
            recomputeTimers()
            return .delivered(Delivery(app: Int32(app), firstSentAt: h.firstSentAt, pushes: h.pushes))
        }
        held[app]!.releaseAt = releaseTime(app, gate: gate, at: now)
        recomputeTimers()
        return nil
    }

    /// Tokens of `app` after refilling to `now` (for tests and the log).
    func tokens(of app: Int, at now: SimTime) -> Double {
        min(rules.burst, tokens[app] + (now - refilledAt[app]).seconds * rules.perHour / 3600)
    }

    private mutating func refill(_ a: Int, at now: SimTime) {
        tokens[a] = tokens(of: a, at: now)
        refilledAt[a] = now
    }

    /// When app `a` (refilled to `now`) next has a whole token, not before
    /// the gate opens; `.farFuture` while the gate is closed.
    private func releaseTime(_ a: Int, gate: Gate, at now: SimTime) -> SimTime {
        let opens: SimTime
        switch gate {
        case .closed: return .farFuture
        case .open: opens = now
        case .openFrom(let t): opens = max(now, t)
        }
        let missing = 1 - tokens[a]
        guard missing > 0 else { return opens }
        // Rounded up to the next µs, so that the token is whole then.
        let micros = (missing * 3600 / rules.perHour * 1e6).rounded(.up)
        return max(opens, SimTime(microseconds: now.microseconds + Int64(micros)))
    }

    private mutating func recomputeTimers() {
        var earliest = SimTime.farFuture
        var waiting = 0
        for case let h? in held {
            if h.releaseAt == .farFuture { waiting += 1 } else { earliest = min(earliest, h.releaseAt) }
        }
        nextRelease = earliest
        waitingForGate = waiting
    }
}
