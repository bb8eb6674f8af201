import StageMixJSON
/// Turns a JSON tree into a `Layout`, collecting every problem with its JSON path
/// instead of stopping at the first, so an author can fix a file in one pass.
struct LayoutReader {
    private var walker: JSONWalker
    var problems: [JSONProblem] { walker.problems }

    private static let layoutFields = ["name", "canvas", "regions", "focus"]
    private static let canvasFields = ["width", "height", "fps", "background"]
    private static let regionFields = ["name", "x", "y", "width", "height", "z", "maxRows", "maxColumns", "gap",
                                       "fit", "background", "sources", "order", "skip", "limit", "when", "tileAspect", "label"]
    private static let labelFields = ["position", "size", "margin", "color", "plate", "plateOpacity"]
    /// Fractions may overshoot 1 by this much, to forgive decimal notation.
    private static let tolerance = 1e-9

    init(file: String) { walker = JSONWalker(file: file, wording: .fields) }

    mutating func read(_ root: JSONValue) -> Layout? {
        let path = JSONPath.root
        guard let object = walker.object(root, at: path) else { return nil }
        walker.rejectUnknown(object, allowed: Self.layoutFields, at: path)
        let name = walker.field(object, "name", at: path, expected: Self.nonEmptyString.expected, Self.nonEmptyString.convert)
        let canvasObject = walker.member(object, "canvas", at: path, expected: "an object")
            .flatMap { walker.object($0, at: path.key("canvas")) }
        let canvasFields = canvasObject.map { readCanvas($0, at: path.key("canvas")) }
        let background = canvasFields?.background ?? .black
        let regions = walker.member(object, "regions", at: path, expected: "an array of regions").flatMap {
            readRegions($0, background: background, canvas: canvasFields?.size, at: path.key("regions"))
        }
        let focus = choice(object, "focus", at: path, default: LayoutFocus.pinned)
        guard let name, let canvasFields, let size = canvasFields.size, let fps = canvasFields.fps,
              let regions else { return nil }
        return Layout(name: name, canvas: size, fps: fps, background: background, regions: regions, focus: focus ?? .pinned)
    }

    // MARK: Parts of a layout

    private mutating func readCanvas(_ object: JSONObject, at path: JSONPath)
        -> (size: CanvasSize?, fps: Int?, background: RGBColor?) {
        walker.rejectUnknown(object, allowed: Self.canvasFields, at: path)
        let width = walker.field(object, "width", at: path, expected: Self.pixelCount.expected, Self.pixelCount.convert)
        let height = walker.field(object, "height", at: path, expected: Self.pixelCount.expected, Self.pixelCount.convert)
        let fps = integer(object, "fps", at: path, in: LayoutLimits.fps)
        let background = walker.field(object, "background", at: path, default: .black, expected: Self.color.expected, Self.color.convert)
        let size = width.flatMap { width in height.map { CanvasSize(width: width, height: $0) } }
        return (size, fps, background)
    }

