import SimCore

/// The per-device `BGTaskScheduler`: permitted identifiers, pending
/// requests and the submission rules (Docs/Semantics.md, rule 2).
public struct BackgroundTaskScheduler: Sendable {
    /// One app's registration (`BGTaskSchedulerPermittedIdentifiers`).
    public struct App: Sendable, Hashable {
        /// Permitted identifiers and the kind each one is registered for.
        public var identifiers: [(name: String, kind: TaskKind)]
        /// The Background App Refresh switch.
        public var backgroundAppRefreshEnabled: Bool

        public init(identifiers: [(name: String, kind: TaskKind)], backgroundAppRefreshEnabled: Bool = true) {
            self.identifiers = identifiers
            self.backgroundAppRefreshEnabled = backgroundAppRefreshEnabled
        }

        public static func == (a: App, b: App) -> Bool {
            a.backgroundAppRefreshEnabled == b.backgroundAppRefreshEnabled
                && a.identifiers.map(\.name) == b.identifiers.map(\.name)
                && a.identifiers.map(\.kind) == b.identifiers.map(\.kind)
        }
        public func hash(into h: inout Hasher) { h.combine(identifiers.map(\.name)) }
    }

    /// Pending app-refresh (and legacy fetch) requests allowed per app
    /// (``OSRules/maxPendingRefreshPerApp``).
    public let maxPendingRefresh: Int
    /// Pending processing requests allowed per app (``OSRules/maxPendingProcessingPerApp``).
    public let maxPendingProcessing: Int

    public private(set) var apps: [App]
    /// Pending requests in submission order.
    public private(set) var pending: [TaskRequest] = []
    private var nextID: UInt32 = 1
    /// Where the last successful `submit` removed the request it replaced
    /// from `pending` (−1: it replaced none). The simulator keeps its plans
    /// in step from it (`pendingChangedByScheduler`) instead of comparing
    /// the two lists id by id.
    private(set) var lastReplaced = -1
    /// `apps` flattened for `submit`: app a's identifier kinds are
    /// `kinds[registration[a].first ..< registration[a].first + registration[a].count]`.
    /// Why: `submit` runs once or twice per simulated task, and reading the
    /// kind through `apps[a]` copied the registration (a retain and release
    /// of its identifier list, strings included) each time. One record per
    /// app: one bounds check for the three fields (they were three arrays).
    private let kinds: [TaskKind]
    private struct Registration { var first: Int32; var count: Int32; var refreshEnabled: Bool }
    private let registration: [Registration]

    public init(apps: [App], rules: OSRules = .standard) {
        self.apps = apps
        maxPendingRefresh = rules.maxPendingRefreshPerApp
        maxPendingProcessing = rules.maxPendingProcessingPerApp
        var kinds: [TaskKind] = [], registration: [Registration] = []
        for app in apps {
            registration.append(Registration(first: Int32(kinds.count), count: Int32(app.identifiers.count),
                                             refreshEnabled: app.backgroundAppRefreshEnabled))
            kinds += app.identifiers.map(\.kind)
        }
        self.kinds = kinds
        self.registration = registration
        pending.reserveCapacity(apps.count * 2)
    }

    /// Index of `identifier` among the app's permitted identifiers.
    public func identifierIndex(app: Int32, _ identifier: String) -> Int32? {
        apps[Int(app)].identifiers.firstIndex { $0.name == identifier }.map(Int32.init)
    }

    /// `BGTaskScheduler.submit`: replaces a pending request with the same
    /// identifier; enforces the per-app limits and the permitted identifiers.
    public mutating func submit(app: Int32, identifier: String, earliestBegin: SimTime,
                                requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false,
                                at now: SimTime) -> Result<TaskRequest, SubmitError> {
        guard let index = identifierIndex(app: app, identifier) else { return .failure(.notPermitted) }
        return submit(app: app, identifierIndex: index, earliestBegin: earliestBegin,
                      requiresExternalPower: requiresExternalPower,
                      requiresNetworkConnectivity: requiresNetworkConnectivity, at: now)
    }

