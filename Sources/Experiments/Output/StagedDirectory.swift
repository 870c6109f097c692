import Foundation
import Synchronization

/// An output directory written as a whole: every file goes into a hidden
/// staging directory beside the target (`.<name>.staging-<pid>`, same file
/// system), which ``commit()`` renames onto the target at the end. A failure
/// or an interruption (``abort()``, or the CLI's signal handler through
/// ``removeAllStaging()``) removes the staging directory, so nothing
/// partial is ever visible and no temporary file is left.
///
/// Rules checked when it is created, before anything is simulated: an
/// existing non-empty target is refused unless `force` (and then replaced
/// whole, never mixed with the new files); a target that is, contains or
/// lies inside one of `inputs` (a trace set, an input shard) is always
/// refused; a path through a file or an unwritable parent is an I/O error.
public final class StagedDirectory: Sendable {
    /// The directory the result will have, as given.
    public let target: String
    /// Where the files are written until ``commit()``.
    public let path: String
    private let replacesExisting: Bool
    /// Parent directories this object created (deepest last), removed again
    /// if the result is never committed.
    private let createdParents: [String]

    public init(target: String, force: Bool, inputs: [String] = []) throws(OutputError) {
        self.target = target
        let absolute = Self.absolute(target)
        for input in inputs {
            let other = Self.absolute(input)
            if absolute == other || absolute.hasPrefix(other + "/") || other.hasPrefix(absolute + "/") {
                throw OutputError(path: target, message: "is or overlaps the input \(input); write the result somewhere else", refused: true)
            }
        }
        var info = stat()
        var exists = false
        if lstat(target, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputError(path: target, message: "exists and is not a directory", refused: true)
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
            exists = !entries.isEmpty
            if exists && !force {
                throw OutputError(path: target, message: "already exists; give --force to replace it whole, or another --out", refused: true)
            }
        } else if errno == ENOTDIR {
            throw OutputError(path: target, message: "cannot create (\(InputText.errnoText()): a parent is a file)")
        }
        replacesExisting = exists || lstat(target, &info) == 0
        let parent = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        var created: [String] = []
        try Self.makeParents(parent, created: &created)
        createdParents = created
        path = (parent as NSString).appendingPathComponent(".\(name).staging-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)")
        Self.removeTree(path)
        guard mkdir(path, 0o755) == 0 else {
            let reason = InputText.errnoText()
            Self.removeEmpty(created)
            throw OutputError(path: target, message: "cannot create the staging directory \(path) (\(reason))")
        }
        Self.live.withLock { $0[path] = created }
    }

    /// `name` inside the staging directory.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Moves the finished directory onto the target (replacing an existing
    /// one: it is first renamed aside, then removed).
    public func commit() throws(OutputError) {
        try Self.live.withLock { (live: inout [String: [String]]) throws(OutputError) in
            guard live[path] != nil else {
                throw OutputError(path: target, message: "interrupted; nothing was written")
            }
            var aside: String?
            if replacesExisting {
                let old = path.replacingOccurrences(of: ".staging-", with: ".replaced-")
                guard rename(target, old) == 0 else {
                    let reason = InputText.errnoText()
                    Self.removeTree(path); live[path] = nil
                    throw OutputError(path: target, message: "cannot replace the existing directory (\(reason))")
                }
                aside = old
            }
            guard rename(path, target) == 0 else {
                let reason = InputText.errnoText()
                if let aside { _ = rename(aside, target) }
                Self.removeTree(path); Self.removeEmpty(live[path] ?? []); live[path] = nil
                throw OutputError(path: target, message: "cannot move the finished result into place (\(reason))")
            }
            live[path] = nil
            if let aside { Self.removeTree(aside) }
        }
    }

    /// Removes the staging directory (after a failure).
    public func abort() {
        Self.live.withLock { live in
            if let created = live.removeValue(forKey: path) {
                Self.removeTree(path)
                Self.removeEmpty(created)
            }
        }
    }

    /// Removes every staging directory of this process and makes later
    /// commits fail; for the signal handler, which then exits. Holding the
    /// lock means a commit is either finished or not started.
    public static func removeAllStaging() {
        live.withLock { live in
            for (p, created) in live {
                removeTree(p)
                removeEmpty(created)
            }
            live.removeAll()
        }
    }

    /// Staging directories not yet committed or removed, with the parents each created.
    private static let live = Mutex<[String: [String]]>([:])
    private static let counter = Atomic<Int>(0)

    static func absolute(_ p: String) -> String {
        let full = p.hasPrefix("/") ? p : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(p)
        var resolved = (full as NSString).standardizingPath
        // Resolve symbolic links of the part that exists, so two spellings of one directory compare equal.
        if let real = realpath(resolved, nil) { resolved = String(cString: real); free(real) }
        return resolved
    }

    static func makeParents(_ dir: String, created: inout [String]) throws(OutputError) {
        var info = stat()
        if stat(dir, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputError(path: dir, message: "is not a directory")
            }
            guard access(dir, W_OK) == 0 else {
                throw OutputError(path: dir, message: "cannot write here (\(InputText.errnoText()))")
            }
            return
        }
        if errno == ENOTDIR { throw OutputError(path: dir, message: "cannot create (\(InputText.errnoText()))") }
        try makeParents((dir as NSString).deletingLastPathComponent, created: &created)
        if mkdir(dir, 0o755) == 0 {
            created.append(dir)
        } else if errno != EEXIST {
            let reason = InputText.errnoText()
            removeEmpty(created)
            created = []
            throw OutputError(path: dir, message: "cannot create (\(reason))")
        }
    }

    /// Removes directories that are still empty, deepest first.
    static func removeEmpty(_ dirs: [String]) {
        for d in dirs.reversed() { rmdir(d) }
    }

    static func removeTree(_ p: String) {
        try? FileManager.default.removeItem(atPath: p)
    }
}

extension StagedDirectory {
    /// Writes a whole directory at `target`: `body` fills the staging
    /// directory (given its path), which is then renamed into place; on any
    /// error it is removed and the error rethrown, so nothing partial is
    /// ever visible.
    public static func write(_ target: String, force: Bool, inputs: [String] = [],
                             _ body: (String) throws -> Void) throws {
        let stage = try StagedDirectory(target: target, force: force, inputs: inputs)
        do {
            try body(stage.path)
            try stage.commit()
        } catch {
            stage.abort()
            throw error
        }
    }
}
