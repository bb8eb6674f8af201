public import Foundation

/// The repository the tests run in: samples, layouts and docs are read from it.
public enum Repository {
    /// Two levels above this file (Tests/StageMixTestSupport/<file>).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