    private mutating func readRegions(_ value: JSONValue, background: RGBColor, canvas: CanvasSize?, at path: JSONPath) -> [Region]? {
        guard let items = walker.value(value, at: path, expected: "an array", JSONConvert.array) else { return nil }
        if items.isEmpty { walker.problem(path, expected: "at least one region", found: "an empty array") }
        guard items.count <= LayoutLimits.maxRegions else {
            walker.problem(path, expected: "at most \(LayoutLimits.maxRegions) regions", found: "\(items.count)")
            return nil
        }
        var firstIndexOfName: [String: Int] = [:]
        var regions: [Region] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = walker.object(item, at: itemPath) else { continue }
            let region = readRegion(object, background: background, canvas: canvas, at: itemPath)
            // Checked on the raw name, so a region with other problems still counts as a duplicate.
            if case .string(let name) = object["name"], !name.isEmpty {
                if let earlier = firstIndexOfName[name] {
                    walker.problem(itemPath.key("name"), "duplicate region name \"\(name)\" (also \(path.index(earlier)))")
                } else {
                    firstIndexOfName[name] = index
                }
            }
            if let region { regions.append(region) }
        }
        return regions.count == items.count ? regions : nil
    }

    private mutating func readRegion(_ object: JSONObject, background: RGBColor, canvas: CanvasSize?, at path: JSONPath) -> Region? {
        walker.rejectUnknown(object, allowed: Self.regionFields, at: path)
        let name = walker.field(object, "name", at: path, expected: Self.nonEmptyString.expected, Self.nonEmptyString.convert)
        let x = fraction(object, "x", at: path, positive: false)
        let y = fraction(object, "y", at: path, positive: false)
        let width = fraction(object, "width", at: path, positive: true)
        let height = fraction(object, "height", at: path, positive: true)
        let z = integer(object, "z", at: path, default: 0, in: LayoutLimits.z)
        let maxRows = integer(object, "maxRows", at: path, default: 1, in: LayoutLimits.gridSide)
        let maxColumns = integer(object, "maxColumns", at: path, default: 1, in: LayoutLimits.gridSide)
        let gap = integer(object, "gap", at: path, default: 0, in: LayoutLimits.gap)
        let fit = choice(object, "fit", at: path, default: Fit.cover)
        let regionBackground = walker.field(object, "background", at: path, default: background,
                                            expected: Self.color.expected, Self.color.convert)
        let sources = walker.member(object, "sources", at: path, expected: "an array").flatMap {
            readSourceKinds($0, at: path.key("sources"))
        }
        let order = choice(object, "order", at: path, default: SourceOrder.pinned)
        let skip = integer(object, "skip", at: path, default: 0, in: LayoutLimits.skip)
        let limitRange = LayoutLimits.limit
        let limit = walker.optionalField(object, "limit", at: path, expected: Self.integerExpected(limitRange),
                                         JSONConvert.integer(in: limitRange))
        let when = choice(object, "when", at: path, default: RegionCondition.always)
        let tileAspect = walker.optionalField(object, "tileAspect", at: path, expected: Self.aspect.expected, Self.aspect.convert)
        let label = readLabel(object, at: path)

        if let x, let width, x + width > 1 + Self.tolerance {
            walker.problem(path, "region runs past the canvas's right edge: x + width = \(x + width)")
        }
        if let y, let height, y + height > 1 + Self.tolerance {
            walker.problem(path, "region runs past the canvas's bottom edge: y + height = \(y + height)")
        }
        if let canvas, let width, let maxColumns, let gap {
            checkRoom(pixels: Double(canvas.width) * width, tiles: maxColumns, gap: gap, axis: "wide", field: "maxColumns", at: path)
        }
        if let canvas, let height, let maxRows, let gap {
            checkRoom(pixels: Double(canvas.height) * height, tiles: maxRows, gap: gap, axis: "high", field: "maxRows", at: path)
        }
        guard let name, let x, let y, let width, let height, let z, let maxRows, let maxColumns, let gap, let fit,
              let regionBackground, let sources, let order, let skip, let limit, let when, let tileAspect,
              let label
        else { return nil }
        return Region(name: name, x: x, y: y, width: width, height: height, z: z, maxRows: maxRows,
                      maxColumns: maxColumns, gap: gap, fit: fit, background: regionBackground, sources: sources,
                      order: order, skip: skip, limit: limit, when: when, tileAspect: tileAspect, label: label)
    }

    /// The region's `label`: `.some(nil)` when it has none, `nil` when it is wrong.
    private mutating func readLabel(_ region: JSONObject, at regionPath: JSONPath) -> LabelStyle?? {
        guard let value = region["label"] else { return .some(nil) }
        if case .null = value { return .some(nil) }
        let path = regionPath.key("label")
        guard let object = walker.object(value, at: path) else { return nil }
        walker.rejectUnknown(object, allowed: Self.labelFields, at: path)
        let position = choice(object, "position", at: path, default: LabelStyle.defaultPosition)
        let size = integer(object, "size", at: path, default: LabelStyle.defaultSize, in: LayoutLimits.labelSize)
        let margin = integer(object, "margin", at: path, default: LabelStyle.defaultMargin, in: LayoutLimits.labelMargin)
        let color = walker.field(object, "color", at: path, default: LabelStyle.defaultColor, expected: Self.color.expected, Self.color.convert)
        let plate = walker.field(object, "plate", at: path, default: LabelStyle.defaultPlate, expected: Self.color.expected, Self.color.convert)
        let opacity = walker.field(object, "plateOpacity", at: path, default: LabelStyle.defaultPlateOpacity,
                                   expected: "a number in [0, 1]") { value -> Double? in
            guard case .number(let json) = value, (0...1).contains(json.value) else { return nil }
            return json.value
        }
        guard let position, let size, let margin, let color, let plate, let opacity else { return nil }
        return .some(LabelStyle(position: position, size: size, margin: margin, color: color, plate: plate, plateOpacity: opacity))
    }

    private mutating func readSourceKinds(_ value: JSONValue, at path: JSONPath) -> [SourceKind]? {
        guard let items = walker.value(value, at: path, expected: "an array", JSONConvert.array) else { return nil }
        let expected = Self.alternatives(SourceKind.self)
        if items.isEmpty { walker.problem(path, expected: "at least one of \(expected)", found: "an empty array") }
        var kinds: [SourceKind] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let kind = walker.value(item, at: itemPath, expected: expected, JSONConvert.enumeration(SourceKind.self))
            else { continue }
            if kinds.contains(kind) {
                walker.problem(itemPath, "\"\(kind.rawValue)\" is listed twice")
            }
            kinds.append(kind)
        }
        return kinds.count == items.count && !items.isEmpty ? kinds : nil
    }

    /// Each tile needs at least 2 pixels besides the gaps, at the layout's own canvas size.
    private mutating func checkRoom(pixels: Double, tiles: Int, gap: Int, axis: String, field: String, at path: JSONPath) {
        let needed = tiles * 2 + (tiles - 1) * gap
        if Int(pixels) < needed {
            walker.problem(path, "region is \(Int(pixels)) px \(axis) on the canvas, too small for \(field) = \(tiles) with gap \(gap) (needs \(needed) px)")
        }
    }

    // MARK: Fields of the layout's kinds

    /// An integer within `range` (docs/limits.md); required unless it has a default.
    private mutating func integer(_ object: JSONObject, _ key: String, at path: JSONPath, default: Int? = nil,
                                  in range: ClosedRange<Int>) -> Int? {
        let expected = Self.integerExpected(range)
        if let `default` {
            return walker.field(object, key, at: path, default: `default`, expected: expected, JSONConvert.integer(in: range))
        }
        return walker.field(object, key, at: path, expected: expected, JSONConvert.integer(in: range))
    }

    private mutating func fraction(_ object: JSONObject, _ key: String, at path: JSONPath, positive: Bool) -> Double? {
        let expected = positive ? "a fraction of the canvas in (0, 1]" : "a fraction of the canvas in [0, 1]"
        return walker.field(object, key, at: path, expected: expected) { value -> Double? in
            guard case .number(let json) = value, case let number = json.value, number <= 1 + Self.tolerance,
                  positive ? number > 0 : number >= 0 else { return nil }
            return min(number, 1)
        }
    }

    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ object: JSONObject, _ key: String, at path: JSONPath, default: Choice
    ) -> Choice? where Choice.RawValue == String {
        walker.field(object, key, at: path, default: `default`, expected: Self.alternatives(Choice.self),
                     JSONConvert.enumeration(Choice.self))
    }

    // MARK: Values

    private typealias Conversion<T> = (expected: String, convert: @Sendable (JSONValue) -> T?)

    private static let nonEmptyString: Conversion<String> = ("a non-empty string", { JSONConvert.nonEmptyString($0) })

    private static let pixelCount: Conversion<Int> = (
        "an even number of pixels from \(LayoutLimits.canvasSide.lowerBound) to \(LayoutLimits.canvasSide.upperBound)",
        { value in JSONConvert.integer(in: LayoutLimits.canvasSide)(value).flatMap { $0 % 2 == 0 ? $0 : nil } }
    )

    private static let color: Conversion<RGBColor> = ("a colour \"#RRGGBB\"", { value in
        JSONConvert.string(value).flatMap { try? RGBColor(hex: $0) }
    })

    private static let aspect: Conversion<TileAspect> = ("an aspect ratio such as \"16:9\"", { value in
        JSONConvert.string(value).flatMap { TileAspect($0) }
    })

    private static func integerExpected(_ range: ClosedRange<Int>) -> String {
        "an integer from \(range.lowerBound) to \(range.upperBound)"
    }

    private static func alternatives<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) -> String
        where Choice.RawValue == String {
        let quoted = Choice.allCases.map { "\"\($0.rawValue)\"" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
