/// A JSON number with its literal text. `integer` is set when the value is a whole number that fits
/// an `Int` (`3`, `3.0`, `3e0`), as JSON Schema's `integer` type counts them.
public struct JSONNumber: Sendable {
    public var text: String
    public var value: Double
    public var integer: Int?

    public init(text: String, value: Double, integer: Int?) {
        self.text = text
        self.value = value
        self.integer = integer
    }
}
