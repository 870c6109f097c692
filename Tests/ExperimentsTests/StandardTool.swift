import Experiments
import Policies

extension ExperimentTool {
    /// The tool the tests run as: the built-in policies, named `bgbench`.
    static let standard = ExperimentTool(executable: "bgbench", registry: .standard)
}
