import Foundation

/// Draws a line of text as antialiased coverage with FreeType, from a chain of fonts: each character
/// comes from the first font that has every code point of it (DejaVu Sans for Latin, Greek, Cyrillic
/// and more; Noto Sans CJK when installed for Chinese, Japanese and Korean). No shaping beyond
/// kerning: scripts that need it (Arabic joining, Indic reordering) come out as isolated glyphs.
///
/// Glyphs are cached per font, glyph and size, so a text is rendered from FreeType once. Not
/// thread-safe: one rasteriser per thread.
public final class TextRasteriser {
    /// Tried in order; missing files are skipped. Bold reads better over video.
    public static let defaultFontFiles = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    ]

    /// The font files in use, in the order they are tried.
    public var fontFiles: [String] { faces.map(\.path) }
    private let faces: [FontFace]
    private struct GlyphKey: Hashable { var face: Int; var index: UInt32; var size: Int }
    private var glyphs: [GlyphKey: GlyphImage] = [:]

    /// Opens every file of `fontFiles` that exists and FreeType reads; throws `.notFound` when none does.
    public init(fontFiles: [String] = defaultFontFiles) throws(MediaError) {
        let library = try FontLibrary()
        var faces: [FontFace] = []
        for path in fontFiles where FileManager.default.fileExists(atPath: path) {
            if let face = try? FontFace(path: path, library: library) { faces.append(face) }
        }
        guard !faces.isEmpty else {
            throw MediaError(.notFound, "no font to draw names with: none of \(fontFiles.joined(separator: ", ")) (install fonts-dejavu-core)")
        }
        self.faces = faces
    }

    /// Whether every character of `text` is in some font of the chain (whitespace always is).
    public func canDraw(_ text: String) -> Bool {
        Self.normalised(text).allSatisfy {
            $0.isWhitespace || $0.unicodeScalars.allSatisfy(Self.isIgnorable) || face(for: $0) != nil
        }
    }

    /// Pixels from the left of the first glyph's pen position to the end of the last advance.
    public func width(of text: String, pixelSize: Int) throws(MediaError) -> Int {
        try layout(text, pixelSize: pixelSize).width
    }

    /// The first font's line box at `pixelSize`: the height every label of that size has.
    public func lineHeight(pixelSize: Int) throws(MediaError) -> Int {
        try faces[0].setPixelSize(pixelSize)
        let metrics = faces[0].lineMetrics
        return metrics.ascender - metrics.descender
    }

    /// `text` drawn at `pixelSize` (the em, in pixels): as wide as `width(of:pixelSize:)`, as tall as
    /// the line box or the glyphs if they reach further. Characters no font has are left out.
    public func render(_ text: String, pixelSize: Int) throws(MediaError) -> CoverageMask {
        let laidOut = try layout(text, pixelSize: pixelSize)
        try faces[0].setPixelSize(pixelSize)
        let line = faces[0].lineMetrics
        let ascent = max(line.ascender, laidOut.placed.map(\.glyph.top).max() ?? 0)
        let descent = max(-line.descender, laidOut.placed.map { $0.glyph.height - $0.glyph.top }.max() ?? 0)
        let width = max(laidOut.width, laidOut.placed.map { $0.x + $0.glyph.left + $0.glyph.width }.max() ?? 0)
        let height = ascent + descent
        var coverage = [UInt8](repeating: 0, count: width * height)
        for (x, glyph) in laidOut.placed {
            let originX = x + glyph.left, originY = ascent - glyph.top
            for row in 0..<glyph.height {
                let y = originY + row
                guard y >= 0, y < height else { continue }
                for column in 0..<glyph.width {
                    let cx = originX + column
                    guard cx >= 0, cx < width else { continue }
                    let value = glyph.coverage[row * glyph.width + column]
                    // Overlapping glyphs (a combining accent) keep the stronger coverage.
                    if value > coverage[y * width + cx] { coverage[y * width + cx] = value }
                }
            }
        }
        return CoverageMask(width: width, height: height, coverage: coverage)
    }

    // MARK: Laying out

    private func layout(_ text: String, pixelSize: Int) throws(MediaError) -> (placed: [(x: Int, glyph: GlyphImage)], width: Int) {
        guard pixelSize > 0 else { throw MediaError(.invalidArgument, "text size \(pixelSize) must be positive") }
        var pen = 0  // 26.6 fixed point
        var placed: [(x: Int, glyph: GlyphImage)] = []
        var previous: (face: Int, index: UInt32)?
        for character in Self.normalised(text) {
            let drawn = character.isWhitespace ? " " : character
            guard let faceIndex = face(for: drawn) else { previous = nil; continue }
            let face = faces[faceIndex]
            try face.setPixelSize(pixelSize)
            for scalar in drawn.unicodeScalars where !Self.isIgnorable(scalar) {
                guard let index = face.glyphIndex(scalar) else { continue }
                if let previous, previous.face == faceIndex { pen += face.kerning(previous.index, index) }
                let glyph = try self.glyph(index, face: faceIndex, size: pixelSize)
                placed.append(((pen + 32) >> 6, glyph))
                pen += glyph.advance
                previous = (faceIndex, index)
            }
        }
        return (placed, (pen + 63) >> 6)
    }

    private func glyph(_ index: UInt32, face: Int, size: Int) throws(MediaError) -> GlyphImage {
        let key = GlyphKey(face: face, index: index, size: size)
        if let cached = glyphs[key] { return cached }
        try faces[face].setPixelSize(size)
        let glyph = try faces[face].render(index)
        glyphs[key] = glyph
        return glyph
    }

    /// The first font with a glyph for every code point of `character` that needs one.
    private func face(for character: Character) -> Int? {
        let scalars = character.unicodeScalars.filter { !Self.isIgnorable($0) }
        guard !scalars.isEmpty else { return nil }
        return faces.indices.first { index in scalars.allSatisfy { faces[index].glyphIndex($0) != nil } }
    }

    /// Joiners and variation selectors change how neighbours look, never draw anything themselves.
    private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint
    }

    /// Composed (NFC), so "José" typed with a combining accent draws the font's own "é".
    private static func normalised(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }
}
