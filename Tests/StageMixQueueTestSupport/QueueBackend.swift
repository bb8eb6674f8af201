public import Foundation
@testable public import StageMixQueue

/// The backends the contract tests run against, each on a real database.
public enum QueueBackend: String, CaseIterable, Sendable {
    case sqlite
    case postgres

    /// A fresh, empty queue URL: a new SQLite file, or a new database on the shared test server.
    public func makeURL() async throws -> String {
        switch self {
        case .sqlite:
            let directory = try makeTemporaryDirectory(prefix: "stagemix-queue")
            return "sqlite:\(directory)/queue.sqlite"
        case .postgres:
            return try await TemporaryPostgres.shared.value.makeDatabase()
        }
    }

    public func open(options: QueueOptions = QueueOptions()) async throws -> (any JobQueue, String) {
        let url = try await makeURL()
        return (try await QueueURL(url).open(options: options), url)
    }
}

