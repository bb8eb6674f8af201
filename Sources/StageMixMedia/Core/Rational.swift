internal import CFFmpeg

/// A rational number such as a time base (1/48000) or a frame rate (30000/1001).
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value as a Double; 0 when the denominator is 0 (FFmpeg's "unknown").
    public var doubleValue: Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }

    public var description: String { "\(numerator)/\(denominator)" }

    /// Converts `value` from this time base into `target` with round-to-nearest.
    public func rescale(_ value: Int64, to target: Rational) -> Int64 {
        av_rescale_q(value, av, target.av)
    }

    init(_ r: AVRational) { self.init(r.num, r.den) }
    var av: AVRational { AVRational(num: numerator, den: denominator) }
}
