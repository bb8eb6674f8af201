internal import CFreeType
internal import CHarfBuzz

/// One font file opened with FreeType (`FT_Face`), at one pixel size at a time. Keeps its library
/// alive, since a face must be freed before the library it came from.
final class FontFace {
    let path: String
    private let library: FontLibrary
    private let face: FT_Face
    private var pixelSize = 0
    let hasKerning: Bool
    /// HarfBuzz's view of the same face, at the same size.
    private let shaper: OpaquePointer

    init(path: String, library: FontLibrary) throws(MediaError) {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, path, 0, &face)
        guard error == 0, let face else {
            throw MediaError(.openFailed, "\(path): FreeType cannot open the font (error \(error))", underlyingCode: error)
        }
        self.path = path
        self.library = library
        self.face = face
        hasKerning = cft_FT_HAS_KERNING(face) != 0
        shaper = hb_ft_font_create_referenced(face)
    }

    deinit {
        hb_font_destroy(shaper)
        FT_Done_Face(face)
    }

    /// The glyph index for `scalar`, or nil when the font has no glyph for it.
    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32? {
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        return index == 0 ? nil : index
    }

    func setPixelSize(_ size: Int) throws(MediaError) {
        guard size != pixelSize else { return }
        let error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        guard error == 0 else {
            throw MediaError(.invalidArgument, "\(path): cannot set pixel size \(size) (error \(error))", underlyingCode: error)
        }
        pixelSize = size
        hb_ft_font_changed(shaper)
    }

    /// `scalars` shaped by HarfBuzz at the current size, in one direction: glyphs in visual order
    /// (left to right, also for right-to-left text), each with its advance and offsets in 26.6 fixed point. Script and language are guessed
    /// from the text, so Arabic joins, Devanagari reorders and marks sit where they belong.
    func shape(_ scalars: ArraySlice<Unicode.Scalar>, rightToLeft: Bool) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        let codepoints = scalars.map { UInt32($0.value) }
        hb_buffer_add_utf32(buffer, codepoints, Int32(codepoints.count), 0, Int32(codepoints.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(shaper, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { index in
            ShapedGlyph(index: infos[index].codepoint, advance: Int(positions[index].x_advance), xOffset: Int(positions[index].x_offset), yOffset: Int(positions[index].y_offset))
        }
    }

    /// Ascender and descender (negative) at the current size, in whole pixels.
    var lineMetrics: (ascender: Int, descender: Int) {
        let metrics = face.pointee.size.pointee.metrics
        return (Int((metrics.ascender + 63) >> 6), Int(metrics.descender >> 6))
    }

    /// Horizontal kerning between two glyphs at the current size, in 26.6 fixed point.
    func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard hasKerning else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, cft_FT_KERNING_DEFAULT(), &delta) == 0 else { return 0 }
        return Int(delta.x)
    }

    /// Renders glyph `index` at the current size as antialiased coverage.
    func render(_ index: UInt32) throws(MediaError) -> GlyphImage {
        let error = FT_Load_Glyph(face, index, cft_FT_LOAD_RENDER())
        guard error == 0 else {
            throw MediaError(.invalidData, "\(path): cannot render glyph \(index) (error \(error))", underlyingCode: error)
        }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if width > 0, rows > 0, let buffer = bitmap.buffer {
            guard Int32(bitmap.pixel_mode) == cft_FT_PIXEL_MODE_GRAY() else {
                throw MediaError(.invalidData, "\(path): glyph \(index) is not a grey bitmap")
            }
            for row in 0..<rows {
                // A negative pitch means the rows run bottom-up from the buffer's end.
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
                for column in 0..<width { coverage[row * width + column] = source[column] }
            }
        }
        return GlyphImage(width: width, height: rows, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                          advance: Int(slot.advance.x), coverage: coverage)
    }
}

/// A glyph HarfBuzz placed: the font's glyph index, and how far it moves the pen and is moved from it
/// (26.6 fixed point; `yOffset` up).
struct ShapedGlyph {
    var index: UInt32
    var advance: Int
    var xOffset: Int
    var yOffset: Int
}

/// A rendered glyph: coverage rows, its offset from the pen (`top` is above the baseline), and how
/// far it moves the pen (26.6 fixed point).
struct GlyphImage {
    var width: Int
    var height: Int
    var left: Int
    var top: Int
    var advance: Int
    var coverage: [UInt8]
}
