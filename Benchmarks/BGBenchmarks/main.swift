// make bench: performance benchmarks (each compares against a baseline measured in the same run).
print("benchmarks: none yet")
