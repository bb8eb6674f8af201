import Foundation
import StageMixCapture
import StageMixJSON

/// The versions of a followed room's `session.json`: how far the capture is complete, and the room
/// as known so far, each version only adding to the one before (``JanusFollowedManifest``).
extension JanusFollow {
    /// Writes a version if the capture is complete further than the last said (or none was); true when written.
    func writeVersion(_ history: JanusRoomHistory) throws -> Bool {
        guard let firstEvent = history.firstEventUs else { return false }
        // Recordings whose publish is over and whose file has stopped growing are closed for good.
        for recording in recordings.values where !recording.isDone {
            guard let id = publisher(of: recording, in: history), let created = recording.createdUs,
                  let index = history.publishers[id]?.publishIndex(ofRecordingMadeAt: created),
                  history.publishers[id]?.publishes[index].endUs != nil,
                  Date().timeIntervalSince(recording.lastGrowth) >= Self.settleSeconds else { continue }
            try recording.finish()
        }
        let zero = zeroUs ?? ([firstEvent] + recordings.values.compactMap(\.createdUs)).min()!
        var limit = (events.newestUs ?? firstEvent) - Self.marginUs
        let newestPacket = recordings.values.compactMap(\.newestArrivalUs).max()
        if let newestPacket { limit = min(limit, newestPacket - Self.marginUs) }
        var media: [JanusTrackMedia] = []
        var matched = Set<String>()
        for recording in recordings.values.sorted(by: { $0.recording < $1.recording }) where recording.leftOut == nil {
            let id = publisher(of: recording, in: history)
            let created = recording.createdUs
            let index = id.flatMap { id in created.flatMap { history.publishers[id]?.publishIndex(ofRecordingMadeAt: $0) } }
            if let id, let index { matched.insert("\(id) \(index)") }
            if let converted = recording.converted {
                // Closed: placed as the whole import places it (unless its publisher is still unknown: then at the end).
                if let id, index != nil, let item = Self.item(converted, recording: recording.recording, publisher: id) { media.append(item) }
                continue
            }
            guard let conversion = recording.conversion, let first = conversion.firstSampleUs, let id, let index else {
                // Not listed yet: its track will be published at its publish's start, which is at most a second before its recorder was made.
                let publish = id.flatMap { id in index.flatMap { history.publishers[id]?.publishes[$0].startUs } }
                limit = min(limit, publish ?? (created ?? zero) - 1_000_000)
                continue
            }
            let whole = conversion.wholeUntilUs ?? first
            let quiet = (recording.newestArrivalUs ?? 0) < (newestPacket ?? 0) - Self.quietUs
            if !quiet { limit = min(limit, whole) }
            let size = conversion.pictureSize
            media.append(JanusTrackMedia(recording: recording.recording, publisherId: id, createdUs: created ?? first,
                                         kind: conversion.header.kind == .audio ? .audio : .video, file: "media/" + conversion.mediaFile.lastPathComponent,
                                         firstSampleUs: first, durationMs: Int(max(0, whole - first) / 1000), width: size?.width, height: size?.height))
        }
        // A publish under way that no recording is tied to yet: its recordings will be published at its start.
        for id in history.order {
            for (index, publish) in (history.publishers[id]?.publishes ?? []).enumerated() where publish.endUs == nil && !matched.contains("\(id) \(index)") {
                limit = min(limit, publish.startUs)
            }
        }
        zeroUs = zero
        let complete = max(manifest.completeToMs, Int(max(0, limit - zero) / 1000))
        guard manifest.said == nil || complete > manifest.completeToMs else { return false }
        let computed = JanusRoomCapture(sessionId: "janus-room-\(history.room)", history: history, media: media, stage: source.stage,
                                        zeroUs: zero, openEndUs: zero + 86_400_000_000).manifest().manifest
        try write(manifest.next(computed, completeToMs: complete), warnings: [])
        return true
    }

    /// The last version: every recording closed, the room as the whole import makes it.
    func finishRoom(_ history: JanusRoomHistory) throws {
        for recording in recordings.values { try recording.finish() }
        let lines = events.unreadableLines
        var warnings = lines.isEmpty ? [] : ["\(source.events.lastPathComponent): lines \(JanusImport.list(lines)) are not JSON; skipped"]
        var media: [JanusTrackMedia] = []
        for recording in recordings.values.sorted(by: { $0.recording < $1.recording }) {
            if let why = recording.leftOut {
                warnings.append(why)
                continue
            }
            guard let converted = recording.converted else { continue }
            warnings += converted.warnings + JanusLoss.summary(converted.losses, of: recording.recording)
            guard let file = converted.file else { continue }
            guard let id = publisher(of: recording, in: history), let item = Self.item(converted, recording: recording.recording, publisher: id) else {
                warnings.append("\(recording.recording): its name does not say whose it is, and no publisher configured a publish just before it was made; left out")
                try? FileManager.default.removeItem(at: file)
                continue
            }
            media.append(item)
        }
        guard !media.isEmpty else {
            throw ImportError(problems: [JSONProblem(file: source.directory.path, path: "", expected: "Janus recordings (.mjr) of room \(history.room) with media",
                                                     found: recordings.isEmpty ? "no .mjr file" : "none that could be read (see the warnings)")])
        }
        let zero = zeroUs ?? ([history.firstEventUs].compactMap { $0 } + media.map(\.createdUs)).min() ?? 0
        let (computed, assembly) = JanusRoomCapture(sessionId: "janus-room-\(history.room)", history: history, media: media,
                                                    stage: source.stage, zeroUs: zero).manifest()
        let last = manifest.next(computed, completeToMs: nil)
        try write(last, warnings: warnings + assembly)
        summary.ended = true
        summary.recordings = recordings.count
        summary.tracks = last.tracks.count
        summary.endMs = last.events.last?.atMs ?? 0
    }

    private static func item(_ converted: JanusConvertedRecording, recording: String, publisher: String) -> JanusTrackMedia? {
        guard let file = converted.file else { return nil }
        return JanusTrackMedia(recording: recording, publisherId: publisher, createdUs: converted.header.createdUs,
                               kind: converted.header.kind == .audio ? .audio : .video, file: "media/" + file.lastPathComponent,
                               firstSampleUs: converted.firstSampleUs, durationMs: converted.durationMs,
                               width: converted.width, height: converted.height)
    }

    /// Checks a version by every rule of the contract, then replaces `session.json` with it
    /// (``ManifestFile``), and `import.json` beside it.
    private func write(_ version: CaptureManifest, warnings: [String]) throws {
        let data = try version.encoded()
        do {
            _ = try CaptureReader.parse(data, directory: folder, inProgress: .knownSoFar)
        } catch {
            throw ImportError(problems: [JSONProblem(file: folder.appendingPathComponent(CaptureReader.manifestName).path, path: "",
                                                     expected: "a version of the capture in progress that keeps the contract", found: "\(error)")])
        }
        try ManifestFile.replace(in: folder, with: data)
        try ImportNote(platform: "janus", warnings: summary.warnings + warnings + manifest.warnings).write(in: folder)
        summary.versions += 1
    }
}
