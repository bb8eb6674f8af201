import Foundation
import StageMixCore
import StageMixMedia

/// The audio-only pass behind a speaker layout: decodes each microphone the stage timeline lets the
/// mix hear (where it lets it: a muted, left-out or off-stage microphone counts as not heard) and
/// measures its level every 100 ms of the composition's time, then lets ``ActiveSpeakerDetector``
/// decide. It runs before planning, so `stagemix plan` shows the speakers and billing stays a
/// function of the plan. Only microphones are read; no video is touched.
public struct SpeakerAnalysis {
    let capture: Capture
    let timeline: StageTimeline

    public init(capture: Capture, timeline: StageTimeline) {
        self.capture = capture
        self.timeline = timeline
    }

    /// The speakers over the timeline. An unreadable microphone counts as silent (compose reports it).
    /// `shouldStop` is polled every 100 ms of audio; when it says so, this throws `CancellationError`.
    public func speakers(detector: ActiveSpeakerDetector = ActiveSpeakerDetector(),
                         shouldStop: () -> Bool = { false }) throws -> SpeakerTimeline {
        detector.speakers(from: try levels(shouldStop: shouldStop), durationMs: timeline.durationMs)
    }

    /// Every heard microphone's level, per participant (the loudest of their microphones) and hop.
    public func levels(shouldStop: () -> Bool = { false }) throws -> SpeakerLevels {
        let rate = AudioTrackReader.sampleRate
        let hop = rate * SpeakerLevels.hopMs / 1000
        let totalSamples = timeline.durationMs * rate / 1000
        let hopCount = (totalSamples + hop - 1) / hop
        var levels: [String: [Float]] = [:]
        var readers: [String: AudioTrackReader] = [:]
        var failed: Set<String> = []
        var scratch = [Float](repeating: 0, count: hop)
        // Read problems are the composition's to report; this pass only listens.
        let unreported = LossLedger()
        var segmentIndex = 0

        for h in 0..<hopCount {
            if shouldStop() { throw CancellationError() }
            let hopStart = h * hop, hopEnd = min(totalSamples, hopStart + hop)
            var energy: [String: (sum: Double, count: Int)] = [:]   // by microphone track
            var at = hopStart
            while at < hopEnd {
                let ms = at * 1000 / rate
                while segmentIndex + 1 < timeline.segments.count, timeline.segments[segmentIndex].endMs <= ms { segmentIndex += 1 }
                guard segmentIndex < timeline.segments.count else { break }
                let segment = timeline.segments[segmentIndex]
                let end = min(hopEnd, max(at + 1, segment.endMs * rate / 1000))
                let sessionAt = segment.sessionSample(at)
                var heard: Set<String> = []
                for person in segment.onStage {
                    for track in person.tracks where track.source == .microphone && track.flow == .flowing && !failed.contains(track.trackId) {
                        guard let file = capture.track(track.trackId)?.file else { continue }
                        do {
                            let reader = try readers[track.trackId] ?? AudioTrackReader(
                                url: capture.mediaURL(file), file: file, trackId: track.trackId,
                                startOffsetMs: capture.track(track.trackId)?.startOffsetMs ?? 0, ledger: unreported)
                            readers[track.trackId] = reader
                            let count = end - at
                            for i in 0..<count { scratch[i] = 0 }
                            try scratch.withUnsafeMutableBufferPointer { buffer in
                                try reader.mix(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), from: sessionAt)
                            }
                            var sum = 0.0
                            for i in 0..<count { sum += Double(scratch[i] * scratch[i]) }
                            energy[track.trackId, default: (0, 0)].sum += sum
                            energy[track.trackId, default: (0, 0)].count += count
                            heard.insert(track.trackId)
                        } catch {
                            failed.insert(track.trackId)
                            readers[track.trackId] = nil
                        }
                    }
                }
                // A microphone no longer heard closes; heard again later, it seeks.
                readers = readers.filter { heard.contains($0.key) }
                at = end
            }
            for (trackId, e) in energy {
                guard let id = capture.track(trackId)?.participantId else { continue }
                let rms = (e.sum / Double(max(1, e.count))).squareRoot()
                let db = rms > 0 ? max(SpeakerLevels.quietest, Float(20 * log10(rms))) : SpeakerLevels.quietest
                if levels[id] == nil { levels[id] = [Float](repeating: SpeakerLevels.silence, count: hopCount) }
                // A participant is as loud as the louder of their microphones.
                levels[id]![h] = max(levels[id]![h], db)
            }
        }
        return SpeakerLevels(hopCount: hopCount, levels: levels)
    }
}
