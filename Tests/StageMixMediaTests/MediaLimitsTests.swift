import Foundation
import Testing
import StageMixMedia
import StageMixTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A file can cost only what `MediaLimits` allow: nothing but regular files is opened, every open has a
/// deadline, and no picture larger than the limit is allocated, whatever the headers claim.
@Suite struct MediaLimitsTests {
    /// Opens `url` on a thread of its own; nil when it did not return within `seconds`.
    static func openWithin(_ seconds: Double, _ url: URL, limits: MediaLimits = .standard) -> Result<Demuxer, MediaError>? {
        final class Box: @unchecked Sendable { var result: Result<Demuxer, MediaError>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do throws(MediaError) { box.result = .success(try Demuxer(url: url, limits: limits)) } catch { box.result = .failure(error) }
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .timedOut ? nil : box.result
    }

    @Test func aFIFOIsRefusedWithoutOpeningIt() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let fifo = dir.file("layer.webm")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let result = Self.openWithin(10, fifo)
        if result == nil {
            // open(2) on a FIFO blocks until a writer comes: be that writer, so the stuck thread ends.
            let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let outcome = try #require(result, "opening a FIFO blocked")
        guard case .failure(let error) = outcome else { Issue.record("a FIFO opened as media"); return }
        #expect(error.code == .notRegularFile, "\(error)")
        #expect(error.message.contains("FIFO"))
    }

    @Test func aDirectoryAndAMissingFileAreToldApart() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        #expect(throws: MediaError.self) { try Demuxer(url: dir.url) }
        do { _ = try Demuxer(url: dir.url) } catch { #expect(error.code == .notRegularFile) }
        do { _ = try Demuxer(url: dir.file("nothing.ogg")) } catch { #expect(error.code == .notFound) }
    }

    @Test func openingHasADeadline() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file("small.ivf")
        try FFmpegTool.vp8IVF(to: url, width: 64, height: 64, color: "red", seconds: 0.5)
        #expect(throws: Never.self) { try Demuxer(url: url) }
        // A deadline already past: libavformat's interrupt callback stops the open at its first check.
        do {
            _ = try Demuxer(url: url, limits: MediaLimits(openSeconds: 0))
            Issue.record("opened past its deadline")
        } catch {
            #expect(error.code == .timedOut, "\(error)")
        }
    }

    /// A VP8 keyframe claiming 16000x16000 (256 million pixels, a 384 MB picture) in a 64x64 file.
    @Test func aForgedKeyframeSizeIsRefusedBeforeAnyPictureIsAllocated() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file("forged.ivf")
        try FFmpegTool.vp8IVF(to: url, width: 64, height: 64, color: "blue", seconds: 0.5)
        var ivf = try IVFFile(Data(contentsOf: url))
        ivf.claimSize(width: 16_000, height: 16_000, inFileHeader: false)
        try ivf.data.write(to: url)

        let demuxer = try Demuxer(url: url)
        let stream = try #require(demuxer.firstStream(ofType: .video))
        let decoder = try VideoDecoder(stream: stream, threadCount: 1)
        #expect(decoder.maxPixels == MediaLimits.maxPixels)
        var refused: MediaError?
        var pictures = 0
        while let packet = try demuxer.readPacket() {
            do {
                try decoder.send(packet)
                while case .frame = try decoder.receive() { pictures += 1 }
            } catch {
                refused = refused ?? error
                decoder.reset()
            }
        }
        #expect(pictures == 0, "no picture of the forged size is delivered")
        let error = try #require(refused)
        #expect(error.code == .tooLarge, "\(error)")
        // libavcodec itself refused (max_pixels), before allocating: not our check after the fact.
        #expect(error.underlyingCode != nil, "\(error)")
    }

    @Test func aLayerLimitIsAFewTimesItsNominalSize() {
        #expect(MediaLimits.standard.forLayer(width: 640, height: 360).maxPixels == 640 * 360 * 4)
        #expect(MediaLimits.standard.forLayer(width: 8000, height: 8000).maxPixels == MediaLimits.maxPixels)
    }
}
