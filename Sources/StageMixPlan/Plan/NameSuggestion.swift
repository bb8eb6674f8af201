/// The name a user probably meant: `gird` for `grid`, `Omar` for `p-omar`. Used in messages only.
enum NameSuggestion {
    /// The candidate closest to `typed` by edit distance (letter case ignored), if it is close: at most
    /// a third of the typed name's letters wrong (two for short names), and one candidate clearly closest.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let wanted = Array(typed.lowercased())
        guard !wanted.isEmpty, wanted.count <= 64 else { return nil }
        let scored = candidates.map { ($0, distance(wanted, Array($0.lowercased().prefix(128)))) }.sorted { $0.1 < $1.1 }
        guard let best = scored.first, best.1 <= max(2, (wanted.count + 2) / 3) else { return nil }
        if scored.count > 1, scored[1].1 == best.1 { return nil }
        return best.0
    }

    /// Edit distance where swapping two neighbours counts as one edit (`gird` is one from `grid`):
    /// the optimal string alignment distance, two rows kept.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], before[j - 2] + 1)
                }
            }
            (before, previous, row) = (previous, row, before)
        }
        return previous[b.count]
    }
}
