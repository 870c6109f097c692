// AWARE sensing tables (awareframework.com) read strictly: each file is one
// table, recognised by its columns; every row is checked and a bad one is
// an error naming the file, line and column. The codes and the mapping to a
// trace set: Datasets/README.md ("Importing AWARE tables").
import Foundation

/// The AWARE tables `traces import --format aware` reads.
public enum AwareTable: String, Sendable, CaseIterable {
    case battery, screen, applicationsForeground = "applications_foreground", network

    /// The columns that identify the table (others are ignored).
    var columns: [String] {
        switch self {
        case .battery: ["battery_level", "battery_status", "battery_adaptor"]
        case .screen: ["screen_status"]
        case .applicationsForeground: ["package_name"]
        case .network: ["network_type", "network_state"]
        }
    }
}

/// One row of an AWARE table, reduced to what the import uses.
struct AwareRow: Sendable, Hashable {
    /// µs since 1970-01-01 UTC.
    var time: Int64
    /// The table's values: battery (level, status, adaptor), screen
    /// (status), network (type, state); empty for applications.
    var values: [Int]
    /// The package, for applications_foreground.
    var package: String = ""
    /// Where the row came from (for messages).
    var file: String
    var line: Int
}

enum AwareTables {
    /// Android's BatteryManager status codes, plus AWARE's own for the
    /// phone shutting down (-1), rebooting (-2) and having booted (-3).
    static let batteryStatuses: [Int: String] = [
        -3: "booted", -2: "reboot", -1: "shutdown", 1: "unknown", 2: "charging", 3: "discharging",
        4: "not charging", 5: "full",
    ]
    /// Android's BatteryManager plug types: 0 on battery, 1 AC, 2 USB, 4 wireless.
    static let adaptors: [Int: String] = [0: "on battery", 1: "AC", 2: "USB", 4: "wireless"]
    /// AWARE's screen statuses: 0 off, 1 on, 2 locked, 3 unlocked.
    static let screenStatuses = 0...3
    /// AWARE's network types: -1 airplane mode, 1 Wi-Fi, 2 Bluetooth,
    /// 3 GPS, 4 mobile, 5 WiMAX; state 0 off, 1 on.
    static let networkTypes: Set<Int> = [-1, 1, 2, 3, 4, 5]

    /// Times before 2000 or after 2200 are a broken clock or a wrong unit.
    static let earliest: Int64 = 946_684_800_000_000, latest: Int64 = 7_258_118_400_000_000

