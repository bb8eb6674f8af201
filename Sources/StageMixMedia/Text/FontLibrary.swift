internal import CFreeType

/// One FreeType library instance (`FT_Library`), freed when the last face opened from it is gone.
/// FreeType objects are not thread-safe: a library and its faces belong to one thread at a time.
final class FontLibrary {
    let handle: FT_Library

    init() throws(MediaError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            throw MediaError(.openFailed, "cannot start FreeType (error \(error))", underlyingCode: error)
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}
