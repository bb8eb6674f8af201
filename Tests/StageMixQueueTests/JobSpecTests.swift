import Testing
@testable import StageMixQueue

@Suite("Job spec and queue URL")
struct JobSpecTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256Digest.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256Digest.hex(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func equivalentSpecsShareADedupeKey() {
        let a = JobSpec(capture: "/c/x", out: "/o/x/", layout: "Grid", preset: "FAST", videoBitrate: "3000K")
        let b = JobSpec(capture: "/c/y/../x", out: "/o/x", layout: "Grid", preset: "fast", videoBitrate: "3000k")
        #expect(a.dedupeKey == b.dedupeKey)
        #expect(JobSpec(capture: "/c/x", out: "/o/x", crf: 20).dedupeKey != JobSpec(capture: "/c/x", out: "/o/x", crf: 21).dedupeKey)
        #expect(JobSpec(capture: "cap", out: "out").normalised(relativeTo: "/work").capture == "/work/cap")
    }

    @Test func composeArgumentsCarryEveryOption() {
        let spec = JobSpec(
            capture: "/c", out: "/o", layout: "grid", resolution: "1280x720", fps: 30, segmentSeconds: 4,
            segmentFormat: "fmp4", preset: "fast", crf: 23, audioBitrate: "128k"
        )
        #expect(spec.composeArguments(outDirectory: "/o.attempt-j-1.tmp") == [
            "/c", "--out", "/o.attempt-j-1.tmp", "--layout", "grid", "--resolution", "1280x720", "--fps", "30",
            "--segment-seconds", "4", "--segment-format", "fmp4", "--preset", "fast", "--crf", "23", "--audio-bitrate", "128k",
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
        #expect(ComposeEvent.progress(in: #"{"event":"progress","percent":12.5,"speed":3.1,"etaSeconds":20}"#) == 12.5)
        #expect(ComposeEvent.progress(in: #"{"event":"done"}"#) == nil)
        #expect(ComposeEvent.progress(in: "plain text") == nil)
    }
}
