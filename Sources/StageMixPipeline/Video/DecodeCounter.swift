/// Counts decoded frames per media file, so a composition can show it decoded only what it showed.
final class DecodeCounter {
    private(set) var framesByFile: [String: Int] = [:]
    func count(_ file: String) { framesByFile[file, default: 0] += 1 }
}
