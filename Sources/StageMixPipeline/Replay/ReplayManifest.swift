import Foundation
import StageMixCapture

/// The `session.json` a recorder would have written at each moment of a finished session (the
/// contract's "A capture in progress"): the original document, its `events` cut to those before
/// `completeToMs` (no `session.ended`), its participants and tracks as far as those events have named
/// them (a track appears when its participant joins; each list a prefix of the document's, so one
/// listed before a participant who joined earlier appears with them), media paths as the live copy
/// writes them, and `"recording": {"completeToMs": N}`. Each version is written beside `session.json` and renamed
/// over it; the last is the original document whole.
struct ReplayManifest {
    private let document: [String: Any]
    private let events: [[String: Any]]

    init(data: Data) throws {
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        self.document = document
        events = document["events"] as? [[String: Any]] ?? []
    }

    /// The session's length: its `session.ended`.
    var endMs: Int { events.last { $0["type"] as? String == "session.ended" }?["atMs"] as? Int ?? 0 }

    /// The document as known at `completeToMs`; nil `completeToMs`: the finished document.
    func version(completeToMs: Int?) -> [String: Any] {
        var version = document
        version["tracks"] = (document["tracks"] as? [[String: Any]] ?? []).map(renaming)
        guard let completeToMs else { return version }
        let known = events.filter { ($0["atMs"] as? Int ?? 0) < completeToMs && $0["type"] as? String != "session.ended" }
        var joined = Set<String>()
        for event in known {
            if let id = event["participantId"] as? String { joined.insert(id) }
            if let id = event["senderId"] as? String { joined.insert(id) }
        }
        // The contract lets a recorder only append participants and tracks: each version lists the shortest
        // prefix of the document's lists that holds everyone named so far and each listed track's participant.
        let participants = document["participants"] as? [[String: Any]] ?? [], tracks = version["tracks"] as? [[String: Any]] ?? []
        var listed = 0, tracked = 0
        while true {
            let newListed = max(listed, (participants.lastIndex { joined.contains($0["id"] as? String ?? "") } ?? -1) + 1)
            let present = Set(participants.prefix(newListed).compactMap { $0["id"] as? String })
            let newTracked = max(tracked, (tracks.lastIndex { present.contains($0["participantId"] as? String ?? "") } ?? -1) + 1)
            joined.formUnion(tracks.prefix(newTracked).compactMap { $0["participantId"] as? String })
            if (newListed, newTracked) == (listed, tracked) { break }
            (listed, tracked) = (newListed, newTracked)
        }
        version["participants"] = Array(participants.prefix(listed))
        version["tracks"] = Array(tracks.prefix(tracked))
        version["events"] = known
        version["recording"] = ["completeToMs": completeToMs]
        return version
    }

    /// Writes a version as `session.json` in `folder`: beside it under another name, then renamed over it.
    func write(completeToMs: Int?, in folder: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: version(completeToMs: completeToMs), options: [.sortedKeys, .withoutEscapingSlashes])
        try ManifestFile.replace(in: folder, with: data)
    }

    private func renaming(_ track: [String: Any]) -> [String: Any] {
        var track = track
        if let file = track["file"] as? String { track["file"] = ReplayedFile.target(for: file) }
        if let layers = track["layers"] as? [[String: Any]] {
            track["layers"] = layers.map { layer in
                var layer = layer
                if let file = layer["file"] as? String { layer["file"] = ReplayedFile.target(for: file) }
                return layer
            }
        }
        return track
    }
}
