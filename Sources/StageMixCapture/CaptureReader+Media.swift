import Foundation
public import StageMixJSON

extension CaptureReader {
    /// The media files of `capture` that are missing or unreadable, one problem per track layer
    /// (or audio track), naming the track id and layer. Composition goes on without them.
    public static func missingMedia(in capture: Capture) -> [JSONProblem] {
        var problems: [JSONProblem] = []
        let tracksPath = JSONPath.root.key("tracks")
        for (i, track) in capture.tracks.enumerated() {
            // Track keeps layers sorted by size, not in manifest order, so a layer is named by its quality.
            let files: [(file: String, path: JSONPath, what: String)] = track.kind == .audio
                ? track.file.map { [($0, tracksPath.index(i).key("file"), "audio track \"\(track.id)\"")] } ?? []
                : track.layers.map { layer in
                    (layer.file, tracksPath.index(i).key("layers").element(where: "quality", is: layer.quality.rawValue).key("file"),
                     "track \"\(track.id)\", layer \"\(layer.quality.rawValue)\"")
                }
            for entry in files {
                // Objects are asked about only when opened: one nobody opens is never requested, and one
                // found missing then is reported as lost media by the reader that opened it.
                if capture.objects != nil { continue }
                let url = capture.mediaURL(entry.file)
                var isDirectory: ObjCBool = false
                let found: String
                if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                    found = "no file at \(entry.file)"
                } else if isDirectory.boolValue {
                    found = "a directory at \(entry.file)"
                } else if !FileManager.default.isReadableFile(atPath: url.path) {
                    found = "an unreadable file at \(entry.file)"
                } else {
                    continue
                }
                problems.append(JSONProblem(file: entry.file, path: entry.path.description,
                                               expected: "a readable media file for \(entry.what)", found: found))
            }
        }
        return problems
    }
}
