import Foundation
import Testing
import StageMixTestSupport
import StageMixLayout
import StageMixMedia
import StageMixPlan
@testable import StageMixPipeline

/// The fused kernel that fits a picture into its tile (CStageMixKernels' tile_fit.c, through `Scaler`)
/// against swscale's `SWS_AREA` followed by the colour conversion, the path it replaces: at every
/// picture-to-tile fit the built-in layouts make, on pictures the ffmpeg CLI made (H.264 tagged BT.709,
/// so no conversion; VP8, converted from BT.601; full-range H.264), PSNR above 45 dB in every plane,
/// nothing written outside the tile, and the AVX2 rows equal to the plain C ones byte for byte.
@Suite("tile fit kernel", .serialized)
struct TileFitTests {
    struct Fit: Hashable, CustomStringConvertible {
        var canvas: CanvasSize
        var picture: CanvasSize
        var crop: Rect?
        var destination: Rect
        var description: String {
            "\(picture.width)x\(picture.height)\(crop.map { " crop \($0.width)x\($0.height)+\($0.x)+\($0.y)" } ?? "") -> \(destination.width)x\(destination.height) on \(canvas.width)x\(canvas.height)"
        }
    }

    static let cameraLayers = [CanvasSize(width: 320, height: 180), CanvasSize(width: 640, height: 360), CanvasSize(width: 1280, height: 720),
                               CanvasSize(width: 360, height: 640)]
    static let screenLayers = [CanvasSize(width: 1920, height: 1080), CanvasSize(width: 1280, height: 720)]
    static let canvases = [CanvasSize(width: 1280, height: 720), CanvasSize(width: 1920, height: 1080), CanvasSize(width: 640, height: 360)]

    /// Every fit of a picture into a tile that is not a plain copy, over the built-in layouts, the
    /// canvases above, 1 to 16 cameras with and without a screen share, and the layer sizes a track
    /// has; the same fit (sizes and crop) counted once.
    static func layoutFits() -> [Fit] {
        var seen: Set<String> = [], fits: [Fit] = []
        for name in Layout.builtinNames {
            guard var layout = Layout.builtin(named: name) else { continue }
            for canvas in canvases {
                layout.canvas = canvas
                for cameras in 1...16 {
                    for share in [false, true] {
                        var sources = (0..<cameras).map { LayoutSource(participantId: "p\($0)", pinnedAtMs: $0, stageOrder: $0) }
                        if share { sources.append(LayoutSource(participantId: "p0", kind: .screenShare, pinnedAtMs: 0, stageOrder: 0)) }
                        for tile in layout.arrange(sources).tiles {
                            let planned = PlannedTile(participantId: tile.source.participantId, name: "", source: tile.source.kind,
                                                      region: tile.region, rect: tile.rect, z: tile.z, fit: tile.fit, show: .video,
                                                      trackId: nil, layer: nil, placeholderReason: nil)
                            for picture in tile.source.kind == .screenShare ? screenLayers : cameraLayers {
                                let placed = CanvasPainter.placement(of: picture, in: planned)
                                let from = placed.sourceCrop.map { CanvasSize(width: $0.width, height: $0.height) } ?? picture
                                guard placed.destination.width >= 2, placed.destination.height >= 2,
                                      from.width != placed.destination.width || from.height != placed.destination.height else { continue }
                                let fit = Fit(canvas: canvas, picture: picture, crop: placed.sourceCrop, destination: placed.destination)
                                let key = "\(picture) \(String(describing: placed.sourceCrop)) \(placed.destination.width)x\(placed.destination.height)"
                                if seen.insert(key).inserted { fits.append(fit) }
                            }
                        }
                    }
                }
            }
        }
        return fits
    }

