public import Foundation

/// Debian's `chromium`, headless, for tests of pages StageMix writes: the DOM after scripts ran, the
/// console's messages, and screenshots, with every host name unresolvable so a page that asked for
/// anything beyond its own files would fail to get it.
public enum HeadlessChromium {
    public struct Run: Sendable {
        public var output: String
        /// The console's messages (`CONSOLE` lines of Chromium's log): errors, CSP violations, logs.
        public var console: [String]
    }

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") }

    /// `--dump-dom` of `page`: the document as serialised after its scripts ran.
    public static func dumpDOM(_ page: URL) throws -> Run {
        try run(["--dump-dom", page.absoluteString])
    }

    /// A screenshot of `page` at `width` x `height` CSS pixels, written to `png`.
    public static func screenshot(_ page: URL, width: Int, height: Int, to png: URL) throws -> Run {
        try run(["--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--hide-scrollbars", page.absoluteString])
    }

    private static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                             "--enable-logging=stderr", "--v=0", "--host-resolver-rules=MAP * ~NOTFOUND",
                             "--virtual-time-budget=3000"] + arguments
        // The log goes to a file: read after the exit, it can never fill a pipe and stall the browser.
        let logFile = profile.appendingPathExtension("log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logFile) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw FFmpegTool.Failure(description: "chromium \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(log.suffix(2000))")
        }
        let console = log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Run(output: String(decoding: output, as: UTF8.self), console: console)
    }
}
