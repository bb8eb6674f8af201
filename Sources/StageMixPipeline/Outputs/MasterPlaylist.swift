/// An HLS master playlist (RFC 8216 4.3.4): one audio rendition shared by every variant, and one
/// variant per video rendition, largest first, each with what a player chooses by.
struct MasterPlaylist {
    struct Variant {
        var uri: String
        var width: Int
        var height: Int
        var fps: Int
        /// The video's `avc1.PPCCLL`.
        var videoCodec: String
        /// Video and audio together.
        var bitrate: MediaPlaylistBitrate
    }

    var audioURI: String
    var audioCodec = "mp4a.40.2"
    var channels = 2
    var variants: [Variant]
    /// 7 for fragmented MP4 segments (EXT-X-MAP in media playlists), 6 otherwise.
    var version: Int

    var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version)", "#EXT-X-INDEPENDENT-SEGMENTS",
                     #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Stage",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="\#(channels)",URI="\#(audioURI)""#]
        for variant in variants {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bitrate.peak),AVERAGE-BANDWIDTH=\(variant.bitrate.average),"
                + #"RESOLUTION=\#(variant.width)x\#(variant.height),CODECS="\#(variant.videoCodec),\#(audioCodec)","#
                + "FRAME-RATE=\(variant.fps).000,AUDIO=\"audio\"")
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
