import Foundation

/// Running peak and RMS of audio samples, in dBFS, as a microphone check measures them.
struct AudioLevel {
    private var sumOfSquares = 0.0
    private var peak: Float = 0
    private(set) var count = 0

    mutating func add(_ samples: [Float]) {
        for s in samples {
            sumOfSquares += Double(s) * Double(s)
            peak = max(peak, abs(s))
        }
        count += samples.count
    }

    var peakDbfs: Double? { count == 0 ? nil : Self.dbfs(Double(peak)) }
    var rmsDbfs: Double? { count == 0 ? nil : Self.dbfs((sumOfSquares / Double(count)).squareRoot()) }

    /// 20·log10(x), floored at -120 dBFS so digital silence stays a number in JSON.
    static func dbfs(_ linear: Double) -> Double { max(-120, 20 * log10(max(linear, 1e-6))) }
}
