import Foundation

/// Writes chunks of text that worker threads produce out of order (one per
/// work item, or `chunksPerItem` per item: one per configuration) to one
/// file in chunk order. The chunk that is next in order is written at once;
/// a chunk that arrives early waits in a spill file (or, without one, in
/// memory) until the chunks before it are written, so memory grows neither
/// with the chunks' size nor with the number of threads. A worker whose
/// item is `window` or more items ahead of the next one to write waits; the
/// worker holding the next chunk never waits, so the queue always drains.
/// This is how `events.csv` is streamed, byte-identical for any thread count.
///
/// Spill files: one per item slot of the window (item mod `window`), each
/// emptied (truncated) as soon as its item is written whole, so disk use is
/// bounded by the window too. They are unlinked as soon as they are opened:
/// nothing outlives the process or shows in the output.
final class OrderedChunkWriter: @unchecked Sendable {
    private let condition = NSCondition()
    /// A piece of an early chunk: in memory, or a byte range of its item's spill file.
    private enum Piece { case text(String), spilled(offset: Int, length: Int) }
    /// An early chunk: its pieces so far, and whether its last one came.
    private struct Held {
        var pieces: [Piece] = []
        var complete = false
    }
    private var pending: [Int: Held] = [:]
    private var next: Int
    private let window: Int
    private let chunksPerItem: Int
    private var cancelled = false
    /// The most chunks ever held at once (for the tests of the bound).
    private(set) var maxHeld = 0
    private var file: OutputStreamFile
    /// Per item slot: the spill file and its end (empty without spilling).
    private var spills: [Int32] = []
    private var spillEnds: [Int] = []
    /// The most bytes the spill files held at once (for the tests).
    private(set) var maxSpillBytes = 0

    /// Chunks are numbered from `first`; `header` is written before any chunk.
    /// `digesting`: count the rows and hash the bytes as they are written
    /// (a shard's ``FileDigest``, returned by ``finish()``). `spillPath`:
    /// where early chunks wait (nil: in memory); the slots' files are that
    /// path with the slot number appended.
    init(path: String, first: Int, window: Int, chunksPerItem: Int = 1, header: String, digesting: Bool = false,
         spillPath: String? = nil) throws(OutputError) {
        self.next = first
        self.window = max(1, window)
        self.chunksPerItem = max(1, chunksPerItem)
        file = try OutputStreamFile(path: path, digesting: digesting)
        file.append(header)
        if let spillPath {
            for slot in 0..<self.window {
                let name = spillPath + "-\(slot)"
                let fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard fd >= 0 else {
                    let reason = InputText.errnoText()
                    for other in spills { close(other) }
                    throw OutputError(path: name, message: "cannot create (\(reason))")
                }
                unlink(name)
                spills.append(fd)
                spillEnds.append(0)
            }
        }
    }

    deinit { for fd in spills { close(fd) } }

    /// Hands over chunk `index`, or a piece of it (`final: false`: more of
    /// the same chunk follows, so a long chunk need never be held whole);
    /// blocks while its item is too far ahead.
    func submit(_ index: Int, _ text: String, final: Bool = true) {
        condition.lock()
        defer { condition.unlock() }
        // The timeout only bounds a missed wake-up; the loop re-tests the
        // condition either way, so whether the wait timed out is not needed.
        while index / chunksPerItem - next / chunksPerItem >= window && !cancelled {
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
        }
        if cancelled { return }
        if index == next {
            // Pieces that waited while an earlier chunk was being written come first.
            if let held = pending.removeValue(forKey: index) { write(held.pieces, item: index / chunksPerItem) }
            file.append(text)
            guard final else { return }
            advance()
        } else {
            var held = pending[index] ?? Held()
            if !text.isEmpty { held.pieces.append(hold(text, item: index / chunksPerItem)) }
            held.complete = final
            pending[index] = held
            maxHeld = max(maxHeld, pending.count)
        }
        // Chunks that became next: written whole, or up to what has come
        // of one still being produced (its worker then writes the rest).
        while let held = pending[next] {
            write(held.pieces, item: next / chunksPerItem)
            guard held.complete else {
                pending[next] = Held()
                break
            }
            pending[next] = nil
            advance()
        }
        condition.broadcast()
    }

    /// Past the chunk just written; an item written whole frees its spill file.
    private func advance() {
        next += 1
        guard next % chunksPerItem == 0, !spills.isEmpty else { return }
        let slot = (next / chunksPerItem - 1) % window
        if spillEnds[slot] > 0 {
            _ = ftruncate(spills[slot], 0)
            spillEnds[slot] = 0
        }
    }

    private func hold(_ chunk: String, item: Int) -> Piece {
        guard !spills.isEmpty else { return .text(chunk) }
        let slot = item % window
        var chunk = chunk
        let offset = spillEnds[slot]
        let ok = chunk.withUTF8 { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let n = pwrite(spills[slot], bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        // A spill that fails (disk full) keeps the chunk in memory: the
        // output is the same, only the memory bound is lost.
        guard ok else { return .text(chunk) }
        spillEnds[slot] += chunk.utf8.count
        maxSpillBytes = max(maxSpillBytes, spillEnds.reduce(0, +))
        return .spilled(offset: offset, length: chunk.utf8.count)
    }

    private func write(_ pieces: [Piece], item: Int) {
        for piece in pieces { write(piece, item: item) }
    }

    private func write(_ piece: Piece, item: Int) {
        switch piece {
        case let .text(text):
            file.append(text)
        case let .spilled(offset, length):
            let fd = spills[item % window]
            var block = [UInt8](repeating: 0, count: min(length, 1 << 20))
            var done = 0
            while done < length {
                let n = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, length - done), off_t(offset + done)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    file.fail("cannot read back a spill file (\(n < 0 ? InputText.errnoText() : "end of file"))")
                    return
                }
                file.append(bytes: block[0..<n])
                done += n
            }
        }
    }

    /// Wakes every waiting worker and drops the rest (an interrupted run).
    func cancel() {
        condition.lock()
        cancelled = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Flushes and closes the file; throws the first write error. Returns
    /// the file's digest when made with `digesting`.
    @discardableResult
    func finish() throws(OutputError) -> FileDigest? {
        condition.lock()
        defer { condition.unlock() }
        try file.close()
        return file.digest
    }
}

/// An output file opened once and appended to in pieces (buffered, POSIX
/// writes, errors as ``OutputError`` with `strerror(errno)`).
struct OutputStreamFile {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var failure: String?
    /// Rows and SHA-256 of the bytes written, when asked for.
    private var digester: FileDigester?
    var digest: FileDigest? { digester?.digest }

    init(path: String, digesting: Bool = false) throws(OutputError) {
        self.path = path
        if digesting { digester = FileDigester() }
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, message: "cannot create (\(InputText.errnoText()))") }
        buffer.reserveCapacity(1 << 20)
    }

    mutating func append(_ text: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Records a failure other than a write (reported by ``close()``).
    mutating func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    mutating func append(bytes: ArraySlice<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { flush() }
    }

    private mutating func flush() {
        if digester != nil { buffer.withUnsafeBytes { digester!.add($0) } }
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
