import StageMixJSON
/// Turns a JSON tree into a `Layout`, collecting every problem with its JSON path
/// instead of stopping at the first, so an author can fix a file in one pass.
final class LayoutReader {
    private(set) var problems: [LayoutProblem] = []

    private static let layoutFields = ["name", "canvas", "regions", "focus"]
    private static let canvasFields = ["width", "height", "fps", "background"]
    private static let regionFields = ["name", "x", "y", "width", "height", "z", "maxRows", "maxColumns", "gap",
                                       "fit", "background", "sources", "order", "skip", "limit", "when", "tileAspect", "label"]
    private static let labelFields = ["position", "size", "margin", "color", "plate", "plateOpacity"]
    /// Fractions may overshoot 1 by this much, to forgive decimal notation.
    private static let tolerance = 1e-9

    func read(_ root: JSONValue) -> Layout? {
        guard let object = object(root, at: "$") else { return nil }
        checkFields(of: object, allowed: Self.layoutFields, at: "$")
        let name = field(object, "name", at: "$", convert: nonEmptyString)
        let canvasObject = field(object, "canvas", at: "$", convert: self.object)
        let canvasFields = canvasObject.map { readCanvas($0, at: "$.canvas") }
        let background = canvasFields?.background ?? .black
        let regions = field(object, "regions", at: "$") { value, path in
            readRegions(value, background: background, canvas: canvasFields?.size, at: path)
        }
        let focus = field(object, "focus", at: "$", default: LayoutFocus.pinned, convert: choice)
        guard let name, let canvasFields, let size = canvasFields.size, let fps = canvasFields.fps,
              let regions else { return nil }
        return Layout(name: name, canvas: size, fps: fps, background: background, regions: regions, focus: focus ?? .pinned)
    }

    // MARK: Parts of a layout

    private func readCanvas(_ object: JSONObject, at path: String)
        -> (size: CanvasSize?, fps: Int?, background: RGBColor?) {
        checkFields(of: object, allowed: Self.canvasFields, at: path)
        let width = field(object, "width", at: path, convert: pixelCount)
        let height = field(object, "height", at: path, convert: pixelCount)
        let fps = field(object, "fps", at: path) { integer($0, at: $1, in: LayoutLimits.fps) }
        let background = field(object, "background", at: path, default: .black, convert: color)
        let size = width.flatMap { width in height.map { CanvasSize(width: width, height: $0) } }
        return (size, fps, background)
    }

