import Foundation

/// Finds the loudest frequency in a block of samples with the Goertzel algorithm.
enum ToneDetector {
    static func power(at frequency: Double, in samples: ArraySlice<Float>, sampleRate: Double = 48_000) -> Double {
        let k = 2 * cos(2 * .pi * frequency / sampleRate)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + k * s1 - s2
            s2 = s1
            s1 = s0
        }
        return s1 * s1 + s2 * s2 - k * s1 * s2
    }

    /// The frequency in `range`, on a `step` Hz grid, with the most power.
    static func dominant(in samples: ArraySlice<Float>, range: ClosedRange<Double> = 100...2500, step: Double = 10) -> Double {
        stride(from: range.lowerBound, through: range.upperBound, by: step)
            .map { ($0, power(at: $0, in: samples)) }
            .max { $0.1 < $1.1 }!.0
    }
}
