import Foundation

/// Power of one frequency in a block of samples (Goertzel algorithm), for the tests that check a
/// tone came through: the media round trips, the synthesized microphones, the composed mix.
public enum Goertzel {
    public static func power(of frequency: Double, in samples: ArraySlice<Float>, sampleRate: Double = 48_000) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / sampleRate)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }

    /// The frequency between `range` bounds, in `step` Hz, with the most power.
    public static func dominantFrequency(_ samples: ArraySlice<Float>, sampleRate: Double = 48_000,
                                         range: ClosedRange<Double>, step: Double = 10) -> Double {
        stride(from: range.lowerBound, through: range.upperBound, by: step)
            .map { ($0, power(of: $0, in: samples, sampleRate: sampleRate)) }
            .max { $0.1 < $1.1 }!.0
    }
}
