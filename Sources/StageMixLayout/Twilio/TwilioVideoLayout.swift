public import Foundation
import StageMixJSON

/// A Twilio Compositions `VideoLayout` (regions in pixels of the composition, each with its static
/// grid and reuse rule), with what else of a Twilio composition request shapes the picture and the mix:
/// `Resolution`, `AudioSources`, `AudioSourcesExcluded` and `Trim`. See docs/layouts.md.
///
/// A file holds either the `VideoLayout` object alone or a composition request (`{"VideoLayout": ...,
/// "Resolution": "1280x720", "AudioSources": ["*"], "Trim": true}`).
public struct TwilioVideoLayout: Sendable, Hashable, Codable {
    /// In the file's order, which is also the drawing order within a `z_pos`.
    public var regions: [TwilioRegion]
    public var resolution: CanvasSize
    /// Nil when the file is a `VideoLayout` alone: every microphone is mixed, as in any StageMix layout.
    /// In a composition request, Twilio's rule: only audio named here, less `audioSourcesExcluded`.
    public var audioSources: [TwilioSourcePattern]?
    public var audioSourcesExcluded: [TwilioSourcePattern]
    /// Whether gaps after the first media where nothing is published are taken out (Twilio's default).
    public var trim: Bool

    public init(regions: [TwilioRegion], resolution: CanvasSize = TwilioVideoLayout.defaultResolution,
                audioSources: [TwilioSourcePattern]? = nil, audioSourcesExcluded: [TwilioSourcePattern] = [], trim: Bool = true) {
        self.regions = regions
        self.resolution = resolution
        self.audioSources = audioSources
        self.audioSourcesExcluded = audioSourcesExcluded
        self.trim = trim
    }

    /// Twilio's default `Resolution`.
    public static let defaultResolution = CanvasSize(width: 640, height: 480)
    /// Each side of a Twilio composition, in pixels.
    public static let resolutionSide = 16...1280
    /// The most pixels a Twilio composition has (1280x720).
    public static let maxResolutionPixels = 921_600

    /// Why `size` is not a resolution Twilio composes at (or StageMix can encode: even sides), or nil.
    public static func resolutionProblem(_ size: CanvasSize) -> String? {
        let side = resolutionSide
        if !side.contains(size.width) || !side.contains(size.height) {
            return "each side must be from \(side.lowerBound) to \(side.upperBound) pixels as Twilio's are; got \(size.width)x\(size.height)"
        }
        if size.width * size.height > maxResolutionPixels {
            return "width x height must be at most \(maxResolutionPixels) pixels as Twilio's are; got \(size.width)x\(size.height) = \(size.width * size.height)"
        }
        if size.width % 2 != 0 || size.height % 2 != 0 {
            return "width and height must be even (4:2:0 video); got \(size.width)x\(size.height)"
        }
        return nil
    }

    /// Whether the audio track called `source` is mixed.
    public func mixes(_ source: TwilioSourceIdentity) -> Bool {
        guard let audioSources else { return true }
        return audioSources.contains { $0.matches(source) } && !audioSourcesExcluded.contains { $0.matches(source) }
    }

    /// Reads and checks a Twilio layout file; `resolution` (`--resolution`) replaces the file's.
    public static func parse(_ data: Data, file: String, resolution: CanvasSize? = nil) throws(LayoutError) -> TwilioVideoLayout {
        let root: JSONValue
        do {
            root = try JSONTextParser.parse(Array(data))
        } catch {
            throw LayoutError(file: file, problems: [JSONProblem(file: file, path: "$", message: "not valid JSON: \(error)")])
        }
        var reader = TwilioLayoutReader(file: file, resolution: resolution)
        guard let layout = reader.read(root), reader.problems.isEmpty else {
            throw LayoutError(file: file, problems: reader.problems)
        }
        return layout
    }

    /// Whether a JSON document has the shape of a Twilio layout: a composition request (with
    /// `VideoLayout`), or an object of regions, each an object with `video_sources`.
    public static func looksLikeTwilio(_ data: Data) -> Bool {
        guard case .object(let object)? = try? JSONTextParser.parse(Array(data)), !object.members.isEmpty else { return false }
        if object["VideoLayout"] != nil { return true }
        return object.members.allSatisfy { member in
            if case .object(let region) = member.value { return region["video_sources"] != nil }
            return false
        }
    }
}
