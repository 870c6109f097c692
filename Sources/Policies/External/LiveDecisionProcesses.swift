#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The process groups of every decision process this program has started
/// and not yet reaped, so that an interrupted program can kill them all on
/// its way out.
///
/// Why it is needed: a decision process runs in its own process group (so
/// that Ctrl-C reaches bgbench only), and bgbench's SIGINT/SIGTERM handler
/// exits at once after removing its staging directories; without this list
/// the processes would outlive it as orphans.
public enum LiveDecisionProcesses {
    private static let groups = Mutex<Set<pid_t>>([])

    static func started(_ pid: pid_t) { _ = groups.withLock { $0.insert(pid) } }
    static func reaped(_ pid: pid_t) { _ = groups.withLock { $0.remove(pid) } }

    /// Sends SIGKILL to every live decision process and its group, and
    /// reaps each (so that none is left even as a zombie when the program
    /// exits right after). For a signal-handling thread (a dispatch source,
    /// not a signal handler proper). A worker reaping the same process at
    /// the same time is harmless: one `waitpid` gets it, the other ECHILD.
    public static func killAll() {
        for pid in groups.withLock({ Array($0) }) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped(pid)
        }
    }
}
