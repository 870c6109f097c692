/// What a spec's `name` and its configuration labels may hold: they become
/// a directory name and a CSV field that `report` and `merge` read back, so a
/// control character (a newline would split a row) or a path separator is
/// refused up front.
public enum LabelRules {
    /// Longest label or name accepted (a file name component is at most 255 bytes).
    public static let maxLength = 200

    /// `name`: letters, digits, `-`, `_`, `.`, not `.` or `..`, at most ``maxLength``.
    public static func checkName(_ name: String, at path: String) throws(SpecError) {
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        guard !name.isEmpty, allowed, name != ".", name != "..", !name.hasPrefix("."), name.utf8.count <= maxLength else {
            throw SpecError(path: path, message: "\"\(printable(name))\" is not a safe directory name; expected 1 to \(maxLength) ASCII letters, digits, '-', '_' or '.', not starting with '.'")
        }
    }

    /// A configuration label: non-empty, no control characters, at most ``maxLength``.
    public static func checkLabel(_ label: String, at path: String) throws(SpecError) {
        guard !label.allSatisfy(\.isWhitespace) else {
            throw SpecError(path: path, message: "the configuration label is empty; give a \"label\" with at least one visible character")
        }
        if label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw SpecError(path: path, message: "the configuration label \"\(printable(label))\" holds a control character (newline, tab, ...); labels are CSV fields and must be one line")
        }
        guard label.utf8.count <= maxLength else {
            throw SpecError(path: path, message: "the configuration label is \(label.utf8.count) bytes long; at most \(maxLength) are allowed")
        }
    }

    /// The text with control characters shown as `\n`, `\u{7}`.
    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined())
    }
}
