internal import CFFmpeg

/// Puts decoded pictures straight into a rectangle of a `CanvasFrame`, optionally cropping the source
/// first, converted to the canvas's colour space. A yuv420p/yuvj420p picture of the rectangle's size is
/// copied (and converted) row by row; one of another size is fitted by the fused kernel (``TileFit``).
/// Other pixel formats (RGB, 4:2:2, 4:4:4, 10-bit, NV12: seen only in imported or hostile media) go
/// through libswscale's general path, then ``ColourConversion``; its SwsContext is kept and rebuilt
/// only when the source size/format or the destination size changes.
public final class Scaler: @unchecked Sendable {
    private struct Key: Equatable {
        var srcWidth: Int, srcHeight: Int, srcFormat: Int32, dstWidth: Int, dstHeight: Int
        var srcColour: YUVColourSpace
    }

    private var context: OpaquePointer?
    private var key: Key?

    /// How pictures of another size than their rectangle are fitted.
    public enum Path: Sendable {
        /// The fused kernel where it applies (yuv420p, yuvj420p, shrinking at most about 1.7:1 across,
        /// an AVX2 CPU), swscale elsewhere.
        case kernel
        /// The kernel's plain C rows wherever it applies, even on an AVX2 CPU (tests compare the two).
        case portableKernel
        /// swscale's `SWS_AREA` and ``ColourConversion`` afterwards: what the kernel is checked against.
        case swscale
    }
    private let path: Path

    public init(path: Path = .kernel) { self.path = path }

    deinit { sws_freeContext(context) }

    /// How many SwsContexts this scaler has built; tests use it to check caching.
    public private(set) var contextBuilds = 0

    /// Scales `frame` (cropped to `sourceCrop` when given) into `rect` of `canvas`.
    /// `rect` is clipped to the canvas and aligned to even coordinates; pixels
    /// outside it are left untouched.
    /// A picture whose stream has a display matrix is turned upright first: `sourceCrop` is in shown coordinates.
    public func scale(_ stored: VideoFrame, into canvas: CanvasFrame, rect: Rect,
                      sourceCrop: Rect? = nil) throws(MediaError) {
        guard let dst = canvas.clip(rect) else { return }
        let frame = try PictureTurner.upright(stored)
        let crop = try Self.validCrop(sourceCrop, frame: frame)
        try canvas.makeWritable()
        let colour = frame.colourSpace
        if TileFit.accepts(frame.pixelFormat) {
            let conversion = conversion(from: colour, to: canvas.colourSpace)
            let sameSize = crop.width == dst.width && crop.height == dst.height
            if sameSize {
                if let conversion {
                    // Copied and converted in one pass over the pixels.
                    conversion.convert(from: frame.pointer, origin: (crop.x, crop.y), to: canvas.pointer, rect: dst)
                } else {
                    try Self.copyPlanes(frame, crop: crop, into: canvas, at: dst)
                }
                copies += 1
                if conversion != nil { conversions += 1 }
                return
            }
            // Scaled and converted in one pass, straight into the canvas (no swscale, no margin to save).
            // swscale takes what the kernel refuses (shrinking past about 1.7:1 across), and every fit
            // on a CPU without AVX2, where its general path is faster than the kernel's plain C rows.
            if path != .swscale, let fitter = tileFit(from: crop, to: dst) {
                fitter.fit(frame.pointer, origin: (crop.x, crop.y), into: canvas.pointer, rect: dst,
                           conversion: conversion, portable: path == .portableKernel)
                fits += 1
                if conversion != nil { conversions += 1 }
                return
            }
        }
        let sws = try context(for: Key(srcWidth: crop.width, srcHeight: crop.height, srcFormat: frame.pixelFormat.raw,
                                       dstWidth: dst.width, dstHeight: dst.height, srcColour: colour))

        let src = try Self.planePointers(frame.pointer, origin: crop)
        let out = try Self.planePointers(canvas.pointer, origin: dst)
        let srcSlices = src.data.map { UnsafePointer($0) }
        let margin = RightMargin(saving: canvas.pointer, rect: dst, into: &marginBuffer)
        let ret = sws_scale(sws, srcSlices, src.strides, 0, Int32(crop.height), out.data, out.strides)
        margin.restore(canvas.pointer, from: marginBuffer)
        try ffCheck(ret, .invalidArgument, "sws_scale \(crop.width)x\(crop.height) \(frame.pixelFormat) -> \(dst.width)x\(dst.height)")
        if !Self.isRGB(frame.pixelFormat.raw) { convertColour(from: colour, canvas: canvas, rect: dst) }
    }

