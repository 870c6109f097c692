// Printing: a human table by default, CSV rows with --csv.
import Foundation

enum Report {
    static let csvHeader = "benchmark,n,operations,ns_per_op,baseline_ns_per_op,speedup"

    static func run(_ families: [BenchmarkFamily], csv: Bool) {
        if csv {
            print(csvHeader)
        } else {
            print("Each benchmark against a baseline measured in the same process; ns per operation, best of runs")
        }
        for family in families {
            if !csv {
                print("")
                print("\(family.name): one op = \(family.summary)")
                print(pad("n", 9) + pad("ops", 10) + pad(family.candidateTitle, 13) + pad(family.baselineTitle, 16)
                      + pad("speed-up", 10) + pad("bytes/event", 12))
            }
            for m in family.run() {
                if csv {
                    print("\(m.benchmark),\(m.n),\(m.operations),\(fmt(m.nsPerOp, 2)),\(fmt(m.baselineNsPerOp, 2)),\(fmt(m.speedup, 3))")
                } else {
                    let bytes = m.bytesPerEvent.map { fmt($0, 1) } ?? "-"
                    print(pad("\(m.n)", 9) + pad("\(m.operations)", 10) + pad(fmt(m.nsPerOp, 1), 13)
                          + pad(fmt(m.baselineNsPerOp, 1), 16) + pad(fmt(m.speedup, 2) + "x", 10) + pad(bytes, 12))
                    if let note = m.note { print("         " + note) }
                }
            }
        }
        if !csv { print("\n(checksum \(sink))") }
    }

    static func fmt(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

    static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - s.count)) + s
    }
}
