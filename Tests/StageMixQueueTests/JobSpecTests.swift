import Foundation
import Testing
import StageMixOptions
@testable import StageMixQueue
import StageMixQueueTestSupport

@Suite("Job spec and queue URL")
struct JobSpecTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256Digest.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256Digest.hex(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func equivalentSpecsShareADedupeKey() {
        let a = JobSpec(capture: "/c/x", out: "/o/x/", options: ComposeOptions(layout: "Grid", preset: "FAST", videoBitrate: "3000K"))
        let b = JobSpec(capture: "/c/y/../x", out: "/o/x", options: ComposeOptions(layout: "Grid", preset: "fast", videoBitrate: "3000k", overwrite: false))
        #expect(a.dedupeKey == b.dedupeKey)
        #expect(JobSpec(capture: "/c/x", out: "/o/x", options: ComposeOptions(crf: 20)).dedupeKey
            != JobSpec(capture: "/c/x", out: "/o/x", options: ComposeOptions(crf: 21)).dedupeKey)
        let relative = JobSpec(capture: "cap", out: "out", options: ComposeOptions(layout: "my.json", prices: "p.json")).normalised(relativeTo: "/work")
        #expect(relative.capture == "/work/cap" && relative.options.layout == "/work/my.json" && relative.options.prices == "/work/p.json")
        // A Twilio layout keeps its prefix, its file made absolute.
        #expect(ComposeOptions(layout: "twilio:rooms/l.json").normalised(relativeTo: "/work").layout == "twilio:/work/rooms/l.json")
    }

    /// `labels: false` is `--labels off` for the worker's compose; on is the default and says nothing.
    @Test func labelsOffBecomesAnArgumentAndOnIsTheDefault() {
        var options = ComposeOptions()
        options.labels = false
        #expect(options.arguments == ["--labels", "off"])
        #expect(options.normalised().labels == false)
        options.labels = true
        #expect(options.arguments == [])
        #expect(options.normalised().labels == nil, "on and unset are one job")
    }

    /// `--renditions`: parsed into a ladder largest first, the canvas its largest, and refused
    /// (naming the option) when it cannot be one.
    @Test func renditionsAreALadderComposedAtItsLargest() throws {
        let options = ComposeOptions(renditions: "640x360@800k@15,1920x1080@6000k, 1280x720@3M")
        try options.validate()
        #expect(options.ladder == [RenditionSpec(width: 1920, height: 1080, bitrate: 6_000_000),
                                   RenditionSpec(width: 1280, height: 720, bitrate: 3_000_000),
                                   RenditionSpec(width: 640, height: 360, bitrate: 800_000, fps: 15)])
        #expect(options.canvasSize == "1920x1080")
        #expect(options.arguments == ["--renditions", "640x360@800k@15,1920x1080@6000k, 1280x720@3M"])
        #expect(options.normalised().renditions == "640x360@800k@15,1920x1080@6000k,1280x720@3m")
        func refusal(_ o: ComposeOptions) -> String? {
            do { try o.validate(); return nil } catch let e as OptionError { return e.option + " " + e.message } catch { return "\(error)" }
        }
        #expect(refusal(ComposeOptions(renditions: "1280x720")).map { $0.hasPrefix("--renditions must be 1 to 6 renditions") } == true)
        #expect(refusal(ComposeOptions(renditions: "1280x721@3000k")) != nil)
        #expect(refusal(ComposeOptions(renditions: "1280x720@50k")) != nil, "below the bitrate floor")
        #expect(refusal(ComposeOptions(renditions: Array(repeating: "640x360@800k", count: 7).joined(separator: ","))) != nil)
        #expect(refusal(ComposeOptions(renditions: "640x360@800k,640x360@500k")) == "--renditions lists 640x360 twice: each rendition needs its own size")
        #expect(refusal(ComposeOptions(videoBitrate: "3000k", renditions: "640x360@800k"))?.contains("leave out --video-bitrate") == true)
        #expect(refusal(ComposeOptions(resolution: "1280x720", renditions: "1920x1080@6000k,1280x720@3000k"))?.contains("1920x1080") == true)
        #expect(refusal(ComposeOptions(resolution: "1920x1080", renditions: "1920x1080@6000k,1280x720@3000k")) == nil)
        #expect(refusal(ComposeOptions(fps: 30, renditions: "1280x720@3000k@20")) == "--renditions frame rate 20 of 1280x720 must divide the output's 30 frames per second")
        #expect(refusal(ComposeOptions(fps: 30, segmentSeconds: 0.5, renditions: "1280x720@3000k@15"))?.contains("whole frames per segment") == true)
        #expect(refusal(ComposeOptions(renditions: "1920x1080@6000k,1080x1920@3000k"))?.contains("not the shape") == true)
        #expect(refusal(ComposeOptions(renditions: "1920x1080@6000k,640x480@800k"))?.contains("not the shape") == true)
        #expect(refusal(ComposeOptions(renditions: "1920x1080@6000k,426x240@400k")) == nil, "16:9 within the rounding to even sizes")
        #expect(refusal(ComposeOptions(fps: 30, renditions: "1280x720@3000k@15")) == nil)
    }

    @Test func aSpecIsStoredFlatAndOldRowsStillRead() throws {
        let spec = JobSpec(capture: "/c", out: "/o", options: ComposeOptions(fps: 25, crf: 23))
        #expect(spec.canonicalJSON == #"{"capture":"/c","crf":23,"fps":25,"out":"/o"}"#)
        // A row stored before the options were shared: `crf` was an integer there.
        let old = try JSONDecoder().decode(JobSpec.self, from: Data(#"{"capture":"/c","out":"/o","crf":23,"preset":"fast"}"#.utf8))
        #expect(old == JobSpec(capture: "/c", out: "/o", options: ComposeOptions(preset: "fast", crf: 23)))
    }

    @Test func composeArgumentsCarryEveryOption() {
        let spec = JobSpec(capture: "/c", out: "/o", options: ComposeOptions(
            layout: "grid", resolution: "1280x720", fps: 30, pauseGrace: 1.5, prices: "/p.json", tiers: "/t.json",
            overflowTier: "8K", segmentSeconds: 4, segmentFormat: "fmp4", preset: "fast", crf: 23.5, audioBitrate: "128k",
            encoderThreads: 2, loudness: "off", overwrite: true))
        // The staging folder the child writes is new: the overwrite is the worker's to do when it publishes.
        #expect(spec.composeArguments(outDirectory: "/.o.stagemix-1-2-3") == [
            "/c", "--out", "/.o.stagemix-1-2-3", "--layout", "grid", "--resolution", "1280x720", "--fps", "30",
            "--pause-grace", "1.5", "--prices", "/p.json", "--tiers", "/t.json", "--overflow-tier", "8K",
            "--segment-seconds", "4", "--segment-format", "fmp4", "--preset", "fast", "--crf", "23.5", "--audio-bitrate", "128k",
            "--encoder-threads", "2", "--loudness", "off",
        ])
    }

    @Test func queueURLs() throws {
        #expect(try QueueURL("sqlite:./q.sqlite") == .sqlite(path: "./q.sqlite"))
        #expect(try QueueURL("postgres://u:p@db.example:6543/jobs")
            == .postgres(host: "db.example", port: 6543, username: "u", password: "p", database: "jobs"))
        #expect(try QueueURL("postgres://u@h/db") == .postgres(host: "h", port: 5432, username: "u", password: nil, database: "db"))
        #expect(throws: QueueError.self) { try QueueURL("mysql://x") }
    }

    @Test func postgresTLSParametersFollowLibpq() throws {
        func tls(_ url: String) throws -> PostgresTLS {
            guard case .postgres(_, _, _, _, _, let tls) = try QueueURL(url) else { throw TestFailure("not postgres: \(url)") }
            return tls
        }
        // No sslmode: libpq's default, prefer (TLS when offered, certificate not checked).
        #expect(try tls("postgres://u@h/db") == PostgresTLS(mode: .prefer))
        guard case .never = try tls("postgres://u@h/db?sslmode=disable").use else {
            Issue.record("sslmode=disable must never use TLS")
            return
        }
        #expect(try tls("postgres://u@h/db?sslmode=require").verification == .none)
        #expect(try tls("postgres://u@h/db?sslmode=require&sslrootcert=/ca.pem").verification == .noHostnameVerification)
        #expect(try tls("postgres://u@h/db?sslmode=verify-ca").verification == .noHostnameVerification)
        let full = try tls("postgres://u@h/db?sslmode=verify-full&sslrootcert=/etc/db/ca.pem")
        #expect(full == PostgresTLS(mode: .verifyFull, rootCertificatePath: "/etc/db/ca.pem"))
        #expect(full.verification == .fullVerification)
        #expect(try QueueURL("postgres://u:secret@h/db?sslmode=verify-full").description
            == "postgres://u:***@h:5432/db?sslmode=verify-full")
        // A misspelt mode or a parameter we would not honour is an error, never silently plain TCP.
        #expect(throws: QueueError.self) { try QueueURL("postgres://u@h/db?sslmode=required") }
        #expect(throws: QueueError.self) { try QueueURL("postgres://u@h/db?sslcert=/c.pem") }
        #expect(throws: QueueError.self) { try QueueURL("postgres://u@h/db?sslrootcert=") }
    }

    @Test func progressLinesAreParsed() {
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"progress","percent":12.5,"speed":3.1,"etaSeconds":20}"#)?.percent == 12.5)
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"done"}"#)?.percent == nil)
        #expect(ComposeChild.ProgressLine(parsing: "plain text")?.percent == nil)
    }
}
