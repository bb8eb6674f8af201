import Foundation

/// Draws a line of text as antialiased coverage with FreeType, from a chain of fonts: each character
/// comes from the first font that has every code point of it (DejaVu Sans for Latin, Greek, Cyrillic
/// and more; Noto Sans for Arabic, Hebrew, Devanagari, Bengali, Tamil and Thai; Noto Sans CJK for
/// Chinese, Japanese and Korean). Mixed-direction text is put in visual order by the Unicode
/// Bidirectional Algorithm (FriBidi), and each stretch of one font is shaped by HarfBuzz: Arabic
/// joins, Indic scripts reorder and stack, marks sit on their letters, kerning applies.
///
/// Glyphs are cached per font, glyph and size, so a text is rendered from FreeType once. Not
/// thread-safe: one rasteriser per thread.
public final class TextRasteriser {
    /// Tried in order; missing files are skipped. Bold reads better over video.
    public static let defaultFontFiles = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansBengali-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansTamil-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf",
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
        let ascent = max(line.ascender, laidOut.placed.map { $0.glyph.top + $0.y }.max() ?? 0)
        let descent = max(-line.descender, laidOut.placed.map { $0.glyph.height - $0.glyph.top - $0.y }.max() ?? 0)
        let width = max(laidOut.width, laidOut.placed.map { $0.x + $0.glyph.left + $0.glyph.width }.max() ?? 0)
        let height = ascent + descent
        var coverage = [UInt8](repeating: 0, count: width * height)
        for (x, y, glyph) in laidOut.placed {
            let originX = x + glyph.left, originY = ascent - glyph.top - y
            for row in 0..<glyph.height {
                let cy = originY + row
                guard cy >= 0, cy < height else { continue }
                for column in 0..<glyph.width {
                    let cx = originX + column
                    guard cx >= 0, cx < width else { continue }
                    let value = glyph.coverage[row * glyph.width + column]
                    // Overlapping glyphs (a combining accent) keep the stronger coverage.
                    if value > coverage[cy * width + cx] { coverage[cy * width + cx] = value }
                }
            }
        }
        return CoverageMask(width: width, height: height, coverage: coverage)
    }

    // MARK: Laying out

    private typealias Placed = (x: Int, y: Int, glyph: GlyphImage)

    /// Bidi runs in visual order; in each, stretches of one font shaped by HarfBuzz; glyphs placed on one pen.
    private func layout(_ text: String, pixelSize: Int) throws(MediaError) -> (placed: [Placed], width: Int) {
        guard pixelSize > 0 else { throw MediaError(.invalidArgument, "text size \(pixelSize) must be positive") }
        var scalars: [Unicode.Scalar] = []
        var faceOf: [Int?] = []
        let characters = Array(Self.normalised(text))
        // A word in one font where one font has all of it: letters shaped apart across a change of
        // font lose their joins (an Urdu name whose ہ only Noto has, the rest in DejaVu too).
        var wordFace: [Int?] = Array(repeating: nil, count: characters.count)
        var start = 0
        while start < characters.count {
            guard !characters[start].isWhitespace else { start += 1; continue }
            var end = start
            while end < characters.count, !characters[end].isWhitespace { end += 1 }
            let word = characters[start..<end]
            let face = faces.indices.first { index in
                word.allSatisfy { $0.unicodeScalars.allSatisfy { Self.isIgnorable($0) || faces[index].glyphIndex($0) != nil } }
            }
            for index in start..<end { wordFace[index] = face }
            start = end
        }
        for (position, character) in characters.enumerated() {
            let drawn: Character = character.isWhitespace ? " " : character
            var chosen = wordFace[position] ?? face(for: drawn)
            // A space stays in the font of the text before it when that font has one: runs stay whole.
            if drawn == " ", let previous = faceOf.last ?? nil, faces[previous].glyphIndex(" ") != nil { chosen = previous }
            for scalar in drawn.unicodeScalars {
                scalars.append(scalar)
                faceOf.append(chosen)
            }
        }
        var pen = 0  // 26.6 fixed point
        var placed: [Placed] = []
        for run in BidiRuns(scalars).visual {
            // Stretches of one font, in logical order; characters no font has are left out.
            var pieces: [(range: Range<Int>, face: Int)] = []
            var index = run.range.lowerBound
            while index < run.range.upperBound {
                guard let face = faceOf[index] else { index += 1; continue }
                var end = index + 1
                while end < run.range.upperBound, faceOf[end] == face { end += 1 }
                pieces.append((index..<end, face))
                index = end
            }
            if run.rightToLeft { pieces.reverse() }
            for piece in pieces {
                let face = faces[piece.face]
                try face.setPixelSize(pixelSize)
                for shaped in face.shape(scalars[piece.range], rightToLeft: run.rightToLeft) {
                    // Glyph 0 is the font's "missing" box: never drawn.
                    if shaped.index != 0 {
                        let glyph = try self.glyph(shaped.index, face: piece.face, size: pixelSize)
                        placed.append(((pen + shaped.xOffset + 32) >> 6, (shaped.yOffset + 32) >> 6, glyph))
                    }
                    pen += shaped.advance
                }
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
