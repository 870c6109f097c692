#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SimCore
import Traces

/// One running decision process of the `external` policy: started with
/// `posix_spawnp`, its stdin and stdout both one end of a Unix socket pair.
///
/// Why a socket pair and not two pipes: writes use `send(MSG_NOSIGNAL)`, so
/// a process that died makes the write fail with EPIPE instead of killing
/// bgbench with SIGPIPE (no process-wide signal setting needed). Why its own
/// process group: Ctrl-C at the terminal reaches bgbench only, which then
/// stops the run and kills the process itself (`terminate`), so an
/// interrupted run is reported as interrupted, not as a crashed policy; and
/// killing the group also kills anything the process started.
///
/// Every read and write waits at most until a deadline and in slices of
/// 100 ms, polling `stop`: the policy never blocks forever on a process.
/// The slices are the socket's own receive and send timeouts
/// (`SO_RCVTIMEO`, `SO_SNDTIMEO`): a blocking `recv` that returns the
/// reply, instead of a non-blocking one that finds nothing yet, a `poll`
/// and a second `recv` — one system call per read instead of three, at
/// every decision (Docs/ExternalPolicyProtocol.md, "Speed").
/// Used by one device (one worker thread) at a time.
final class DecisionProcess: @unchecked Sendable {
    let pid: pid_t
    private var socket: Int32
    private var buffer: [UInt8] = []
    /// Where `recv` writes (kept, not allocated per read).
    private var chunk = [UInt8](repeating: 0, count: 65536)
    private var reaped = false
    /// What the process asked for in its `hello` (the pending list as
    /// changes, plan mode: Docs/ExternalPolicyProtocol.md).
    var declaration = ExternalDeclaration()

    /// The longest reply line, its newline not counted: the one limit of
    /// every text input (`TextLimits.maxLineBytes`). A longer line is an
    /// error as soon as the limit is passed, not a reason to fill memory or
    /// to wait for its end.
    static var maximumLineBytes: Int { TextLimits.maxLineBytes }

    /// Why a read or write did not complete.
    enum Failure: Error {
        /// The process closed its output or exited (`status` from waitpid when known).
        case exited(String)
        case timedOut
        /// The run is being interrupted.
        case stopped
        case lineTooLong
        case system(String)
    }

    /// Starts `argv` (found on PATH like a shell would).
    init(argv: [String]) throws(Failure) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .system("socketpair failed: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group; default dispositions for the signals bgbench
        // ignores while it runs (ignored signals survive exec); none blocked.
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, s) }
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, argv[0], &actions, &attributes, cArgs, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw .system("cannot start \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = child
        LiveDecisionProcesses.started(child)
        socket = fds[0]
        var slice = timeval(tv_sec: 0, tv_usec: Int(Self.sliceMilliseconds) * 1000)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { terminate() }

    /// Sends one line (a newline is appended).
    func send(_ line: String, deadline: ContinuousClock.Instant, stop: () -> Bool) throws(Failure) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try check(deadline: deadline, stop: stop)
                continue
            }
            throw .exited(exitStatus())
        }
    }

    /// The next line the process writes, without its newline.
    func readLine(deadline: ContinuousClock.Instant, stop: () -> Bool) throws(Failure) -> [UInt8] {
        // `buffer[..<scanned]` holds no newline: each byte is looked at once,
        // however many reads a long line takes.
        var scanned = 0
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline > Self.maximumLineBytes { throw .lineTooLong }
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            scanned = buffer.count
            if scanned > Self.maximumLineBytes { throw .lineTooLong }
            let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[..<n]
                continue
            }
            if n == 0 { throw .exited(exitStatus()) }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try check(deadline: deadline, stop: stop)
                continue
            }
            throw .exited(exitStatus())
        }
    }

    /// The longest a `recv` or `send` blocks before `stop` and the
    /// deadline are checked again.
    static let sliceMilliseconds = 100

    /// After a slice with nothing read or written: the run stopped, or the
    /// deadline passed (checked to within a slice).
    private func check(deadline: ContinuousClock.Instant, stop: () -> Bool) throws(Failure) {
        if stop() { throw .stopped }
        if ContinuousClock.now >= deadline { throw .timedOut }
    }

    /// "exited with status 3", "killed by signal 9" or "closed its output":
    /// waits up to a second for the process to be gone.
    private func exitStatus() -> String {
        var status: Int32 = 0
        for _ in 0..<100 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                reaped = true
                LiveDecisionProcesses.reaped(pid)
                // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (macros).
                if status & 0x7f == 0 { return "exited with status \((status >> 8) & 0xff)" }
                return "was killed by signal \(status & 0x7f)"
            }
            if r < 0 { break }
            usleep(10_000)
        }
        return "closed its output"
    }

    /// The normal end: says `bye`, closes the connection and gives the
    /// process `grace` to exit on its own before `terminate` kills it.
    func finish(bye: String, grace: Duration = .milliseconds(500)) {
        if socket >= 0 {
            try? send(bye, deadline: .now + grace, stop: { false })
            shutdown(socket, Int32(SHUT_WR))
        }
        let deadline = ContinuousClock.now + grace
        var status: Int32 = 0
        while !reaped && ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                LiveDecisionProcesses.reaped(pid)
            } else {
                usleep(5_000)
            }
        }
        terminate()
    }

    /// Closes the connection, kills the process group and reaps the
    /// process. Idempotent; called on every path (also from `deinit`).
    func terminate() {
        if socket >= 0 {
            close(socket)
            socket = -1
        }
        guard !reaped else { return }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        LiveDecisionProcesses.reaped(pid)
    }
}
