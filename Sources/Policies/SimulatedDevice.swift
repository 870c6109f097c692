/// Which simulated device a policy copy is deciding for: set by the runner
/// around each simulation (a task-local value, so per worker thread). A
/// policy in Swift has no use for it — its decisions must depend only on
/// what it observes — but one whose decisions come from outside names the
/// device in its messages and errors (`external`).
public struct SimulatedDevice: Sendable, Hashable, CustomStringConvertible {
    /// The configuration label (`configuration` column of `runs.csv`).
    public var configuration: String
    public var replication: Int
    public var user: Int

    public init(configuration: String, replication: Int, user: Int) {
        self.configuration = configuration
        self.replication = replication
        self.user = user
    }

    public var description: String { "user \(user) (replication \(replication), configuration \"\(configuration)\")" }

    @TaskLocal public static var current: SimulatedDevice?
}
