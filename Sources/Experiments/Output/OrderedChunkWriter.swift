import Foundation

/// Writes chunks of text that worker threads produce out of order (one per
/// work item) to one file in item order, holding at most `window` chunks
/// that arrived early. A worker whose chunk is more than `window` ahead of
/// the next one to write waits; the worker holding the next item never
/// waits, so the queue always drains. Memory is bounded by the window times
/// the largest chunk, whatever the number of items — this is how
/// `events.csv` is streamed, byte-identical for any thread count.
final class OrderedChunkWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Int: String] = [:]
    private var next: Int
    private let window: Int
    private var cancelled = false
    /// The most chunks ever held at once (for the tests of the bound).
    private(set) var maxHeld = 0
    private var file: OutputStreamFile

    /// Items are numbered from `first`; `header` is written before any chunk.
    init(path: String, first: Int, window: Int, header: String) throws(OutputError) {
        self.next = first
        self.window = max(1, window)
        file = try OutputStreamFile(path: path)
        file.append(header)
    }

    /// Hands over item `index`'s chunk; blocks while it is too far ahead.
    func submit(_ index: Int, _ chunk: String) {
        condition.lock()
        defer { condition.unlock() }
        while index - next >= window && !cancelled { condition.wait(until: Date().addingTimeInterval(0.1)) }
        if cancelled { return }
        pending[index] = chunk
        maxHeld = max(maxHeld, pending.count)
        while let ready = pending.removeValue(forKey: next) {
            file.append(ready)
            next += 1
        }
        condition.broadcast()
    }

    /// Wakes every waiting worker and drops the rest (an interrupted run).
    func cancel() {
        condition.lock()
        cancelled = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Flushes and closes the file; throws the first write error.
    func finish() throws(OutputError) {
        condition.lock()
        defer { condition.unlock() }
        try file.close()
    }
}

/// An output file opened once and appended to in pieces (buffered, POSIX
/// writes, errors as ``OutputError`` with `strerror(errno)`).
struct OutputStreamFile {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var failure: String?

    init(path: String) throws(OutputError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, message: "cannot create (\(InputText.errnoText()))") }
        buffer.reserveCapacity(1 << 20)
    }

    mutating func append(_ text: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    mutating func append(bytes: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    private mutating func flush() {
        var offset = 0
        while offset < buffer.count && failure == nil {
            let n = buffer[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno != EINTR { failure = InputText.errnoText() }
                continue
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws(OutputError) {
        flush()
        if failure == nil, fsync(fd) != 0, errno != EINVAL { failure = InputText.errnoText() }
        if Foundation.close(fd) != 0, failure == nil { failure = InputText.errnoText() }
        if let failure { throw OutputError(path: path, message: "cannot write (\(failure))") }
    }
}
