/// How a Twilio region hands its grid cells to newer video sources (Twilio's `reuse`).
///
/// A cell is *fresh* before it has shown anything, *used* while it shows a source whose media is
/// active, and *idle* once that media has ended.
public enum TwilioReuse: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only fresh cells take newer sources; a used cell stays its source's (idle in its gaps) to the end.
    case none
    /// Idle and fresh cells take newer sources; when there are none, newer sources wait. Twilio's default.
    case showOldest = "show_oldest"
    /// As `showOldest`, but when no cell is idle or fresh a newer source covers the used cell whose
    /// media ends first.
    case showNewest = "show_newest"
}
