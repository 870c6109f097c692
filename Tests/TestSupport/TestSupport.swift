import Foundation

/// A fresh, empty directory under the system temporary directory, removed by
/// `remove()`. Tests that write files use one each so they never collide.
public struct TemporaryDirectory {
    public let url: URL

    public init(prefix: String = "bgbench-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// `python3` is on PATH: the tests that run a Python decision process need
/// it, and skip, saying why, where it is missing (CI's machines have it, so
/// there they run).
public var pythonIsOnPath: Bool {
    ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/python3")
    } ?? false
}

/// `value` changed by `change`, in one expression: how a test writes a
/// parameter value whose only initializer gives the defaults
/// (`with(DeadZoneModel()) { $0.perDay = 2 }`), as a spec would, naming
/// only the keys it sets.
public func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
    var changed = value
    change(&changed)
    return changed
}
