import Foundation
import Traces

/// Deterministic CSV text: RFC 4180 quoting, `\n` line ends, numbers in
/// Swift's shortest round-trip form (so reading a value back gives the same
/// `Double`, which is what makes `merge` byte-exact), NaN as `NaN`, infinities
/// as `Inf` / `-Inf` (R and pandas read all three as numbers).
public enum CSV {
    public static func number(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d > 0 ? "Inf" : "-Inf" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Parses what ``number(_:)`` writes: `NaN`, `Inf`, `-Inf` or a decimal
    /// number (``DecimalText``; no hexadecimal, `inf` or `nan` spellings).
    public static func parseNumber(_ s: Substring) -> Double? {
        switch s {
        case "NaN": return .nan
        case "Inf": return .infinity
        case "-Inf": return -.infinity
        default: return DecimalText.real(s)
        }
    }

    public static func field(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// Splits one CSV record (no embedded newlines) into fields, honouring quotes.
    public static func split(_ line: Substring) -> [String]? {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if inQuotes {
                if c == "\"" {
                    let next = line.index(after: i)
                    if next < line.endIndex && line[next] == "\"" { current.append("\""); i = next } else { inQuotes = false }
                } else {
                    current.append(c)
                }
            } else if c == "," {
                fields.append(current)
                current = ""
            } else if c == "\"" && current.isEmpty {
                inQuotes = true
            } else {
                current.append(c)
            }
            i = line.index(after: i)
        }
        if inQuotes { return nil }
        fields.append(current)
        return fields
    }
}