    /// `submit` by identifier index (the simulator's allocation-free path).
    public mutating func submit(app: Int32, identifierIndex: Int32, earliestBegin: SimTime,
                                requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false,
                                at now: SimTime) -> Result<TaskRequest, SubmitError> {
        let r = registration[Int(app)]
        guard identifierIndex >= 0 && identifierIndex < r.count else { return .failure(.notPermitted) }
        // 0 ≤ identifierIndex < r.count and r.first + r.count ≤ kinds.count:
        // the sum cannot overflow (`&+`, no test), and it is in range (read
        // through the buffer, no bounds check).
        let kind = kinds.withUnsafeBufferPointer { $0[Int(r.first &+ identifierIndex)] }
        if kind != .processing && !r.refreshEnabled { return .failure(.unavailable) }
        // The request being replaced does not count against the limit.
        var sameKind = 0
        var replaced = -1
        pending.withUnsafeBufferPointer { list in
            for i in list.indices where list[i].app == app {
                if list[i].identifier == identifierIndex { replaced = i } else if list[i].kind == kind { sameKind += 1 }
            }
        }
        let limit = kind == .processing ? maxPendingProcessing : maxPendingRefresh
        if sameKind >= limit { return .failure(.tooManyPendingTaskRequests) }
        let request = TaskRequest(id: RequestID(nextID), app: app, identifier: identifierIndex, kind: kind,
                                  earliestBegin: earliestBegin,
                                  requiresExternalPower: kind == .processing && requiresExternalPower,
                                  requiresNetworkConnectivity: requiresNetworkConnectivity, submittedAt: now)
        nextID &+= 1
        lastReplaced = replaced
        if replaced >= 0 {
            // Remove the replaced request and append the new one, as one
            // shift of the requests after it (no remove-then-append, which
            // moved them and then checked capacity again).
            pending.withUnsafeMutableBufferPointer { list in
                for i in replaced ..< list.count - 1 { list[i] = list[i + 1] }
                list[list.count - 1] = request
            }
        } else {
            pending.append(request)
        }
        return .success(request)
    }

    /// `cancel(taskRequestWithIdentifier:)`.
    public mutating func cancel(app: Int32, identifier: String) {
        guard let index = identifierIndex(app: app, identifier) else { return }
        pending.removeAll { $0.app == app && $0.identifier == index }
    }

    /// `cancel(taskRequestWithIdentifier:)` by identifier index (the
    /// simulator's path): removes the app's pending request with that
    /// identifier and returns it with the place it had in `pending`, or nil
    /// when none is pending.
    public mutating func cancel(app: Int32, identifierIndex: Int32) -> (request: TaskRequest, index: Int)? {
        guard let i = pending.firstIndex(where: { $0.app == app && $0.identifier == identifierIndex }) else { return nil }
        return (pending.remove(at: i), i)
    }

    /// `cancelAllTaskRequests()`.
    public mutating func cancelAll(app: Int32) {
        pending.removeAll { $0.app == app }
    }

    /// `getPendingTaskRequests`.
    public func pendingRequests(app: Int32) -> [TaskRequest] {
        pending.filter { $0.app == app }
    }

    /// Removes and returns the pending request `id` (it is about to run).
    mutating func take(_ id: RequestID) -> TaskRequest? {
        guard let i = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: i)
    }

    /// Puts back a request that was queued but could not start, unless the
    /// app has meanwhile submitted a replacement for its identifier.
    mutating func restore(_ request: TaskRequest) {
        guard !pending.contains(where: { $0.app == request.app && $0.identifier == request.identifier }) else { return }
        pending.append(request)
    }

    /// Exchanges the pending list with `other` (no copy, no reference
    /// counting): the simulator lends the list to the policy's context.
    @inline(__always)
    mutating func swapPending(with other: inout [TaskRequest]) { swap(&pending, &other) }

    func index(of id: RequestID) -> Int? { pending.firstIndex { $0.id == id } }

    mutating func remove(at i: Int) -> TaskRequest { pending.remove(at: i) }
}
