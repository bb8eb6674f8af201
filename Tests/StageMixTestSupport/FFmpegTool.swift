public import Foundation

/// The `ffmpeg` command-line tool, for test media made by something other than our own writers.
public enum FFmpegTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `ffmpeg -hide_banner -loglevel error -y` with `arguments`; throws with its stderr on failure.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// A VP8 IVF of a solid colour: `seconds` at `fps`, a keyframe every `gop` frames.
    public static func vp8IVF(to url: URL, width: Int, height: Int, color: String, seconds: Double,
                              fps: Int = 30, gop: Int = 30) throws {
        try run(["-f", "lavfi", "-i", "color=c=\(color):size=\(width)x\(height):rate=\(fps)", "-t", String(seconds),
                 "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k",
                 "-g", String(gop), "-keyint_min", String(gop), "-threads", "1", url.path])
    }
}
