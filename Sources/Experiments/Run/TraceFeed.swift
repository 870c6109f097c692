import Foundation
import Traces

/// The users of a trace-set world, read from the set's stream for a run's
/// work items as the workers take them (`WorkQueue.map(_:threads:input:_:)`),
/// so that a run holds a few users' traces at a time, not the set.
///
/// Items are (replication, user) pairs, replication-major: each replication
/// is one pass over the set, front to back. A pass starts at the first item
/// of the run (a shard may start mid-set; the users before it are read and
/// checked, not kept) and is read to its end before the next pass or when
/// the run ends (`finish`), so that every run, and every shard, checks every
/// row of the set, as `validate` does.
///
/// `trace(item:)` is called by one thread at a time, in increasing item
/// order (the work queue's lock); `release` from any worker. That is what
/// makes the unchecked `Sendable` sound.
final class TraceFeed: @unchecked Sendable {
    private let directory: URL
    private let header: TraceSetHeader
    private var stream: TraceSetStream?
    private var replication = -1
    private let lock = NSLock()
    private var held = 0
    private var mostHeld = 0

    init(directory: URL, header: TraceSetHeader) {
        self.directory = directory
        self.header = header
    }

    /// The trace of work item `item`, read from the stream.
    func trace(item: Int) throws -> UserTrace {
        let users = header.profiles.count
        let r = item / users, u = item % users
        if r != replication {
            try finish()
            stream = try TraceSetStream(directory: directory, header: header)
            replication = r
        }
        let s = stream!
        while s.position < u { _ = try s.next() }
        guard s.position == u, let user = try s.next() else {
            preconditionFailure("trace items must be asked for in increasing order")
        }
        lock.withLock {
            held += 1
            mostHeld = max(mostHeld, held)
        }
        return user
    }

    /// A worker is done with the trace it took.
    func release() { lock.withLock { held -= 1 } }

    /// The most traces taken and not yet released at any moment of the run.
    var mostHeldAtOnce: Int { lock.withLock { mostHeld } }

    /// Reads and checks the rest of the current pass.
    func finish() throws {
        if let s = stream { while try s.next() != nil {} }
        stream = nil
    }
}
