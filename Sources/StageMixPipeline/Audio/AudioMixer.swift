import StageMixTime

/// Sums on-stage microphones and keeps the result in range: a peak limiter with instant attack and
/// smooth release, so loud moments are turned down, never wrapped or clipped hard.
struct AudioMixer {
    /// The highest level the limiter lets through by default.
    static let defaultCeiling: Float = 0.944  // -0.5 dBFS
    /// With loudness normalisation: -1.5 dBFS, so the true peak stays at most -1 dBTP.
    static let normalisedCeiling: Float = 0.841
    let ceiling: Float
    /// Release per sample, about 80 ms back to unity gain at 48 kHz.
    private static let release: Float = 1 - 1 / (0.08 * Float(MediaTime.sampleRate))

    private var gain: Float = 1

    init(ceiling: Float = AudioMixer.defaultCeiling) { self.ceiling = ceiling }

    /// Limits `mono` in place.
    mutating func limit(_ mono: UnsafeMutableBufferPointer<Float>) {
        for i in mono.indices {
            let x = mono[i]
            let level = abs(x) * gain
            if level > ceiling {
                gain = ceiling / abs(x)
            }
            mono[i] = x * gain
            gain = 1 - (1 - gain) * Self.release
        }
    }
}