    private var conversion: ColourConversion?
    private var fitter: (size: (Int, Int, Int, Int), fit: TileFit?)?

    /// The fused kernel's plan for this crop and tile size, kept while they stay the same (a refusal too).
    private func tileFit(from crop: Rect, to dst: Rect) -> TileFit? {
        let size = (crop.width, crop.height, dst.width, dst.height)
        if let fitter, fitter.size == size { return fitter.fit }
        let made = path == .portableKernel
            ? try? TileFit(sourceWidth: crop.width, sourceHeight: crop.height, width: dst.width, height: dst.height)
            : TileFit.preferred(sourceWidth: crop.width, sourceHeight: crop.height, width: dst.width, height: dst.height)
        fitter = (size, made)
        if made != nil { fitBuilds += 1 }
        return made
    }

    /// How many pictures the fused kernel scaled into the canvas, and how many plans it made for them.
    public private(set) var fits = 0
    public private(set) var fitBuilds = 0

    /// Pictures not in the canvas's colour space (BT.601 cameras and all VP8, full-range JPEG-style
    /// H.264) are converted where they landed; a BT.709 limited picture is left as it is.
    private func convertColour(from source: YUVColourSpace, canvas: CanvasFrame, rect: Rect) {
        guard let conversion = conversion(from: source, to: canvas.colourSpace) else { return }
        conversion.apply(to: canvas.pointer, rect: rect)
        conversions += 1
    }

    /// The conversion from `source` to `target`, kept while they stay the same; nil when they match.
    private func conversion(from source: YUVColourSpace, to target: YUVColourSpace) -> ColourConversion? {
        guard source != target else { return nil }
        if conversion?.source != source || conversion?.target != target {
            conversion = ColourConversion(from: source, to: target)
        }
        return conversion
    }

    /// How many pictures went through a colour conversion; tests use it.
    public private(set) var conversions = 0

    static func isRGB(_ format: Int32) -> Bool {
        guard let desc = av_pix_fmt_desc_get(AVPixelFormat(rawValue: format)) else { return false }
        return desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    private var marginBuffer: [UInt8] = []

    /// How many pictures went in by plain row copies, with no swscale at all (sizes already matched).
    public private(set) var copies = 0

    /// Same size, same format: the rows are copied as they are, which no swscale filter beats.
    private static func copyPlanes(_ frame: VideoFrame, crop: Rect, into canvas: CanvasFrame, at dst: Rect) throws(MediaError) {
        let src = try planePointers(frame.pointer, origin: crop)
        let out = try planePointers(canvas.pointer, origin: dst)
        for plane in 0..<3 {
            guard let from = src.data[plane], let to = out.data[plane] else { continue }
            let width = plane == 0 ? dst.width : dst.width / 2
            let rows = plane == 0 ? dst.height : dst.height / 2
            for row in 0..<rows {
                (to + row * Int(out.strides[plane])).update(from: from + row * Int(src.strides[plane]), count: width)
            }
        }
    }

    private static func validCrop(_ crop: Rect?, frame: VideoFrame) throws(MediaError) -> Rect {
        let full = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        guard let crop else { return full }
        guard crop.x >= 0, crop.y >= 0, crop.width > 0, crop.height > 0,
              crop.x + crop.width <= frame.width, crop.y + crop.height <= frame.height else {
            throw MediaError(.invalidArgument, "crop \(crop) outside \(frame.width)x\(frame.height) frame")
        }
        // Chroma-subsampled planes can only start on whole chroma samples.
        return Rect(x: crop.x & ~1, y: crop.y & ~1, width: crop.width, height: crop.height)
    }

    private func context(for newKey: Key) throws(MediaError) -> OpaquePointer {
        if let context, key == newKey { return context }
        sws_freeContext(context)
        context = nil
        let sameSize = newKey.srcWidth == newKey.dstWidth && newKey.srcHeight == newKey.dstHeight
        // The kernel's filters: area averaging on an axis that shrinks, bilinear on one that grows.
        let flags = sameSize ? SWS_POINT : SWS_AREA
        guard let c = sws_getContext(Int32(newKey.srcWidth), Int32(newKey.srcHeight), AVPixelFormat(rawValue: newKey.srcFormat),
                                     Int32(newKey.dstWidth), Int32(newKey.dstHeight), AV_PIX_FMT_YUV420P,
                                     flags, nil, nil, nil) else {
            throw MediaError(.unsupportedCodec, "swscale cannot convert \(PixelFormat(raw: newKey.srcFormat)) to yuv420p")
        }
        if Self.isRGB(newKey.srcFormat) {
            // RGB sources convert with BT.709 matrices straight into the canvas's values.
            let bt709 = sws_getCoefficients(SWS_CS_ITU709)
            _ = sws_setColorspaceDetails(c, bt709, 0, bt709, 0, 0, 1 << 16, 1 << 16)
        } else {
            // YUV is only resized here, values untouched (a yuvj source's range too, which swscale
            // would otherwise convert on its own): ColourConversion then converts matrix and range.
            let table = sws_getCoefficients(newKey.srcColour.swsColorspace)
            let range: Int32 = newKey.srcColour.fullRange ? 1 : 0
            _ = sws_setColorspaceDetails(c, table, range, table, range, 0, 1 << 16, 1 << 16)
        }
        context = c
        key = newKey
        contextBuilds += 1
        return c
    }

    /// Plane pointers of `frame` advanced to `origin`, using the pixel format's
    /// per-plane byte step and chroma subsampling, so swscale reads/writes in place.
    static func planePointers(_ frame: UnsafeMutablePointer<AVFrame>, origin: Rect) throws(MediaError)
        -> (data: [UnsafeMutablePointer<UInt8>?], strides: [Int32]) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let desc = av_pix_fmt_desc_get(format) else {
            throw MediaError(.unsupportedCodec, "unknown pixel format \(frame.pointee.format)")
        }
        let d = desc.pointee
        let isRGB = d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        var data = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var strides = [Int32](repeating: 0, count: 4)
        withUnsafeBytes(of: d.comp) { raw in
            let comps = raw.bindMemory(to: AVComponentDescriptor.self)
            for plane in 0..<4 {
                guard let base = cff_frame_data(frame, Int32(plane)) else { continue }
                let stride = cff_frame_linesize(frame, Int32(plane))
                // Byte step and chroma-ness from the first component stored in this plane.
                guard let c = (0..<Int(d.nb_components)).first(where: { Int(comps[$0].plane) == plane }) else { continue }
                let chroma = !isRGB && (c == 1 || c == 2)
                let x = chroma ? origin.x >> Int(d.log2_chroma_w) : origin.x
                let y = chroma ? origin.y >> Int(d.log2_chroma_h) : origin.y
                data[plane] = base + y * Int(stride) + x * Int(comps[c].step)
                strides[plane] = stride
            }
        }
        return (data, strides)
    }
}

