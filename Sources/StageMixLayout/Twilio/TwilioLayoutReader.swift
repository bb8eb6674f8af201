import StageMixJSON

/// Turns a Twilio layout file (a `VideoLayout` object, or a composition request holding one) into a
/// ``TwilioVideoLayout``, checking every property by Twilio's documented ranges and collecting every
/// problem with its JSON path (`$.main.max_columns`, `$.VideoLayout.main.x_pos`).
struct TwilioLayoutReader {
    private var walker: JSONWalker
    private let resolutionOverride: CanvasSize?
    var problems: [JSONProblem] { walker.problems }

    private static let regionFields = ["x_pos", "y_pos", "z_pos", "width", "height", "max_columns", "max_rows",
                                       "cells_excluded", "reuse", "video_sources", "video_sources_excluded"]
    /// A composition request's parameters; those that do not shape the composition are accepted and ignored.
    private static let requestFields = ["VideoLayout", "Resolution", "AudioSources", "AudioSourcesExcluded", "Trim",
                                        "RoomSid", "Format", "StatusCallback", "StatusCallbackMethod"]

    init(file: String, resolution: CanvasSize?) {
        walker = JSONWalker(file: file, wording: .fields)
        resolutionOverride = resolution
    }

    mutating func read(_ root: JSONValue) -> TwilioVideoLayout? {
        guard let object = walker.object(root, at: .root) else { return nil }
        guard object["VideoLayout"] != nil else {
            let resolution = resolutionOverride ?? TwilioVideoLayout.defaultResolution
            return readRegions(object, resolution: resolution, at: .root).map { TwilioVideoLayout(regions: $0, resolution: resolution) }
        }
        let path = JSONPath.root
        walker.rejectUnknown(object, allowed: Self.requestFields, at: path)
        let fileResolution = walker.field(object, "Resolution", at: path, default: TwilioVideoLayout.defaultResolution,
                                          expected: "a resolution \"WxH\" Twilio composes at (each side 16 to 1280, at most 921600 pixels, even)",
                                          Self.resolution)
        let resolution = resolutionOverride ?? fileResolution
        let audio = walker.optionalField(object, "AudioSources", at: path, expected: "an array of track names or sids", { $0 })
            .flatMap { $0.map { readPatterns($0, at: path.key("AudioSources")) } ?? .some([]) }
        let excluded = walker.optionalField(object, "AudioSourcesExcluded", at: path, expected: "an array of track names or sids", { $0 })
            .flatMap { $0.map { readPatterns($0, at: path.key("AudioSourcesExcluded")) } ?? .some([]) }
        let trim = walker.field(object, "Trim", at: path, default: true, expected: "true or false", JSONConvert.bool)
        let regions = walker.object(object["VideoLayout"]!, at: path.key("VideoLayout")).flatMap { layout in
            resolution.flatMap { readRegions(layout, resolution: $0, at: path.key("VideoLayout")) }
        }
        guard let resolution, let audio, let excluded, let trim, let regions else { return nil }
        return TwilioVideoLayout(regions: regions, resolution: resolution, audioSources: audio, audioSourcesExcluded: excluded, trim: trim)
    }

    private mutating func readRegions(_ object: JSONObject, resolution: CanvasSize, at path: JSONPath) -> [TwilioRegion]? {
        if object.members.isEmpty { walker.problem(path, expected: "at least one region", found: "an empty object") }
        guard object.members.count <= LayoutLimits.maxRegions else {
            walker.problem(path, expected: "at most \(LayoutLimits.maxRegions) regions", found: "\(object.members.count)")
            return nil
        }
        let regions = object.members.compactMap { member in
            walker.object(member.value, at: path.key(member.key), expected: "a region object").flatMap {
                readRegion($0, name: member.key, resolution: resolution, at: path.key(member.key))
            }
        }
        return regions.count == object.members.count && !regions.isEmpty ? regions : nil
    }