    /// The files to read: each argument, or the `.csv` files of a directory
    /// in name order.
    static func files(_ inputs: [URL]) throws -> [URL] {
        var out: [URL] = []
        for url in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw TraceFormatError(file: url.path, line: 0, column: 0, message: "no such file or directory")
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
                out += names.filter { $0.hasSuffix(".csv") }.sorted().map { url.appendingPathComponent($0) }
            } else {
                out.append(url)
            }
        }
        return out
    }

    /// Reads one AWARE table: which table it is and its rows per device
    /// (`device_id`, or one device "device" when the table has no such
    /// column), in file order.
    static func read(_ url: URL) throws -> (table: AwareTable, rows: [String: [AwareRow]], devices: [String]) {
        let file = url.lastPathComponent
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw TraceFormatError(file: file, line: 0, column: 0, message: "expected a readable UTF-8 text file")
        }
        // "\r\n" is one Character in Swift: split on it and on "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        guard let headerLine = lines.first, !headerLine.isEmpty else {
            throw TraceFormatError(file: file, line: 1, column: 0, message: "empty file; expected a header line")
        }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        let known = AwareTable.allCases.map { "\($0.rawValue) (\($0.columns.joined(separator: ", ")))" }.joined(separator: "; ")
        guard let table = AwareTable.allCases.first(where: { $0.columns.allSatisfy(header.contains) }) else {
            throw TraceFormatError(file: file, line: 1, column: 0,
                                   message: "expected the header of an AWARE table: \(known), with a time column timestamp (ms) or time (s)")
        }
        let millis = header.firstIndex(of: "timestamp"), seconds = header.firstIndex(of: "time")
        guard let timeColumn = millis ?? seconds else {
            throw TraceFormatError(file: file, line: 1, column: 0,
                                   message: "expected a time column: timestamp (ms since 1970 UTC, AWARE) or time (s since 1970 UTC, as niimpy exports)")
        }
        let timeScale: Int64 = millis != nil ? 1_000 : 1_000_000
        let device = header.firstIndex(of: "device_id")
        let columns = table.columns.map { header.firstIndex(of: $0)! }
        var rows: [String: [AwareRow]] = [:]
        var order: [String] = []
        for (i, line) in lines.enumerated().dropFirst() {
            let n = i + 1
            if line.isEmpty {
                if i == lines.count - 1 { break }  // the final newline
                throw TraceFormatError(file: file, line: n, column: 0, message: "blank line")
            }
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == header.count else {
                throw TraceFormatError(file: file, line: n, column: 0,
                                       message: "expected \(header.count) fields as in the header, found \(f.count)")
            }
            guard let time = microseconds(f[timeColumn], scale: timeScale), (earliest...latest).contains(time) else {
                throw TraceFormatError(file: file, line: n, column: timeColumn + 1,
                                       message: "expected a time in \(millis != nil ? "ms" : "s") since 1970 UTC between 2000 and 2200, found \"\(f[timeColumn])\"")
            }
            var row = AwareRow(time: time, values: [], file: file, line: n)
            func int(_ k: Int, _ what: String, _ ok: (Int) -> Bool) throws -> Int {
                let c = columns[k]
                guard let v = Int(f[c]), ok(v) else {
                    throw TraceFormatError(file: file, line: n, column: c + 1, message: "expected \(what), found \"\(f[c])\"")
                }
                return v
            }
            switch table {
            case .battery:
                row.values = [
                    try int(0, "a battery level in 0...100 %", { (0...100).contains($0) }),
                    try int(1, "a battery status (\(describe(batteryStatuses)))", { batteryStatuses[$0] != nil }),
                    try int(2, "a battery adaptor (\(describe(adaptors)))", { adaptors[$0] != nil }),
                ]
            case .screen:
                row.values = [try int(0, "a screen status (0 off, 1 on, 2 locked, 3 unlocked)", screenStatuses.contains)]
            case .network:
                row.values = [
                    try int(0, "a network type (-1 airplane, 1 Wi-Fi, 2 Bluetooth, 3 GPS, 4 mobile, 5 WiMAX)", networkTypes.contains),
                    try int(1, "a network state (0 off, 1 on)", { $0 == 0 || $0 == 1 }),
                ]
            case .applicationsForeground:
                let package = f[columns[0]].trimmingCharacters(in: .whitespaces)
                guard !package.isEmpty else {
                    throw TraceFormatError(file: file, line: n, column: columns[0] + 1, message: "empty package_name")
                }
                row.package = package
            }
            let id = device.map { String(f[$0]) } ?? "device"
            guard !id.isEmpty else { throw TraceFormatError(file: file, line: n, column: device! + 1, message: "empty device_id") }
            if rows[id] == nil { order.append(id) }
            rows[id, default: []].append(row)
        }
        return (table, rows, order)
    }

    static func describe(_ codes: [Int: String]) -> String {
        codes.keys.sorted().map { "\($0) \(codes[$0]!)" }.joined(separator: ", ")
    }

    /// A non-negative decimal number of `1/scale`-second units... read
    /// exactly: "1488315824.049" s is 1 488 315 824 049 000 µs (no binary
    /// rounding). `scale` is µs per unit (1 000 for ms, 1 000 000 for s);
    /// digits below 1 µs are refused, as are signs, exponents and blanks.
    static func microseconds(_ s: Substring, scale: Int64) -> Int64? {
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber),
              whole.count <= 16, let w = Int64(whole) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            let allowed = scale == 1_000 ? 3 : 6
            guard !digits.isEmpty, digits.count <= allowed, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                  let d = Int64(digits) else { return nil }
            var unit = scale
            for _ in 0..<digits.count { unit /= 10 }
            fraction = d * unit
        }
        let (product, overflow) = w.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product + fraction
    }
}
