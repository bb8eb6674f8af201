internal import CFriBidi

/// A line of text cut into runs of one direction, in the order they are shown (the Unicode
/// Bidirectional Algorithm, by FriBidi): "Dr. محمد Ali" is "Dr. ", the Arabic run right to left, " Ali".
/// The paragraph's direction is taken from its first strong character.
struct BidiRuns {
    struct Run: Equatable {
        /// Indices into the scalars, in logical order.
        var range: Range<Int>
        var rightToLeft: Bool
    }

    /// Runs in visual order, left to right.
    let visual: [Run]

    init(_ scalars: [Unicode.Scalar]) {
        guard !scalars.isEmpty else { visual = []; return }
        let characters = scalars.map { FriBidiChar($0.value) }
        let count = FriBidiStrIndex(characters.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: characters.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: characters.count)
        var levels = [FriBidiLevel](repeating: 0, count: characters.count)
        var direction = cfb_FRIBIDI_PAR_ON()
        fribidi_get_bidi_types(characters, count, &types)
        fribidi_get_bracket_types(characters, count, types, &brackets)
        let maxLevel = fribidi_get_par_embedding_levels_ex(types, brackets, count, &direction, &levels)
        // FriBidi failed (out of memory): one left-to-right run, as before shaping.
        guard maxLevel > 0 else { visual = [Run(range: 0..<scalars.count, rightToLeft: false)]; return }

        var runs: [(range: Range<Int>, level: Int)] = []
        var start = 0
        for index in 1...levels.count where index == levels.count || levels[index] != levels[start] {
            runs.append((start..<index, Int(levels[start])))
            start = index
        }
        // Rule L2: from the highest level down to the lowest odd one, reverse every stretch of runs at that level or above.
        let highest = runs.map(\.level).max() ?? 0
        let lowestOdd = runs.map(\.level).filter { $0 % 2 == 1 }.min() ?? highest + 1
        if lowestOdd <= highest {
            for level in stride(from: highest, through: lowestOdd, by: -1) {
                var index = 0
                while index < runs.count {
                    guard runs[index].level >= level else { index += 1; continue }
                    var end = index
                    while end < runs.count, runs[end].level >= level { end += 1 }
                    runs[index..<end].reverse()
                    index = end
                }
            }
        }
        visual = runs.map { Run(range: $0.range, rightToLeft: $0.level % 2 == 1) }
    }
}
