/// Facts about how SimCore was compiled.
public enum SimCoreBuild {
    /// Whether internal invariant checks (`BGBENCH_INVARIANTS`) are compiled
    /// in: true in debug builds and tests, false with `-c release`.
    public static let invariantChecks: Bool = {
        #if BGBENCH_INVARIANTS
        return true
        #else
        return false
        #endif
    }()
}
