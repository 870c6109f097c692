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