    private func readRegions(_ value: JSONValue, background: RGBColor, canvas: CanvasSize?, at path: String) -> [Region]? {
        guard let items = array(value, at: path) else { return nil }
        if items.isEmpty { report(path, "expected at least one region, found an empty array") }
        guard items.count <= LayoutLimits.maxRegions else {
            report(path, "expected at most \(LayoutLimits.maxRegions) regions, found \(items.count)")
            return nil
        }
        var firstIndexOfName: [String: Int] = [:]
        var regions: [Region] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let object = object(item, at: itemPath) else { continue }
            let region = readRegion(object, background: background, canvas: canvas, at: itemPath)
            // Checked on the raw name, so a region with other problems still counts as a duplicate.
            if case .string(let name) = object["name"], !name.isEmpty {
                if let earlier = firstIndexOfName[name] {
                    report("\(itemPath).name", "duplicate region name \"\(name)\" (also \(path)[\(earlier)])")
                } else {
                    firstIndexOfName[name] = index
                }
            }
            if let region { regions.append(region) }
        }
        return regions.count == items.count ? regions : nil
    }

    private func readRegion(_ object: JSONObject, background: RGBColor, canvas: CanvasSize?, at path: String) -> Region? {
        checkFields(of: object, allowed: Self.regionFields, at: path)
        let name = field(object, "name", at: path, convert: nonEmptyString)
        let x = field(object, "x", at: path) { fraction($0, at: $1, positive: false) }
        let y = field(object, "y", at: path) { fraction($0, at: $1, positive: false) }
        let width = field(object, "width", at: path) { fraction($0, at: $1, positive: true) }
        let height = field(object, "height", at: path) { fraction($0, at: $1, positive: true) }
        let z = field(object, "z", at: path, default: 0) { integer($0, at: $1, in: LayoutLimits.z) }
        let maxRows = field(object, "maxRows", at: path, default: 1) { integer($0, at: $1, in: LayoutLimits.gridSide) }
        let maxColumns = field(object, "maxColumns", at: path, default: 1) { integer($0, at: $1, in: LayoutLimits.gridSide) }
        let gap = field(object, "gap", at: path, default: 0) { integer($0, at: $1, in: LayoutLimits.gap) }
        let fit = field(object, "fit", at: path, default: Fit.cover, convert: choice)
        let regionBackground = field(object, "background", at: path, default: background, convert: color)
        let sources = field(object, "sources", at: path, convert: sourceKinds)
        let order = field(object, "order", at: path, default: SourceOrder.pinned, convert: choice)
        let skip = field(object, "skip", at: path, default: 0) { integer($0, at: $1, in: LayoutLimits.skip) }
        let limit = optionalField(object, "limit", at: path) { integer($0, at: $1, in: LayoutLimits.limit) }
        let when = field(object, "when", at: path, default: RegionCondition.always, convert: choice)
        let tileAspect = optionalField(object, "tileAspect", at: path, convert: aspect)
        let label = optionalField(object, "label", at: path, convert: readLabel)

        if let x, let width, x + width > 1 + Self.tolerance {
            report(path, "region runs past the canvas's right edge: x + width = \(x + width)")
        }
        if let y, let height, y + height > 1 + Self.tolerance {
            report(path, "region runs past the canvas's bottom edge: y + height = \(y + height)")
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

    private func readLabel(_ value: JSONValue, at path: String) -> LabelStyle? {
        guard let object = object(value, at: path) else { return nil }
        checkFields(of: object, allowed: Self.labelFields, at: path)
        let position = field(object, "position", at: path, default: LabelStyle.defaultPosition, convert: choice)
        let size = field(object, "size", at: path, default: LabelStyle.defaultSize) { integer($0, at: $1, in: LayoutLimits.labelSize) }
        let margin = field(object, "margin", at: path, default: LabelStyle.defaultMargin) { integer($0, at: $1, in: LayoutLimits.labelMargin) }
        let color = field(object, "color", at: path, default: LabelStyle.defaultColor, convert: self.color)
        let plate = field(object, "plate", at: path, default: LabelStyle.defaultPlate, convert: self.color)
        let opacity = field(object, "plateOpacity", at: path, default: LabelStyle.defaultPlateOpacity, convert: unitInterval)
        guard let position, let size, let margin, let color, let plate, let opacity else { return nil }
        return LabelStyle(position: position, size: size, margin: margin, color: color, plate: plate, plateOpacity: opacity)
    }

    /// Each tile needs at least 2 pixels besides the gaps, at the layout's own canvas size.
    private func checkRoom(pixels: Double, tiles: Int, gap: Int, axis: String, field: String, at path: String) {
        let needed = tiles * 2 + (tiles - 1) * gap
        if Int(pixels) < needed {
            report(path, "region is \(Int(pixels)) px \(axis) on the canvas, too small for \(field) = \(tiles) with gap \(gap) (needs \(needed) px)")
        }
    }

    // MARK: Fields

    /// A required field, converted; reports it when missing.
    private func field<T>(_ object: JSONObject, _ key: String, at path: String,
                          convert: (JSONValue, String) -> T?) -> T? {
        guard let value = object[key] else {
            report(path, "missing required field \"\(key)\"")
            return nil
        }
        return convert(value, Self.child(path, key))
    }

    /// A field with a default when absent.
    private func field<T>(_ object: JSONObject, _ key: String, at path: String, default: T,
                          convert: (JSONValue, String) -> T?) -> T? {
        guard let value = object[key] else { return `default` }
        return convert(value, Self.child(path, key))
    }

    /// A field that may be absent or null: `.some(nil)` then, `nil` when it is invalid.
    private func optionalField<T>(_ object: JSONObject, _ key: String, at path: String,
                                  convert: (JSONValue, String) -> T?) -> T?? {
        guard let value = object[key] else { return .some(nil) }
        if case .null = value { return .some(nil) }
        guard let converted = convert(value, Self.child(path, key)) else { return nil }
        return .some(converted)
    }

    private func checkFields(of object: JSONObject, allowed: [String], at path: String) {
        for key in Set(object.members.map(\.key)).sorted() where !allowed.contains(key) {
            report(Self.child(path, key), "unknown field (expected one of \(allowed.joined(separator: ", ")))")
        }
    }

    // MARK: Values

    private func object(_ value: JSONValue, at path: String) -> JSONObject? {
        guard case .object(let object) = value else { return mismatch(path, "an object", value) }
        // A key given twice would silently lose one of its values: the author must choose.
        for key in object.duplicateKeys {
            report(Self.child(path, key), "duplicate key \"\(key)\" (each field may appear once)")
        }
        return object
    }

    private func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
        if case .array(let items) = value { return items }
        return mismatch(path, "an array", value)
    }

    private func nonEmptyString(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value, !text.isEmpty else { return mismatch(path, "a non-empty string", value) }
        return text
    }

    /// An integer within `range` (docs/limits.md); a larger one, even beyond `Int`, is rejected, not rounded.
    private func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value, let integer = number.integer, range.contains(integer)
        else { return mismatch(path, "an integer from \(range.lowerBound) to \(range.upperBound)", value) }
        return integer
    }

    private func pixelCount(_ value: JSONValue, at path: String) -> Int? {
        let range = LayoutLimits.canvasSide
        guard case .number(let number) = value, let pixels = number.integer, range.contains(pixels), pixels % 2 == 0
        else { return mismatch(path, "an even number of pixels from \(range.lowerBound) to \(range.upperBound)", value) }
        return pixels
    }

    private func fraction(_ value: JSONValue, at path: String, positive: Bool) -> Double? {
        guard case .number(let json) = value, case let number = json.value, number <= 1 + Self.tolerance,
              positive ? number > 0 : number >= 0 else {
            return mismatch(path, positive ? "a fraction of the canvas in (0, 1]" : "a fraction of the canvas in [0, 1]", value)
        }
        return min(number, 1)
    }

    private func unitInterval(_ value: JSONValue, at path: String) -> Double? {
        guard case .number(let json) = value, (0...1).contains(json.value) else { return mismatch(path, "a number in [0, 1]", value) }
        return json.value
    }

    private func color(_ value: JSONValue, at path: String) -> RGBColor? {
        guard case .string(let text) = value, let color = try? RGBColor(hex: text) else {
            return mismatch(path, "a colour \"#RRGGBB\"", value)
        }
        return color
    }

    private func aspect(_ value: JSONValue, at path: String) -> TileAspect? {
        guard case .string(let text) = value, let aspect = TileAspect(text) else {
            return mismatch(path, "an aspect ratio such as \"16:9\"", value)
        }
        return aspect
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(_ value: JSONValue, at path: String) -> Choice?
        where Choice.RawValue == String {
        if case .string(let text) = value, let choice = Choice(rawValue: text) { return choice }
        return mismatch(path, Self.alternatives(Choice.allCases.map(\.rawValue)), value)
    }

    private func sourceKinds(_ value: JSONValue, at path: String) -> [SourceKind]? {
        guard let items = array(value, at: path) else { return nil }
        if items.isEmpty { report(path, "expected at least one of \(Self.alternatives(SourceKind.allCases.map(\.rawValue))), found an empty array") }
        var kinds: [SourceKind] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let kind: SourceKind = choice(item, at: itemPath) else { continue }
            if kinds.contains(kind) {
                report(itemPath, "\"\(kind.rawValue)\" is listed twice")
            }
            kinds.append(kind)
        }
        return kinds.count == items.count && !items.isEmpty ? kinds : nil
    }

    // MARK: Reporting

    private func report(_ path: String, _ message: String) {
        problems.append(LayoutProblem(path: path, message: message))
    }

    private func mismatch<T>(_ path: String, _ expected: String, _ found: JSONValue) -> T? {
        report(path, "expected \(expected), found \(Self.summary(found))")
        return nil
    }

    /// How a found value reads in a layout problem: `"stretch"`, `1.5`, `true`, `an object`.
    private static func summary(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let number): number.text
        case .string(let text): JSONValue.quoted(text)
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func alternatives(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    private static func child(_ path: String, _ key: String) -> String {
        let plain = key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !key.isEmpty
        return plain ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
    }
}
