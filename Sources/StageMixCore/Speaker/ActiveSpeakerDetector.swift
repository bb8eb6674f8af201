/// Decides the active speaker from microphone levels (``SpeakerLevels``), as a video producer would
/// cut: someone takes the focus only after talking louder than everyone else for `switchAfterMs`
/// (1.5 s), so a cough, a laugh or a word of assent never moves it; in silence the last speaker keeps
/// it. The decision is made after the fact over the whole recording, so a switch is placed where the
/// new speaker began, not 1.5 s later as a live switcher must.
///
/// Per 100 ms hop: a participant is *talking* when their level clears both an absolute floor and
/// their own background (the quietest tenth of their hops) by a margin; a falling level is held for
/// a moment (a release of `releaseDBPerHop`), so the gaps between words do not count as silence.
/// Of those talking, the loudest challenges the current speaker; a challenge survives silent hops,
/// but not a hop where the speaker (or a third person) is loudest, nor a long silence.
public struct ActiveSpeakerDetector: Sendable {
    /// How long a new speaker must be the loudest talker to take the focus.
    public var switchAfterMs = 1_500
    /// Below this (dBFS) nobody is talking.
    public var floorDBFS: Float = -50
    /// How far above their own background a participant must be to be talking.
    public var marginDB: Float = 12
    /// The highest the talking threshold goes, however loud a background: someone who talks nearly
    /// all the time has their voice as their "quietest tenth", and must still count as talking.
    public var ceilingDBFS: Float = -35
    /// How fast a participant's held level falls once they stop (dB per hop).
    public var releaseDBPerHop: Float = 4
    /// A challenge whose challenger has not been the loudest for longer than this starts over.
    public var challengeGapMs = 1_000
    /// A speaker whose microphone is not heard at all this long (off stage, left out by an edit,
    /// muted) loses the focus from the moment it went.
    public var absenceMs = 1_000

    public init() {}

    public func speakers(from levels: SpeakerLevels, durationMs: Int) -> SpeakerTimeline {
        let hop = SpeakerLevels.hopMs
        let ids = levels.levels.keys.sorted()
        let thresholds = ids.map { id in min(ceilingDBFS, max(floorDBFS, Self.background(levels.levels[id] ?? []) + marginDB)) }
        var held = [Float](repeating: SpeakerLevels.silence, count: ids.count)
        var current: String?
        var absentSince: Int?
        var challenge: (id: String, startHop: Int, hops: Int, lastHop: Int)?
        var switches: [(hop: Int, id: String?)] = []

        for h in 0..<levels.hopCount {
            if let c = current {
                if levels.level(c, hop: h) > SpeakerLevels.silence {
                    absentSince = nil
                } else if let since = absentSince ?? Optional(h), (h + 1 - since) * hop >= absenceMs {
                    switches.append((since, nil))
                    current = nil
                    absentSince = nil
                } else if absentSince == nil {
                    absentSince = h
                }
            }
            var loudest: (index: Int, level: Float)?
            for (i, id) in ids.enumerated() {
                held[i] = max(levels.level(id, hop: h), held[i] - releaseDBPerHop)
                if held[i] >= thresholds[i], held[i] > loudest?.level ?? -.infinity { loudest = (i, held[i]) }
            }
            guard let loudest else { continue }   // silence: the speaker stays, a challenge waits
            let id = ids[loudest.index]
            if id == current { challenge = nil; continue }
            if var c = challenge, c.id == id, (h - c.lastHop - 1) * hop <= challengeGapMs {
                c.hops += 1
                c.lastHop = h
                challenge = c
            } else {
                challenge = (id, h, 1, h)
            }
            if let c = challenge, c.hops * hop >= switchAfterMs {
                // Placed where the challenger first was the loudest, but never before the last change.
                switches.append((max(c.startHop, switches.last?.hop ?? 0), c.id))
                current = c.id
                absentSince = nil
                challenge = nil
            }
        }
        var turns: [SpeakerTimeline.Turn] = []
        for (k, s) in switches.enumerated() {
            guard let id = s.id else { continue }
            let end = min(durationMs, k + 1 < switches.count ? switches[k + 1].hop * hop : durationMs)
            let from = min(s.hop * hop, durationMs)
            if end > from { turns.append(.init(fromMs: from, toMs: end, participantId: id)) }
        }
        return SpeakerTimeline(turns: turns)
    }

    /// A participant's background level: the quietest tenth of the hops their microphone was heard in
    /// (hops it was not subscribed in read as ``SpeakerLevels/silence`` and do not count).
    static func background(_ series: [Float]) -> Float {
        let heard = series.filter { $0 > SpeakerLevels.silence }.sorted()
        guard !heard.isEmpty else { return SpeakerLevels.silence }
        return heard[heard.count / 10]
    }
}
