// The bgbench command line. Kept thin: every subcommand calls into Experiments.
import Experiments

print("""
OVERVIEW: BGBench — benchmark background-task scheduling policies on simulated phone users.

USAGE: bgbench <subcommand> [options]

SUBCOMMANDS: (none yet)
""")
