import StageMixJSON
public import Foundation

/// A composition layout: the output canvas and the regions that tile the sources on it.
///
/// Layouts are JSON files (see docs/layouts.md). Decoding validates them the same
/// way `parse(_:file:)` does; encoding writes the same file format back.
public struct Layout: Sendable, Hashable, Codable {
    public var name: String
    public var canvas: CanvasSize
    public var fps: Int
    public var background: RGBColor
    /// In file order; an earlier region's sources are skipped by later ones through `skip`.
    public var regions: [Region]
    /// Who comes first in every region: the pinned order, or the active speaker.
    public var focus: LayoutFocus
    /// Set for a Twilio `VideoLayout` (`--layout twilio:FILE`): its regions place the sources by
    /// Twilio's rules over the whole composition, and `regions` is empty.
    public var twilio: TwilioVideoLayout?

    public init(name: String, canvas: CanvasSize, fps: Int, background: RGBColor, regions: [Region],
                focus: LayoutFocus = .pinned, twilio: TwilioVideoLayout? = nil) {
        self.name = name
        self.canvas = canvas
        self.fps = fps
        self.background = background
        self.regions = regions
        self.focus = focus
        self.twilio = twilio
    }

    /// A Twilio layout as a StageMix layout: its resolution as the canvas, black behind every region
    /// (Twilio fills what no video covers with black), 30 fps unless `--fps` says otherwise.
    public init(twilio: TwilioVideoLayout, name: String) {
        self.init(name: name, canvas: twilio.resolution, fps: 30, background: .black, regions: [], twilio: twilio)
    }

    /// Reads and validates a layout file.
    public static func load(contentsOf url: URL) throws(LayoutError) -> Layout {
        let file = url.isFileURL ? url.relativePath : url.absoluteString
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LayoutError(file: file, problems: [JSONProblem(file: file, path: "", message: "cannot read the file: \(error.localizedDescription)")])
        }
        return try parse(data, file: file)
    }

    /// Validates layout JSON; `file` names it in error messages.
    public static func parse(_ data: Data, file: String) throws(LayoutError) -> Layout {
        let root: JSONValue
        do {
            root = try JSONTextParser.parse(Array(data))
        } catch {
            throw LayoutError(file: file, problems: [JSONProblem(file: file, path: "$", message: "not valid JSON: \(error)")])
        }
        var reader = LayoutReader(file: file)
        let layout = reader.read(root)
        guard let layout, reader.problems.isEmpty else {
            throw LayoutError(file: file, problems: reader.problems)
        }
        return layout
    }

    /// The same layout on another canvas: regions keep their fractions, gaps scale with the canvas.
    public func resized(to canvas: CanvasSize, fps: Int? = nil) -> Layout {
        var copy = self
        copy.canvas = canvas
        copy.fps = fps ?? self.fps
        let scale = min(Double(canvas.width) / Double(max(1, self.canvas.width)),
                        Double(canvas.height) / Double(max(1, self.canvas.height)))
        for index in copy.regions.indices {
            copy.regions[index].gap = Even.round(Double(regions[index].gap) * scale)
            copy.regions[index].label = regions[index].label?.scaled(by: scale)
        }
        return copy
    }

    /// The same layout with no names on its tiles (`--labels off`).
    public var withoutLabels: Layout {
        var copy = self
        for index in copy.regions.indices { copy.regions[index].label = nil }
        return copy
    }

    // MARK: Codable, in the file format

    private enum CodingKeys: String, CodingKey { case name, canvas, regions, focus }
    private enum CanvasKeys: String, CodingKey { case width, height, fps, background }

    public init(from decoder: any Decoder) throws {
        let root = try JSONValue(from: decoder)
        var reader = LayoutReader(file: "<decoded layout>")
        guard let layout = reader.read(root), reader.problems.isEmpty else {
            let error = LayoutError(file: "<decoded layout>", problems: reader.problems)
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
        self = layout
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        var canvasContainer = container.nestedContainer(keyedBy: CanvasKeys.self, forKey: .canvas)
        try canvasContainer.encode(canvas.width, forKey: .width)
        try canvasContainer.encode(canvas.height, forKey: .height)
        try canvasContainer.encode(fps, forKey: .fps)
        try canvasContainer.encode(background, forKey: .background)
        try container.encode(regions, forKey: .regions)
        if focus != .pinned { try container.encode(focus, forKey: .focus) }
    }
}
