/// The `Content-Type` an output file is stored with, so a player or browser reading the bucket
/// over HTTP gets what it expects.
enum ContentType {
    static func of(_ name: String) -> String {
        switch name.split(separator: ".").last.map({ $0.lowercased() }) ?? "" {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        case "m4s": "video/iso.segment"
        case "mp4": "video/mp4"
        case "json": "application/json"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "vtt": "text/vtt"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
