import Foundation
import StageMixCapture

/// A VideoRoom room as a capture manifest: every publisher is a participant (named by `display`,
/// identified by the VideoRoom id), `SEND_AND_RECV` and on stage while publishing (Janus has no
/// pin: each publisher is pinned at their first publish, or only those `stage` names), each
/// recording one track, published from its publish's `published` event to its end, and placed by
/// its own first sample's real time, so the audio and video of one publisher line up although
/// their files start at different instants. The session clock's zero is the room's first event (or
/// recorder, if earlier); it ends at the last of the room's destruction, its last event and the end
/// of its media.
struct JanusRoomCapture: Sendable {
    var sessionId: String
    var history: JanusRoomHistory
    var media: [JanusTrackMedia]
    /// Display names or ids of who is on stage; nil: every publisher.
    var stage: [String]?
    /// The session clock's zero, real-time µs; nil: the room's first event or recorder, whichever
    /// came first (a followed room fixes it at its first version).
    var zeroUs: Int64? = nil
    /// Where a publish the events have not ended yet is taken to end, real-time µs; nil: at the last
    /// of its media and the room's last event (a followed room puts it past anything it says).
    var openEndUs: Int64? = nil

    func manifest() -> (manifest: CaptureManifest, warnings: [String]) {
        var warnings: [String] = []
        var history = self.history
        // Recordings whose publisher the events never name: a participant of their own, publishing while they have media.
        for item in media where history.publishers[item.publisherId] == nil {
            history.publishers[item.publisherId] = JanusPublisher(id: item.publisherId, display: nil, joinedUs: item.createdUs)
            history.order.append(item.publisherId)
            warnings.append("\(item.recording): the events say nothing of publisher \(item.publisherId); placed by its media alone")
        }
        let zero = zeroUs ?? ([history.firstEventUs].compactMap { $0 } + media.map(\.createdUs)).min() ?? 0
        func ms(_ us: Int64) -> Int { Int(max(0, us - zero) / 1000) }

        var events: [(rank: Int, event: ManifestEvent)] = []
        var tracks: [CaptureManifest.Track] = []
        var participants: [Participant] = []
        var end = ([history.destroyedUs, history.lastEventUs].compactMap { $0 } + media.map(\.endUs)).max() ?? zero
        let staged = stage.map { names in Set(history.order.filter { id in names.contains(id) || history.publishers[id]?.display.map(names.contains) == true }) }
        for name in stage ?? [] where !history.order.contains(where: { $0 == name || history.publishers[$0]?.display == name }) {
            warnings.append("--stage \(name): no publisher of room \(history.room) has that display name or id")
        }

        for id in history.order {
            guard var publisher = history.publishers[id] else { continue }
            participants.append(Participant(id: id, name: publisher.display ?? id))
            let mine = media.filter { $0.publisherId == id }.sorted { $0.createdUs < $1.createdUs }
            var byPublish: [Int: [JanusTrackMedia]] = [:]
            for item in mine {
                if let index = publisher.publishIndex(ofRecordingMadeAt: item.createdUs)
                    ?? publisher.publishes.lastIndex(where: { $0.startUs <= item.firstSampleUs && ($0.endUs ?? .max) > item.firstSampleUs }) {
                    byPublish[index, default: []].append(item)
                } else {
                    warnings.append("\(item.recording): no publish of \(publisher.display ?? id) in the events covers it; published while it has media")
                    publisher.publishes.append(JanusPublisher.Publish(startUs: item.firstSampleUs, endUs: item.endUs))
                    byPublish[publisher.publishes.count - 1, default: []].append(item)
                }
            }
            events.append((0, .joined(ms(min(publisher.joinedUs, publisher.publishes.map(\.startUs).min() ?? .max)), id, mode: "SIGNALLING_ONLY")))
            var pinned = false
            for (index, publish) in publisher.publishes.enumerated() {
                let items = byPublish[index] ?? []
                let stop = publish.endUs ?? openEndUs ?? max(items.map(\.endUs).max() ?? publish.startUs, history.lastEventUs ?? publish.startUs)
                end = max(end, stop)
                events.append((1, .modeChanged(ms(publish.startUs), id, mode: "SEND_AND_RECV")))
                if !pinned && (staged?.contains(id) ?? true) {
                    events.append((2, .pinned(ms(publish.startUs), id)))
                    pinned = true
                }
                if items.isEmpty { warnings.append("\(publisher.display ?? id) published at \(ms(publish.startUs)) ms with no recording of it") }
                var counts: [TrackKind: Int] = [:]
                for item in items {
                    counts[item.kind, default: 0] += 1
                    let trackId = "\(id)-\(item.kind.rawValue)-\(index + 1)" + (counts[item.kind]! > 1 ? "-\(counts[item.kind]!)" : "")
                    let offset = Int((Double(item.firstSampleUs - zero) / 1000).rounded())
                    if item.kind == .audio {
                        tracks.append(CaptureManifest.Track(id: trackId, participantId: id, kind: .audio, source: .microphone,
                                                            startOffsetMs: offset, file: item.file))
                    } else {
                        if item.width == nil { warnings.append("\(item.recording): no picture size in its media; taken as 640x480") }
                        tracks.append(CaptureManifest.Track(id: trackId, participantId: id, kind: .video, source: .camera, startOffsetMs: offset,
                                                            layers: [TrackLayer(quality: .high, width: item.width ?? 640, height: item.height ?? 480, file: item.file)]))
                    }
                    events.append((3, .published(ms(publish.startUs), trackId)))
                    for change in publish.receiving where change.kind == item.kind.rawValue {
                        events.append((4, .streamState(ms(change.atUs), trackId, change.receiving ? "active" : "paused")))
                    }
                    events.append((5, .unpublished(ms(stop), trackId)))
                }
                events.append((6, .modeChanged(ms(stop), id, mode: "SIGNALLING_ONLY")))
            }
            if let left = publisher.leftUs {
                end = max(end, left)
                events.append((7, .left(ms(left), id)))
            }
        }
        let ordered = events.enumerated().sorted {
            ($0.element.event.atMs, $0.element.rank, $0.offset) < ($1.element.event.atMs, $1.element.rank, $1.offset)
        }.map(\.element.event) + [ManifestEvent(atMs: ms(end), type: "session.ended")]
        let started = Date(timeIntervalSince1970: Double(zero) / 1e6)
        return (CaptureManifest(sessionId: sessionId, startedAt: PlatformDocument.rfc3339(started), participants: participants,
                                tracks: tracks, events: ordered), warnings)
    }
}
