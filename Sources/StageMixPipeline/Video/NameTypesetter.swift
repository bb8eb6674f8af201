import Foundation
import StageMixMedia

/// Decides what of a participant's name fits where, and draws it: the whole name, the name cut short
/// with an ellipsis, or the initials when no installed font can draw the name. Never boxes for
/// missing glyphs: what cannot be drawn is not shown. Each text is rasterised once per size and kept.
final class NameTypesetter {
    /// nil when no font could be opened: then no names are drawn (`problem` says why).
    private let rasteriser: TextRasteriser?
    let problem: String?
    private struct Key: Hashable { var text: String; var size: Int }
    private var masks: [Key: CoverageMask] = [:]
    private var widths: [Key: Int] = [:]
    private static let ellipsis = "…"

    init(fontFiles: [String] = NameTypesetter.fontFiles()) {
        do {
            rasteriser = try TextRasteriser(fontFiles: fontFiles)
            problem = nil
        } catch {
            rasteriser = nil
            problem = error.message
        }
    }

    /// `STAGEMIX_FONTS` (paths separated by colons) replaces the built-in chain of Debian's fonts.
    static func fontFiles(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        guard let list = environment["STAGEMIX_FONTS"], !list.isEmpty else { return TextRasteriser.defaultFontFiles }
        return list.split(separator: ":").map(String.init)
    }

    private var drawable: [String: Bool] = [:]

    /// Whether every character of `text` is in some font of the chain; asked for every tile of every frame, so kept.
    func canDraw(_ text: String) -> Bool {
        if let known = drawable[text] { return known }
        let answer = rasteriser?.canDraw(text) ?? false
        if drawable.count >= 4096 { drawable = [:] }
        drawable[text] = answer
        return answer
    }

    /// Up to two initials, the first drawable letter of the first and of the last word (a word whose
    /// first letter no font has gives none), upper-cased: "José Núñez" is "JN".
    func initials(of name: String) -> String {
        let words = name.split { !$0.isLetter && !$0.isNumber }
        let letters = words.compactMap { word -> String? in
            guard let first = word.first else { return nil }
            let letter = String(first).uppercased()
            return canDraw(letter) ? letter : nil
        }
        guard let first = letters.first else { return "" }
        return letters.count > 1 ? first + letters.last! : first
    }

    /// What to show of `name` at `size` in `maxWidth` pixels: the name; else, when `shorten`, its
    /// longest start that fits with an ellipsis; else its initials if they fit; else nil.
    func fit(_ name: String, size: Int, maxWidth: Int, shorten: Bool = true) -> String? {
        guard rasteriser != nil, maxWidth > 0 else { return nil }
        if canDraw(name) {
            if width(name, size: size) <= maxWidth { return name }
            if shorten, let cut = shortened(name, size: size, maxWidth: maxWidth) { return cut }
        }
        let initials = initials(of: name)
        return !initials.isEmpty && width(initials, size: size) <= maxWidth ? initials : nil
    }

    /// The longest start of `name` (whole characters, trailing spaces dropped, at least one letter)
    /// that fits `maxWidth` with an ellipsis after it. Widths grow with length, so it is a bisection.
    private func shortened(_ name: String, size: Int, maxWidth: Int) -> String? {
        let characters = Array(name)
        func candidate(_ count: Int) -> String {
            String(characters.prefix(count)).trimmingCharacters(in: .whitespaces) + Self.ellipsis
        }
        var low = 0, high = characters.count - 1  // the longest count known to fit, the shortest that may not
        while low < high {
            let middle = (low + high + 1) / 2
            if width(candidate(middle), size: size) <= maxWidth { low = middle } else { high = middle - 1 }
        }
        guard low >= 1 else { return nil }
        let text = candidate(low)
        return text == Self.ellipsis ? nil : text
    }

    func width(_ text: String, size: Int) -> Int {
        let key = Key(text: text, size: size)
        if let known = widths[key] { return known }
        let width = (try? rasteriser?.width(of: text, pixelSize: size)) ?? Int.max
        widths[key] = width
        return width
    }

    /// The line box's height at `size`: every label of a size has the same.
    func lineHeight(size: Int) -> Int {
        (try? rasteriser?.lineHeight(pixelSize: size)) ?? size
    }

    /// `text` rasterised at `size`, from the cache after the first time.
    func mask(_ text: String, size: Int) throws(MediaError) -> CoverageMask? {
        guard let rasteriser else { return nil }
        let key = Key(text: text, size: size)
        if let cached = masks[key] { return cached }
        // Names and sizes are few, but a long session could bring many: start over past a bound.
        if masks.count >= 1024 { masks = [:]; widths = [:] }
        let mask = try rasteriser.render(text, pixelSize: size)
        masks[key] = mask
        return mask
    }
}
