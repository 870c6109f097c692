import SimCore

/// Identifies one submitted request (unique within one simulated device).
@frozen
public struct RequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt32
    @inlinable public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public static func < (a: RequestID, b: RequestID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// The kinds of background work the simulated OS knows.
@frozen
public enum TaskKind: UInt8, Sendable, Hashable, CaseIterable {
    /// `BGAppRefreshTaskRequest`: short (30 s budget), refreshes content.
    case appRefresh = 0
    /// `BGProcessingTaskRequest`: minutes, screen off only.
    case processing = 1
    /// Legacy Background Fetch (`setMinimumBackgroundFetchInterval`): the
    /// system keeps it pending; the app reports `.newData/.noData/.failed`.
    case legacyFetch = 2

    public var name: String {
        switch self {
        case .appRefresh: "refresh"
        case .processing: "processing"
        case .legacyFetch: "fetch"
        }
    }

    /// Refresh and fetch both refresh the app's content and are subject to
    /// the Low Power Mode / low battery rule.
    @inlinable public var refreshesContent: Bool { self != .processing }
}

/// A pending request, as the scheduler holds it and policies see it.
@frozen
public struct TaskRequest: Sendable, Hashable {
    public var id: RequestID
    /// Index of the app in the trace's app list.
    public var app: Int32
    /// Index of the identifier in the app's permitted identifiers.
    public var identifier: Int32
    public var kind: TaskKind
    /// The task never starts before this (rule 1).
    public var earliestBegin: SimTime
    /// Processing only: runs only while charging.
    public var requiresExternalPower: Bool
    /// Runs only while online.
    public var requiresNetworkConnectivity: Bool
    /// When the app submitted it.
    public var submittedAt: SimTime

    public init(id: RequestID, app: Int32, identifier: Int32, kind: TaskKind, earliestBegin: SimTime,
                requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false,
                submittedAt: SimTime) {
        self.id = id
        self.app = app
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.submittedAt = submittedAt
    }
}

/// `BGTaskScheduler.Error.Code`.
public enum SubmitError: Error, Sendable, Hashable {
    /// The identifier is not in the app's permitted identifiers.
    case notPermitted
    /// Already 1 refresh or 10 processing requests pending for the app.
    case tooManyPendingTaskRequests
    /// Background App Refresh is off for the app.
    case unavailable
}
