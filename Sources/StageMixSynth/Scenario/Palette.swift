public import StageMixMedia

/// The known colours and tones of synthetic participants, by order of appearance.
///
/// Colours are saturated and far apart; tones are 310 + 110·i Hz, and no tone is an integer
/// multiple of another, so the dominant frequency of a mix names its speaker.
public enum Palette {
    public static let colors = [
        "#E53935", "#1E88E5", "#43A047", "#FDD835", "#8E24AA", "#FB8C00", "#00ACC1", "#D81B60",
        "#6D4C41", "#3949AB", "#7CB342", "#F4511E", "#00897B", "#C0CA33", "#5E35B1", "#039BE5",
    ]
    public static let tones: [Double] = (0..<16).map { 310 + 110 * Double($0) }
    /// The default colour of a screen share (dark slate, so the white marker stands out).
    public static let screenShare = "#263238"
    /// The moving marker's colour.
    public static let marker = RGBColor.white
}
