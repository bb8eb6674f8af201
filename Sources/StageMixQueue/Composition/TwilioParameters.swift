import Foundation

/// What a composition asked for through the Twilio-shaped API (`POST /v1/Compositions`) carries besides
/// an ordinary composition: Twilio's own parameters, as its resource shows them back, and how its status
/// callbacks are sent. Stored as JSON in `stagemix_compositions.twilio`; nil for the JSON API's compositions.
public struct TwilioParameters: Codable, Sendable, Hashable {
    /// As given: the folder under a capture root that holds the imported room.
    public var roomSid: String
    /// The `VideoLayout` parameter's JSON text, as given.
    public var videoLayout: String
    public var audioSources: [String]
    public var audioSourcesExcluded: [String]
    /// `WxH`.
    public var resolution: String
    public var trim: Bool
    /// Always `mp4`: the one container StageMix writes of Twilio's two.
    public var format: String
    /// `POST` or `GET`.
    public var statusCallbackMethod: String

    public init(roomSid: String, videoLayout: String, audioSources: [String], audioSourcesExcluded: [String], resolution: String,
                trim: Bool, format: String, statusCallbackMethod: String) {
        self.roomSid = roomSid
        self.videoLayout = videoLayout
        self.audioSources = audioSources
        self.audioSourcesExcluded = audioSourcesExcluded
        self.resolution = resolution
        self.trim = trim
        self.format = format
        self.statusCallbackMethod = statusCallbackMethod
    }

    /// The composition's Twilio SID: `CJ` and the 32 hex digits of its id (a UUID), so one is the other.
    public static func sid(of id: String) -> String {
        "CJ" + id.replacingOccurrences(of: "-", with: "")
    }

    /// The composition id a `CJ` SID stands for, or nil when it is not one.
    public static func id(ofSid sid: String) -> String? {
        let bytes = Array(sid.utf8)
        guard bytes.count == 34, sid.hasPrefix("CJ") else { return nil }
        let hex = bytes.dropFirst(2).map { Character(Unicode.Scalar($0)).lowercased() }.joined()
        // ASCII hex digits only (Character.isHexDigit would take fullwidth ones too).
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func decode(_ text: String?) throws -> TwilioParameters? {
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(TwilioParameters.self, from: Data(text.utf8))
        } catch {
            throw QueueError(.corruptRow, "composition's Twilio parameters: \(error)")
        }
    }
}
