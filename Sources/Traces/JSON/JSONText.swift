/// JSON string literals, written the one way bgbench writes them: `"` and
/// `\` escaped, `\n`, `\r`, `\t` by name, other control characters as
/// `\u00XX`, everything else as is (UTF-8). Used by the external policy's
/// messages and by the spec and manifest writer in Experiments: Traces,
/// which reads the spec's text too, is below both.
public enum JSONText {
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
