/// Sums on-stage microphones and keeps the result in range: a peak limiter with instant attack and
/// smooth release, so loud moments are turned down, never wrapped or clipped hard.
struct AudioMixer {
    /// The highest level the limiter lets through.
    static let ceiling: Float = 0.944  // -0.5 dBFS
    /// Release per sample, about 80 ms back to unity gain at 48 kHz.
    private static let release: Float = 1 - 1 / (0.08 * 48_000)

    private var gain: Float = 1

    /// Limits `mono` in place.
    mutating func limit(_ mono: UnsafeMutableBufferPointer<Float>) {
        for i in mono.indices {
            let x = mono[i]
            let level = abs(x) * gain
            if level > Self.ceiling {
                gain = Self.ceiling / abs(x)
            }
            mono[i] = x * gain
            gain = 1 - (1 - gain) * Self.release
        }
    }
}