/// The canvas bytes just right of a destination rectangle. swscale's SIMD
/// output stages write whole vector widths, i.e. past the rectangle's right
/// edge into what they assume is row padding; on a shared canvas those bytes
/// belong to a neighbouring tile, so they are saved before and put back after.
/// Rows are copied whole into one buffer the scaler keeps, so nothing is allocated per frame.
private struct RightMargin {
    static let bytes = 64  // wider than any swscale store run-over
    private var spans: [(plane: Int32, x: Int, y: Int, rows: Int, width: Int, offset: Int)] = []

    init(saving frame: UnsafeMutablePointer<AVFrame>, rect: Rect, into buffer: inout [UInt8]) {
        var needed = 0
        for plane in Int32(0)..<3 {
            let shift = plane == 0 ? 0 : 1  // yuv420p
            let x = (rect.x + rect.width) >> shift
            let stride = Int(cff_frame_linesize(frame, plane))
            // Up to the end of the row in memory: past the picture lies the canvas's row padding.
            let width = min(Self.bytes, stride - x)
            guard width > 0 else { continue }
            let rows = rect.height >> shift
            spans.append((plane, x, rect.y >> shift, rows, width, needed))
            needed += width * rows
        }
        if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
        buffer.withUnsafeMutableBufferPointer { out in
            for s in spans {
                let stride = Int(cff_frame_linesize(frame, s.plane))
                let base = cff_frame_data(frame, s.plane)!
                for r in 0..<s.rows {
                    (out.baseAddress! + s.offset + r * s.width).update(from: base + (s.y + r) * stride + s.x, count: s.width)
                }
            }
        }
    }

    func restore(_ frame: UnsafeMutablePointer<AVFrame>, from buffer: [UInt8]) {
        buffer.withUnsafeBufferPointer { src in
            for s in spans {
                let stride = Int(cff_frame_linesize(frame, s.plane))
                let base = cff_frame_data(frame, s.plane)!
                for r in 0..<s.rows {
                    (base + (s.y + r) * stride + s.x).update(from: src.baseAddress! + s.offset + r * s.width, count: s.width)
                }
            }
        }
    }
}
