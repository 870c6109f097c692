// The bgbench executable: the command line of the BGBenchCLI library with
// the built-in policies. A researcher's own executable looks the same.
import BGBenchCLI

BGBenchCLI.main()
