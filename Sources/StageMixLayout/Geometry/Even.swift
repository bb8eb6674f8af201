/// Rounding helpers that keep pixel values even.
enum Even {
    /// The even integer nearest to `value` (halves round away from zero).
    static func round(_ value: Double) -> Int { 2 * Int((value / 2).rounded()) }
    /// The even integer nearest `value`; halfway between two, the smaller (224 for 225).
    static func nearestTiesDown(_ value: Double) -> Int { 2 * Int((value / 2 - 1e-6).rounded()) }
    /// The largest even integer not above `value`.
    static func floor(_ value: Double) -> Int { 2 * Int((value / 2).rounded(.down)) }
    static func floor(_ value: Int) -> Int { value - ((value % 2) + 2) % 2 }
}
