/// The page's text as it is written, in one growing string.
struct PageWriter {
    private(set) var text = ""

    init() { text.reserveCapacity(1 << 16) }

    /// Markup StageMix wrote; anything from users goes through ``HTMLText/escape(_:)`` first.
    mutating func raw(_ markup: String) { text += markup }
}