    /// Pictures made by the ffmpeg CLI from its `testsrc2` pattern (edges, text, gradients, colour),
    /// decoded by StageMix's own decoder, one per encoding and size.
    final class Pictures: @unchecked Sendable {
        let directory = ScratchDirectory("tile-fit").url
        private var made: [String: VideoFrame] = [:]
        static let encodings: [(name: String, arguments: [String], file: String)] = [
            ("H.264 BT.709", ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"], "mp4"),
            ("VP8", ["-c:v", "libvpx", "-b:v", "8M", "-pix_fmt", "yuv420p"], "webm"),
            ("H.264 full range", ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuvj420p", "-color_range", "pc"], "mp4"),
        ]

        func picture(_ size: CanvasSize, encoding: Int) throws -> VideoFrame {
            let key = "\(size.width)x\(size.height)-\(encoding)"
            if let frame = made[key] { return frame }
            let e = Self.encodings[encoding]
            let file = directory.appendingPathComponent("\(key).\(e.file)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(size.width)x\(size.height):r=30:d=0.2", "-frames:v", "3"] + e.arguments + [file.path])
            let frame = try Self.lastFrame(of: file)
            made[key] = frame
            return frame
        }

        static func lastFrame(of url: URL) throws -> VideoFrame {
            let demuxer = try Demuxer(url: url)
            let stream = try #require(demuxer.firstStream(ofType: .video))
            let decoder = try VideoDecoder(stream: stream, threadCount: 1)
            var last: VideoFrame?
            var ended = false
            while true {
                switch try decoder.receive() {
                case .frame(let frame): last = frame; continue
                case .endOfStream: return try #require(last)
                case .needsInput: break
                }
                if ended { return try #require(last) }
                if let packet = try demuxer.readPacket() {
                    if packet.streamIndex == stream.index { try decoder.send(packet) }
                } else {
                    try decoder.send(nil)
                    ended = true
                }
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static let background = RGBColor(r: 16, g: 18, b: 23)

    /// `frame` fitted by `path` on a fresh canvas of the fit's size, painted the background first.
    static func fitted(_ frame: VideoFrame, _ fit: Fit, path: Scaler.Path) throws -> (canvas: CanvasFrame, scaler: Scaler) {
        let canvas = try CanvasFrame(width: fit.canvas.width, height: fit.canvas.height)
        try canvas.fill(color: background)
        let scaler = Scaler(path: path)
        try scaler.scale(frame, into: canvas, rect: fit.destination, sourceCrop: fit.crop)
        return (canvas, scaler)
    }

    /// Peak signal-to-noise ratio of two planes' samples inside `rect` (in the plane's own coordinates).
    static func psnr(_ a: [UInt8], _ b: [UInt8], rowWidth: Int, rect: Rect) -> Double {
        var squared = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for y in rect.y..<(rect.y + rect.height) {
                    let pa = a.baseAddress! + y * rowWidth, pb = b.baseAddress! + y * rowWidth
                    for x in rect.x..<(rect.x + rect.width) {
                        let d = Int(pa[x]) - Int(pb[x])
                        squared &+= d &* d
                    }
                }
            }
        }
        let mse = Double(squared) / Double(rect.width * rect.height)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Whether `after` equals `before` everywhere outside `rect` (plane coordinates).
    static func sameOutside(_ after: [UInt8], _ before: [UInt8], rowWidth: Int, rect: Rect) -> Bool {
        after.withUnsafeBufferPointer { a in
            before.withUnsafeBufferPointer { b in
                let rows = a.count / rowWidth
                for y in 0..<rows {
                    let pa = a.baseAddress! + y * rowWidth, pb = b.baseAddress! + y * rowWidth
                    if y < rect.y || y >= rect.y + rect.height {
                        if memcmp(pa, pb, rowWidth) != 0 { return false }
                    } else if memcmp(pa, pb, rect.x) != 0
                                || memcmp(pa + rect.x + rect.width, pb + rect.x + rect.width, rowWidth - rect.x - rect.width) != 0 {
                        return false
                    }
                }
                return true
            }
        }
    }

    @Test func theLayoutsFitPicturesInManySizes() {
        let fits = Self.layoutFits()
        // Shrinking (1280x720 into a 2x2 tile at 1080p, 640x360 into a 4x4 tile), growing (320x180 into
        // a speaker's main area), both at once and cropped (a portrait phone in a landscape `cover` tile).
        #expect(fits.count > 40, "\(fits.count) fits")
        #expect(fits.contains { $0.picture.width == 1280 && $0.destination.width < 1280 && $0.destination.width > 640 })
        #expect(fits.contains { $0.picture.width == 320 && $0.destination.width > 320 })
        #expect(fits.contains { $0.crop != nil })
    }

    @Test(arguments: 0..<Pictures.encodings.count)
    func theKernelMatchesSwscaleAtEveryLayoutFit(encoding: Int) throws {
        let pictures = Pictures()
        var worst = (psnr: Double.infinity, fit: "")
        let fits = Self.layoutFits()
        var kernelFits = 0
        for fit in fits {
            let frame = try pictures.picture(fit.picture, encoding: encoding)
            let (kernel, scaler) = try Self.fitted(frame, fit, path: .kernel)
            // The kernel takes a fit unless it shrinks more than about 1.7:1 across; swscale takes the rest.
            let across = Double(fit.crop?.width ?? fit.picture.width) / Double(fit.destination.width)
            #expect(scaler.fits + scaler.contextBuilds == 1)
            if across <= 1.7 { #expect(scaler.fits == 1, "\(fit): the kernel, not swscale") }
            if across > 4 { #expect(scaler.contextBuilds == 1, "\(fit): swscale, not the kernel") }
            kernelFits += scaler.fits
            let (reference, swscale) = try Self.fitted(frame, fit, path: .swscale)
            #expect(swscale.fits == 0 && swscale.contextBuilds == 1)
            let plain = try Self.fitted(frame, fit, path: .portableKernel).canvas
            let blank = try CanvasFrame(width: fit.canvas.width, height: fit.canvas.height)
            try blank.fill(color: Self.background)
            for plane in 0..<3 {
                let shift = plane == 0 ? 0 : 1
                let rowWidth = fit.canvas.width >> shift
                let rect = Rect(x: fit.destination.x >> shift, y: fit.destination.y >> shift,
                                width: fit.destination.width >> shift, height: fit.destination.height >> shift)
                let ours = kernel.planeSamples(plane), theirs = reference.planeSamples(plane), before = blank.planeSamples(plane)
                let psnr = Self.psnr(ours, theirs, rowWidth: rowWidth, rect: rect)
                if psnr < worst.psnr { worst = (psnr, "\(fit) plane \(plane)") }
                #expect(psnr > 45, "\(Pictures.encodings[encoding].name), \(fit), plane \(plane): PSNR \(psnr) dB against swscale")
                // Exact geometry: every sample outside the tile is what it was.
                #expect(Self.sameOutside(ours, before, rowWidth: rowWidth, rect: rect), "\(fit), plane \(plane): written outside the tile")
                if scaler.fits == 1 {
                    #expect(plain.planeSamples(plane) == ours, "\(fit), plane \(plane): the plain C rows differ from the AVX2 ones")
                } else {
                    #expect(theirs == ours, "\(fit), plane \(plane): refused by the kernel, yet not swscale's")
                }
            }
        }
        print("tile fit, \(Pictures.encodings[encoding].name), \(fits.count) fits (\(kernelFits) by the kernel): lowest PSNR against swscale \(worst.psnr) dB (\(worst.fit))")
    }

    /// A ladder's smaller renditions are the 1080p composite shrunk by the same kernel (no conversion):
    /// against swscale's `SWS_AREA` of the same canvas, every plane above 45 dB.
    @Test(arguments: [CanvasSize(width: 1280, height: 720), CanvasSize(width: 640, height: 360), CanvasSize(width: 854, height: 480)])
    func aLaddersRenditionsMatchSwscale(size: CanvasSize) throws {
        let pictures = Pictures()
        let composite = try CanvasFrame(width: 1920, height: 1080)
        try Scaler(path: .swscale).scale(try pictures.picture(CanvasSize(width: 1920, height: 1080), encoding: 0), into: composite,
                                         rect: Rect(x: 0, y: 0, width: 1920, height: 1080))
        let resized = try CanvasResizer(fromWidth: 1920, height: 1080, toWidth: size.width, height: size.height).resize(composite)
        let reference = try CanvasFrame(width: size.width, height: size.height)
        try Scaler(path: .swscale).scale(try composite.snapshot(), into: reference, rect: Rect(x: 0, y: 0, width: size.width, height: size.height))
        for plane in 0..<3 {
            let shift = plane == 0 ? 0 : 1
            let psnr = Self.psnr(resized.planeSamples(plane), reference.planeSamples(plane), rowWidth: size.width >> shift,
                                 rect: Rect(x: 0, y: 0, width: size.width >> shift, height: size.height >> shift))
            #expect(psnr > 45, "1920x1080 -> \(size.width)x\(size.height), plane \(plane): PSNR \(psnr) dB against swscale")
        }
    }

    /// One plan per fit: the next picture of the same size reuses it; a new size makes another.
    @Test func aPlanIsMadeOncePerSize() throws {
        let pictures = Pictures()
        let frame = try pictures.picture(CanvasSize(width: 640, height: 360), encoding: 1)
        let canvas = try CanvasFrame(width: 1280, height: 720)
        let scaler = Scaler()
        try scaler.scale(frame, into: canvas, rect: Rect(x: 0, y: 0, width: 462, height: 260))
        try scaler.scale(frame, into: canvas, rect: Rect(x: 500, y: 300, width: 462, height: 260))
        #expect(scaler.fitBuilds == 1 && scaler.fits == 2 && scaler.conversions == 2)
        try scaler.scale(frame, into: canvas, rect: Rect(x: 0, y: 0, width: 950, height: 534))
        #expect(scaler.fitBuilds == 2 && scaler.contextBuilds == 0)
    }
}
