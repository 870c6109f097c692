// make bench: performance benchmarks, each against a baseline measured in
// the same process (the device's timer agenda against a minimum scan; the
// whole simulation on all cores against one core; each policy family's CPU
// per event against greedy's).
//
//   BGBenchmarks [--csv] [--filter NAME]... [--n SIZE]... [--days D] [--list]
//
// --filter keeps the families whose name contains NAME; --n keeps only the
// given sizes (timers, users; both repeatable). A slow family
// (`policy-instructions`, under valgrind) runs only when --filter names it
// whole; --days sets the days of its world (7).

import Foundation

let allFamilies: [BenchmarkFamily] = [.eventCore, .eventCoreLayout, .simulation, .policyCost, .externalPolicy, .traceRead,
                                      .policyInstructions]

var csv = false
var filters: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--csv": csv = true
    case "--filter":
        guard let name = arguments.popFirst() else { fatalError("--filter needs a name") }
        filters.append(name)
    case "--n":
        guard let value = arguments.popFirst(), let n = Int(value) else { fatalError("--n needs a size") }
        onlySizes.insert(n)
    case "--days":
        guard let value = arguments.popFirst(), let days = Int(value), days > 0 else { fatalError("--days needs a whole number of days") }
        instructionDays = days
    case "--generate-world":
        // policy-instructions counts this process's instructions to take
        // the world off its runs: see WorldGeneration.
        guard let kind = arguments.popFirst().flatMap(WorldGeneration.init(rawValue:)),
              let users = arguments.popFirst().flatMap({ Int($0) }) else {
            fatalError("--generate-world needs none|traces|models and a user count")
        }
        consume(kind.generate(users: users))
        exit(0)
    case "--list":
        for family in allFamilies { print("\(family.name)\t\(family.summary)") }
        exit(0)
    default:
        print("usage: BGBenchmarks [--csv] [--filter NAME]... [--n SIZE]... [--days D] [--list]")
        exit(2)
    }
}

let selected = allFamilies.filter { family in
    family.runsByDefault ? filters.isEmpty || filters.contains { family.name.contains($0) } : filters.contains(family.name)
}
Report.run(selected, csv: csv)