    private mutating func readRegion(_ object: JSONObject, name: String, resolution: CanvasSize, at path: JSONPath) -> TwilioRegion? {
        walker.rejectUnknown(object, allowed: Self.regionFields, at: path)
        if name.isEmpty { walker.problem(path, "a region's name must not be empty") }
        let (canvasWidth, canvasHeight) = (resolution.width, resolution.height)
        // Twilio checks a position against the region's size, taken as 16 when it is not given.
        let givenWidth = Self.plainInteger(object["width"]), givenHeight = Self.plainInteger(object["height"])
        let x = integer(object, "x_pos", at: path, default: 0, in: 0...max(0, canvasWidth - (givenWidth ?? 16)),
                        why: "the composition's width \(canvasWidth) less the region's width \(givenWidth ?? 16)")
        let y = integer(object, "y_pos", at: path, default: 0, in: 0...max(0, canvasHeight - (givenHeight ?? 16)),
                        why: "the composition's height \(canvasHeight) less the region's height \(givenHeight ?? 16)")
        let z = integer(object, "z_pos", at: path, default: 0, in: -99...99, why: nil)
        let width = integer(object, "width", at: path, default: canvasWidth - (x ?? 0), in: 16...max(16, canvasWidth - (x ?? 0)),
                            why: "the composition's width \(canvasWidth) less x_pos \(x ?? 0)")
        let height = integer(object, "height", at: path, default: canvasHeight - (y ?? 0), in: 16...max(16, canvasHeight - (y ?? 0)),
                             why: "the composition's height \(canvasHeight) less y_pos \(y ?? 0)")
        let maxColumns = optionalInteger(object, "max_columns", at: path, in: 1...1000)
        let maxRows = optionalInteger(object, "max_rows", at: path, in: 1...1000)
        let cells = walker.optionalField(object, "cells_excluded", at: path, expected: "an array of cell indices", JSONConvert.array)
            .flatMap { values -> Set<Int>? in
                var cells: Set<Int> = []
                var fine = true
                for (index, value) in (values ?? []).enumerated() {
                    if let cell = walker.value(value, at: path.key("cells_excluded").index(index), expected: "a cell index from 0 to 999999",
                                               JSONConvert.integer(in: 0...999_999)) {
                        cells.insert(cell)
                    } else { fine = false }
                }
                return fine ? cells : nil
            }
        let reuse = walker.field(object, "reuse", at: path, default: TwilioReuse.showOldest,
                                 expected: "\"none\", \"show_oldest\" or \"show_newest\"", { value in
                                     if case .null = value { return TwilioReuse.showOldest }
                                     return JSONConvert.enumeration(TwilioReuse.self)(value)
                                 })
        let sources = walker.member(object, "video_sources", at: path, expected: "an array").flatMap {
            readPatterns($0, at: path.key("video_sources"))
        }
        let excluded = walker.optionalField(object, "video_sources_excluded", at: path, expected: "an array", { $0 })
            .flatMap { $0.map { readPatterns($0, at: path.key("video_sources_excluded")) } ?? .some([]) }
        guard let x, let y, let z, let width, let height, let maxColumns, let maxRows, let cells, let reuse,
              let sources, let excluded, !name.isEmpty else { return nil }
        return TwilioRegion(name: name, x: x, y: y, z: z, width: width, height: height, maxColumns: maxColumns,
                            maxRows: maxRows, cellsExcluded: cells, reuse: reuse, videoSources: sources,
                            videoSourcesExcluded: excluded)
    }

    private mutating func readPatterns(_ value: JSONValue, at path: JSONPath) -> [TwilioSourcePattern]? {
        guard let items = walker.value(value, at: path, expected: "an array of track names or sids", JSONConvert.array) else { return nil }
        let patterns = items.enumerated().compactMap { index, item in
            walker.value(item, at: path.index(index),
                         expected: "a track name (with at most one \"*\", leading or trailing) or a recording, track or participant sid",
                         { JSONConvert.string($0).flatMap(TwilioSourcePattern.init) })
        }
        return patterns.count == items.count ? patterns : nil
    }

    /// An integer within `range`, `default` when missing or null; `why` says where the range comes from.
    private mutating func integer(_ object: JSONObject, _ key: String, at path: JSONPath, default: Int, in range: ClosedRange<Int>,
                                  why: String?) -> Int? {
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound)" + (why.map { " (\($0))" } ?? "")
        return walker.field(object, key, at: path, default: `default`, expected: expected) { value in
            if case .null = value { return `default` }
            return JSONConvert.integer(in: range)(value)
        }
    }

    /// An integer within `range`, nil when missing or null; `.none` only when it is wrong.
    private mutating func optionalInteger(_ object: JSONObject, _ key: String, at path: JSONPath, in range: ClosedRange<Int>) -> Int?? {
        walker.optionalField(object, key, at: path, expected: "an integer from \(range.lowerBound) to \(range.upperBound)",
                             JSONConvert.integer(in: range))
    }

    private static func plainInteger(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return number.integer
    }

    /// `"1280x720"` within Twilio's limits, with even sides.
    private static func resolution(_ value: JSONValue) -> CanvasSize? {
        guard case .string(let text) = value else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 5 }), let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        let size = CanvasSize(width: width, height: height)
        return TwilioVideoLayout.resolutionProblem(size) == nil ? size : nil
    }
}
