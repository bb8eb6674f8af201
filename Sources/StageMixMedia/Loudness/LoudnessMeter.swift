internal import CEbur128
import Foundation

/// An EBU R 128 / ITU-R BS.1770 loudness meter over libebur128: integrated loudness (LUFS) and
/// true peak (dBTP) of everything added to it.
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    public let channels: Int
    private var interleaved: [Float] = []

    /// `histogram`: integrated loudness from a histogram of the blocks (0.1 dB steps), read in constant
    /// time however long the meter has run, for a meter read again and again as audio comes.
    /// `truePeak` false: no true peak (``truePeakDBTP`` reads `-inf`), which saves the 4x oversampling, most of
    /// the meter's work.
    public init(channels: Int, sampleRate: Int, histogram: Bool = false, truePeak: Bool = true) throws(MediaError) {
        self.channels = channels
        let mode = Int32(EBUR128_MODE_I.rawValue | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0)
            | (histogram ? EBUR128_MODE_HISTOGRAM.rawValue : 0))
        state = ebur128_init(UInt32(channels), UInt(sampleRate), mode)
        guard state != nil else { throw MediaError(.invalidArgument, "libebur128 cannot meter \(channels) channels at \(sampleRate) Hz") }
    }

    deinit { ebur128_destroy(&state) }

    /// Adds a block given as one array per channel (the shortest sets the length).
    public func add(planar planes: [[Float]]) {
        let count = planes.map(\.count).min() ?? 0
        guard count > 0, planes.count == channels else { return }
        if interleaved.count < count * channels { interleaved = [Float](repeating: 0, count: count * channels) }
        interleaved.withUnsafeMutableBufferPointer { out in
            for (c, plane) in planes.enumerated() {
                for i in 0..<count { out[i * channels + c] = plane[i] }
            }
            _ = ebur128_add_frames_float(state, out.baseAddress, count)
        }
    }

    /// Adds a block of a one-channel meter, read where it is.
    public func add(mono samples: UnsafeBufferPointer<Float>) {
        guard channels == 1, let base = samples.baseAddress, !samples.isEmpty else { return }
        _ = ebur128_add_frames_float(state, base, samples.count)
    }

    /// Integrated loudness in LUFS; `-inf` for silence (nothing above the absolute gate).
    public var integratedLUFS: Double {
        var value = -Double.infinity
        _ = ebur128_loudness_global(state, &value)
        return value
    }

    /// Loudness of the last 400 ms added, in LUFS (`-inf` for silence).
    public var momentaryLUFS: Double {
        var value = -Double.infinity
        _ = ebur128_loudness_momentary(state, &value)
        return value
    }

    /// The highest true peak over all channels, in dBTP (`-inf` for silence).
    public var truePeakDBTP: Double {
        var highest = 0.0
        for c in 0..<channels {
            var peak = 0.0
            if ebur128_true_peak(state, UInt32(c), &peak) == 0 { highest = max(highest, peak) }
        }
        return highest > 0 ? 20 * log10(highest) : -Double.infinity
    }
}
