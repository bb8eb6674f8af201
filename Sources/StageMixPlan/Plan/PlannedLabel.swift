import Foundation
public import StageMixLayout

/// The name a tile shows in a corner, and how: the participant's name as the capture gives it, in the
/// region's style at the plan's canvas size. The pipeline fits it to the tile (an ellipsis, or the
/// initials when no installed font can draw it).
public struct PlannedLabel: Sendable, Hashable, Codable {
    public var text: String
    public var style: LabelStyle

    public init(text: String, style: LabelStyle) {
        self.text = text
        self.style = style
    }

    /// The label of a tile of `name` in a region styled `style`; none when the region has no style or
    /// the name is blank (there is nothing to show, and an id is no name).
    public static func of(name: String, style: LabelStyle?) -> PlannedLabel? {
        let text = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let style, !text.isEmpty else { return nil }
        return PlannedLabel(text: text, style: style)
    }
}
