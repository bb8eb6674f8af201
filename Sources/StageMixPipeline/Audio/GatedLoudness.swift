import Foundation

/// ITU-R BS.1770 integrated loudness from the mean-square energies of 400 ms blocks taken every
/// 100 ms (75 % overlap, what a meter's momentary loudness reads at each 100 ms step): blocks under
/// −70 LUFS are dropped, then blocks more than 10 LU under the mean of the rest.
///
/// Lets the loudness pass work out the loudness of a mix it never rendered: with independent
/// voices, a mix block's energy is the sum of its tracks' energies times their gains squared.
enum GatedLoudness {
    static let absoluteGateLUFS = -70.0
    static let relativeGateLU = -10.0

    /// The loudness of a block of energy `z` (channel energies summed, K-weighted).
    static func lufs(energy z: Double) -> Double { z > 0 ? -0.691 + 10 * log10(z) : -.infinity }

    /// The energy of a block of loudness `lufs`.
    static func energy(lufs: Double) -> Double { lufs.isFinite ? pow(10, (lufs + 0.691) / 10) : 0 }

    /// Integrated loudness of `blocks` (energies); `-inf` if nothing passes the absolute gate. Two passes
    /// over the blocks, no copy of them: a day's blocks are 864,000.
    static func integrated(_ blocks: [Double]) -> Double {
        let absoluteGate = energy(lufs: absoluteGateLUFS)
        func mean(above gate: Double) -> Double? {
            var sum = 0.0, count = 0
            for z in blocks where z > gate {
                sum += z
                count += 1
            }
            return count > 0 ? sum / Double(count) : nil
        }
        guard let loud = mean(above: absoluteGate) else { return -.infinity }
        guard let kept = mean(above: energy(lufs: lufs(energy: loud) + relativeGateLU)) else { return -.infinity }
        return lufs(energy: kept)
    }
}
