import Foundation
import StageMixMedia
import StageMixTime

/// Loudness normalisation for a run that cannot wait for the session's end (`compose --follow`).
/// It sets the same two gains as the whole-session pass (``LoudnessAnalysis``): one per track,
/// bringing a quiet participant up towards the loudest, and one for the mix, putting it on target.
/// Each is decided again every 100 ms of audio from what has been heard so far: the integrated
/// loudness (BS.1770, gated) of each track alone and of the mix after the track gains, measured as
/// the audio is mixed.
///
/// An integrated level moves less and less as the session goes on, so the gains settle rather than
/// follow the talk: no pumping. A gain moves at most ``fastSlewDB`` a hop while its track (or the
/// mix) has been heard talking (not silence, not room noise far below its level) less than
/// ``settleSeconds``, then rises at most ``slowSlewDB`` a hop; it always comes down as fast as while
/// settling, so a level found too loud is not kept. The mix ramps between decisions sample by
/// sample (``AudioMix``): no step is heard. The limiter after the
/// master gain keeps the peaks in, as for the whole-session pass.
final class CausalLoudness {
    let targetLUFS: Double
    /// How often the gains are decided again.
    static let hop = MediaTime.samples(ms: 100)
    /// How long a track (or the mix) is heard before its gain moves only slowly.
    static let settleSeconds = 8.0
    /// The most a gain moves in a hop while settling (7.5 dB a second), and after (0.5 dB a second).
    static let fastSlewDB = 0.75
    static let slowSlewDB = 0.05

    private final class Track {
        let meter: LoudnessMeter
        var samples = 0
        var gainDB = 0.0
        init(meter: LoudnessMeter) { self.meter = meter }
    }

    private var tracks: [String: Track] = [:]
    /// The mono mix after the track gains, before the master gain.
    private let mix: LoudnessMeter
    private var mixSamples = 0
    private(set) var masterGainDB = 0.0
    private var sinceDecision = 0

    init(targetLUFS: Double) throws(MediaError) {
        self.targetLUFS = targetLUFS
        mix = try LoudnessMeter(channels: 1, sampleRate: MediaTime.sampleRate, histogram: true)
    }

    /// The gain track `id` is mixed at now, linear (unity for a track not heard yet).
    func trackGain(_ id: String) -> Float { Self.linear(tracks[id]?.gainDB ?? 0) }
    var masterGain: Float { Self.linear(masterGainDB) }
    /// Each track's gain now, in dB.
    var trackGainDB: [String: Double] { tracks.mapValues(\.gainDB) }
    /// Each track heard alone so far, in LUFS (silent ones left out).
    var trackLUFS: [String: Double] { tracks.compactMapValues { $0.meter.integratedLUFS.isFinite ? $0.meter.integratedLUFS : nil } }

    /// Track `id`'s samples of the block being mixed, before its gain.
    func heard(_ id: String, _ samples: UnsafeBufferPointer<Float>) throws(MediaError) {
        let track: Track
        if let known = tracks[id] {
            track = known
        } else {
            track = Track(meter: try LoudnessMeter(channels: 1, sampleRate: MediaTime.sampleRate, histogram: true))
            tracks[id] = track
        }
        track.meter.add(mono: samples)
        if Self.speaks(track.meter) { track.samples += samples.count }
    }

    /// Whether a meter's last 400 ms count towards settling: above the absolute gate, and within 20 LU
    /// of what it has integrated so far. Silence and room noise before anyone talks do not settle a gain.
    static func speaks(_ meter: LoudnessMeter) -> Bool {
        let momentary = meter.momentaryLUFS
        guard momentary.isFinite, momentary > -70 else { return false }
        let integrated = meter.integratedLUFS
        return !integrated.isFinite || momentary > integrated - 20
    }

    /// The block's mix after the track gains, before the master gain; it ends the block. Every hop of
    /// audio the gains are decided again, for the blocks that follow.
    func mixed(_ samples: UnsafeBufferPointer<Float>, anyHeard: Bool) {
        if anyHeard {
            mix.add(mono: samples)
            if Self.speaks(mix) { mixSamples += samples.count }
        }
        sinceDecision += samples.count
        while sinceDecision >= Self.hop {
            sinceDecision -= Self.hop
            decide()
        }
    }

    /// Each track towards the loudest track's level, the mix towards the target, each by at most its slew.
    private func decide() {
        let levels = trackLUFS
        let settle = Int(Self.settleSeconds * Double(MediaTime.sampleRate))
        if let reference = levels.values.max() {
            for (id, track) in tracks {
                guard let lufs = levels[id] else { continue }
                let goal = min(LoudnessAnalysis.maxBoostDB, max(-LoudnessAnalysis.maxCutDB, reference - lufs))
                track.gainDB = Self.step(track.gainDB, toward: goal, settling: track.samples < settle)
            }
        }
        let staged = mix.integratedLUFS
        guard staged.isFinite else { return }
        // The mono mix goes out on both channels: the output's energy is twice the mix's.
        let goal = min(LoudnessAnalysis.maxMasterGainDB, targetLUFS - (staged + Self.stereoDB))
        masterGainDB = Self.step(masterGainDB, toward: goal, settling: mixSamples < settle)
    }

    /// 10·log10(2): a mono signal on two channels measures this much louder.
    static let stereoDB = 3.0103

    /// A gain comes down fast (a level found too loud is never kept), and goes up slowly once settled.
    static func step(_ gain: Double, toward goal: Double, settling: Bool) -> Double {
        let most = settling || goal < gain ? fastSlewDB : slowSlewDB
        return gain + min(most, max(-most, goal - gain))
    }

    static func linear(_ db: Double) -> Float { Float(pow(10, db / 20)) }
}
