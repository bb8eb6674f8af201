public import Foundation

/// `import.json`: what `stagemix import` writes beside `session.json` in a capture it made from another
/// platform's recordings — the platform, and the warnings of the import (a recording that failed, a file
/// that was missing). Not part of the capture contract; composing reads it only to carry those warnings
/// into `report.json`, so the people reading the report learn them too.
public struct ImportNote: Sendable, Hashable, Codable {
    public static let fileName = "import.json"
    public static let currentFormat = "stagemix.import/1"

    public var format: String
    public var platform: String
    public var warnings: [String]
    /// What the platform calls each track, by track id (Twilio: `track_name`, `source_sid`,
    /// `participant_sid`), for layouts that name tracks so (Twilio's `VideoLayout`).
    public var tracks: [String: [String: String]]?
    /// How the import placed the platform's files on the session clock, and how exactly (which of
    /// the platform's times won, where it had none), in sentences, for the people reading the capture.
    public var alignment: [String]?

    public init(platform: String, warnings: [String], tracks: [String: [String: String]]? = nil, alignment: [String]? = nil) {
        format = Self.currentFormat
        self.platform = platform
        self.warnings = warnings
        self.tracks = tracks
        self.alignment = alignment
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        platform = try container.decodeIfPresent(String.self, forKey: .platform) ?? ""
        warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
        tracks = try container.decodeIfPresent([String: [String: String]].self, forKey: .tracks)
        alignment = try container.decodeIfPresent([String].self, forKey: .alignment)
    }

    /// The note of a capture folder, if it has one that reads.
    static func read(in directory: URL) -> ImportNote? {
        guard directory.isFileURL, let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path) else { return nil }
        return decode(data)
    }

    /// A note that reads, or nil: the note only adds names and warnings, so one that does not read is left out.
    static func decode(_ data: Data) -> ImportNote? {
        guard data.count <= maxBytes, let note = try? JSONDecoder().decode(ImportNote.self, from: data), note.format == currentFormat else { return nil }
        return note
    }

    static let maxBytes = 16 << 20

    public func write(in directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Whole or not at all: a followed import writes it again beside a capture being read.
        try encoder.encode(self).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// The warnings as a report lists them: `import (twilio): ...`.
    public var reportWarnings: [String] { warnings.map { "import (\(platform)): \($0)" } }
}
