public import Foundation

/// The file every StageMix output holds, naming what StageMix wrote there. A folder is an earlier
/// StageMix output only if it has this file and nothing the file does not list, so replacing it
/// can never delete a file someone else put there.
public struct OutputMarker: Codable, Sendable, Equatable {
    /// The marker's file name inside an output.
    public static let fileName = ".stagemix-output"
    public static let currentFormat = "stagemix.output/1"

    public var format: String
    /// Top-level names StageMix wrote, sorted.
    public var entries: [String]
    /// The queue job that published it, if a worker did.
    public var job: String?
    public var publishedAt: String

    public init(entries: [String], job: String?, publishedAt: Date = Date()) {
        format = Self.currentFormat
        self.entries = entries.sorted()
        self.job = job
        self.publishedAt = ISO8601DateFormatter().string(from: publishedAt)
    }

    /// Of a folder's top-level `names`, those this marker does not vouch for (the marker itself aside).
    func unlisted(_ names: [String]) -> [String] {
        names.filter { $0 != Self.fileName && !entries.contains($0) }
    }

    /// The marker of `directory`, or nil if it has none that parses.
    public static func read(in directory: URL) -> OutputMarker? {
        FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path).flatMap(decoded)
    }

    /// A marker's bytes as read from a file or an object; nil unless they are one.
    static func decoded(_ data: Data) -> OutputMarker? {
        guard let marker = try? JSONDecoder().decode(OutputMarker.self, from: data), marker.format == currentFormat else { return nil }
        return marker
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    func write(in directory: URL) throws {
        try encoded().write(to: directory.appendingPathComponent(Self.fileName))
    }
}
