/// Decides the active speaker from microphone levels, as a video producer would cut: someone takes
/// the focus only after talking louder than everyone else for `switchAfterMs` (1.5 s), so a cough, a
/// laugh or a word of assent never moves it; in silence the last speaker keeps it. The decision is
/// made after the fact, so a switch is placed where the new speaker began to be the loudest, not
/// 1.5 s later as a live switcher must.
///
/// A state machine fed one 100 ms hop at a time (``hop(_:)``, then ``finish(durationMs:)``), so its
/// memory is the participants heard lately, never the session's length: a day of a hundred voices
/// costs what a minute does. Per hop: a participant is *talking* when their level clears both an
/// absolute floor and their own background (the quietest tenth of their hops so far, from a 1 dB
/// histogram) by a margin; a falling level is held for a moment (a release of `releaseDBPerHop`), so
/// the gaps between words do not count as silence. Of those talking, the loudest challenges the
/// current speaker; a challenge survives hops in which the challenger is not loudest for up to
/// `challengeGapMs`, but not a hop where the speaker (or a third person) is loudest. A speaker not
/// heard at all for `absenceMs` (off stage, left out, muted) loses the focus from when they went.
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
    /// A speaker whose microphone is not heard at all this long loses the focus from when it went.
    public var absenceMs = 1_000

    /// Each heard participant's levels so far, in 1 dB bins from the quietest to 0 dBFS.
    private var histograms: [String: [Int32]] = [:]
    /// Held levels of participants heard lately; dropped once below the floor (they cannot be talking).
    private var held: [String: Float] = [:]
    /// Each participant's talking threshold, worked out again from the histogram once a second.
    private var thresholds: [String: (value: Float, hop: Int)] = [:]
    private var hopIndex = 0
    private var current: String?
    private var absentSince: Int?
    private var challenge: (id: String, startHop: Int, hops: Int, lastHop: Int)?
    /// Where the focus changed: to a participant, or to nobody (nil) when the speaker went.
    private var switches: [(hop: Int, id: String?)] = []

    public init() {}

    /// The next hop: the level (RMS, dBFS) of every participant whose microphone was heard in it;
    /// everyone else was not heard.
    public mutating func hop(_ heard: [String: Float]) {
        let h = hopIndex
        hopIndex += 1
        let hop = SpeakerLevels.hopMs
        for (id, level) in heard { record(level, for: id) }
        if let c = current {
            if heard[c] != nil {
                absentSince = nil
            } else if let since = absentSince ?? Optional(h), (h + 1 - since) * hop >= absenceMs {
                switches.append((since, nil))
                current = nil
                absentSince = nil
            } else if absentSince == nil {
                absentSince = h
            }
        }
        var loudest: (id: String, level: Float)?
        for id in Set(held.keys).union(heard.keys).sorted() {
            let level = max(heard[id] ?? SpeakerLevels.silence, (held[id] ?? SpeakerLevels.silence) - releaseDBPerHop)
            guard level >= floorDBFS else { held[id] = nil; continue }
            held[id] = level
            if level >= threshold(id, at: h), level > loudest?.level ?? -.infinity { loudest = (id, level) }
        }
        guard let loudest else { return }   // silence: the speaker stays, a challenge waits
        let id = loudest.id
        if id == current { challenge = nil; return }
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

    /// The speakers over `[0, durationMs)`.
    public func finish(durationMs: Int) -> SpeakerTimeline {
        let hop = SpeakerLevels.hopMs
        var turns: [SpeakerTimeline.Turn] = []
        for (k, s) in switches.enumerated() {
            guard let id = s.id else { continue }
            let end = min(durationMs, k + 1 < switches.count ? switches[k + 1].hop * hop : durationMs)
            let from = min(s.hop * hop, durationMs)
            if end > from { turns.append(.init(fromMs: from, toMs: end, participantId: id)) }
        }
        return SpeakerTimeline(turns: turns)
    }

    /// Every hop of `levels` in turn (for levels already gathered, as tests have them).
    public func speakers(from levels: SpeakerLevels, durationMs: Int) -> SpeakerTimeline {
        var detector = self
        for h in 0..<levels.hopCount {
            var heard: [String: Float] = [:]
            for (id, series) in levels.levels where h < series.count && series[h] > SpeakerLevels.silence { heard[id] = series[h] }
            detector.hop(heard)
        }
        return detector.finish(durationMs: durationMs)
    }

    private static let bins = Int(-SpeakerLevels.quietest) + 1

    private mutating func record(_ level: Float, for id: String) {
        let bin = min(Self.bins - 1, max(0, Int((level - SpeakerLevels.quietest).rounded(.down))))
        histograms[id, default: [Int32](repeating: 0, count: Self.bins)][bin] &+= 1
    }

    /// The level `id` must reach to be talking: `marginDB` over their background (the quietest tenth
    /// of their hops so far), within the floor and the ceiling.
    private mutating func threshold(_ id: String, at h: Int) -> Float {
        if let known = thresholds[id], h - known.hop < 1_000 / SpeakerLevels.hopMs { return known.value }
        let value = Self.threshold(histograms[id], floor: floorDBFS, margin: marginDB, ceiling: ceilingDBFS)
        thresholds[id] = (value, h)
        return value
    }

    private static func threshold(_ histogram: [Int32]?, floor floorDBFS: Float, margin marginDB: Float, ceiling ceilingDBFS: Float) -> Float {
        guard let histogram else { return ceilingDBFS }
        let total = histogram.reduce(0) { $0 + Int($1) }
        var seen = 0, background = SpeakerLevels.quietest
        for (bin, count) in histogram.enumerated() {
            seen += Int(count)
            if seen * 10 > total { background = SpeakerLevels.quietest + Float(bin); break }
        }
        return min(ceilingDBFS, max(floorDBFS, background + marginDB))
    }
}
