import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The audio-only pass before composing: decodes each microphone where the plan makes it audible,
/// measures it alone (BS.1770), and works out the gains that make the output hit the target:
/// one static gain per track, so a quiet participant is brought up to the others before the mix
/// (no compressor, so nothing pumps), and one master gain for the mix.
///
/// The mix is never rendered here: each track's momentary energy is kept every 100 ms of session
/// time, and a mix block's energy is the gain-weighted sum of its tracks' (independent voices).
struct LoudnessAnalysis {
    /// What the pass found and decided; `report.json` carries it.
    struct Result: Sendable, Codable, Equatable {
        var targetLUFS: Double
        /// Each audible track measured alone, in LUFS (`nil` if silent).
        var trackLUFS: [String: Double]
        /// Gain applied to each track before the mix, in dB.
        var trackGainDB: [String: Double]
        /// The output's loudness with no gains at all, as the mix would have been.
        var inputLUFS: Double?
        /// Gain applied to the mix, in dB.
        var masterGainDB: Double

        /// Linear gains, for the mix.
        var trackGains: [String: Float] { trackGainDB.mapValues { Float(pow(10, $0 / 20)) } }
        var masterGain: Float { Float(pow(10, masterGainDB / 20)) }
    }

    /// How far a track is moved towards the loudest: a near-silent mic is not boosted into noise.
    static let maxBoostDB = 20.0
    static let maxCutDB = 20.0
    /// The master gain never exceeds this: a session of near silence stays near silent.
    static let maxMasterGainDB = 24.0
    static let hop = MediaTime.samples(ms: 100)

    let capture: Capture
    let plan: CompositionPlan
    let targetLUFS: Double

    /// Decodes and measures; lost or unreadable tracks simply do not count (the composition reports them).
    func run(shouldStop: () -> Bool = { false }) throws -> Result {
        var meters: [String: LoudnessMeter] = [:]
        var energies: [String: TrackEnergies] = [:]
        var hopCount = 0
        try AudibleTrackWalk(capture: capture, hop: Self.hop).run(
            durationMs: plan.durationMs, shouldStop: shouldStop,
            stretch: { ms in
                plan.interval(atMs: ms).map { interval in
                    .init(endMs: interval.endMs, sessionOffsetMs: interval.sessionOffsetMs ?? 0,
                          sources: interval.audio.filter { !$0.muted }.map { .init(trackId: $0.trackId, file: $0.file) })
                }
            },
            take: { _, trackId, samples in
                // A histogram meter: its memory does not grow with the session (a block list would, 1.2 MB an hour).
                // No true peak: the pass reads loudness only, and the oversampling was most of its time.
                let meter = try meters[trackId] ?? LoudnessMeter(channels: 1, sampleRate: MediaTime.sampleRate, histogram: true, truePeak: false)
                meters[trackId] = meter
                meter.add(planar: [Array(samples)])
            },
            endOfHop: { hop, heard in
                for id in heard {
                    if let momentary = meters[id]?.momentaryLUFS {
                        energies[id, default: TrackEnergies(firstHop: hop)].set(hop, GatedLoudness.energy(lufs: momentary))
                    }
                }
                hopCount = hop + 1
            })
        return decide(meters: meters, energies: energies, hopCount: hopCount)
    }

    /// Per-track gains towards a common level, then the master gain that puts the mix on target.
    private func decide(meters: [String: LoudnessMeter], energies: [String: TrackEnergies], hopCount: Int) -> Result {
        var trackLUFS: [String: Double] = [:]
        for (id, meter) in meters where meter.integratedLUFS.isFinite { trackLUFS[id] = meter.integratedLUFS }
        // The common level: the loudest track's, so nobody is turned down more than needed.
        let reference = trackLUFS.values.max() ?? targetLUFS
        var gains: [String: Double] = [:]
        for id in meters.keys {
            guard let lufs = trackLUFS[id] else { gains[id] = 0; continue }
            gains[id] = min(Self.maxBoostDB, max(-Self.maxCutDB, reference - lufs))
        }
        func mixLUFS(_ gainDB: [String: Double]) -> Double {
            var blocks = [Double](repeating: 0, count: hopCount)
            for (id, track) in energies {
                let g = pow(10, (gainDB[id] ?? 0) / 10)
                for (offset, energy) in track.values.enumerated() { blocks[track.firstHop + offset] += g * Double(energy) }
            }
            // The mono mix goes out on both channels: the output's energy is twice the mix's.
            for hop in blocks.indices { blocks[hop] *= 2 }
            return GatedLoudness.integrated(blocks)
        }
        let input = mixLUFS([:])
        let staged = mixLUFS(gains)
        let master = staged.isFinite ? min(Self.maxMasterGainDB, targetLUFS - staged) : 0
        return Result(targetLUFS: targetLUFS, trackLUFS: trackLUFS, trackGainDB: gains,
                      inputLUFS: input.isFinite ? input : nil, masterGainDB: master)
    }
}

/// One track's momentary energy every hop from the first it was heard in, 0 where it was not heard: 4 bytes
/// a hop, 144 KB a track-hour, what the pass must keep, since the gains that weigh them are decided at the end.
private struct TrackEnergies {
    let firstHop: Int
    private(set) var values: [Float] = []

    init(firstHop: Int) { self.firstHop = firstHop }

    mutating func set(_ hop: Int, _ energy: Double) {
        let offset = hop - firstHop
        if offset >= values.count { values.append(contentsOf: repeatElement(0, count: offset - values.count + 1)) }
        values[offset] = Float(energy)
    }
}
