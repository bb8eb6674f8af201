import Foundation
internal import CFFmpeg
import StageMixStorage

/// An object in a bucket read as FFmpeg reads a file: an AVIOContext whose reads are served from
/// blocks fetched by ranged GETs, with the next block fetched while this one is read. A demuxer
/// that reads a file's header and seeks to its index fetches those ranges and no others, so memory
/// stays at two blocks per open object whatever its size.
///
/// A read that fails after the client's retries is recorded on the ``StoredObjects`` it came from,
/// so a run can stop with the store's error instead of treating the media as damaged.
final class ObjectInput {
    static let blockSize = 1 << 20
    private static let bufferSize = 64 << 10

    let objects: StoredObjects
    let location: S3Location
    let size: Int
    private var position = 0
    private var block: (index: Int, data: Data)?
    private var ahead: (index: Int, call: S3Call<Data>)?
    /// The read that failed for good, if one did.
    private(set) var failure: S3Error?
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init(relativePath: String, in objects: StoredObjects) throws(MediaError) {
        self.objects = objects
        location = objects.location(of: relativePath)
        let size: Int?
        do {
            size = try objects.size(of: relativePath)
        } catch {
            throw MediaError(.storageFailed, "cannot open '\(location)': \(error)")
        }
        guard let size else { throw MediaError(.notFound, "cannot open '\(location)': no such object") }
        self.size = size
        guard let buffer = av_malloc(Self.bufferSize) else { throw .outOfMemory("I/O buffer") }
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0,
                                     Unmanaged.passUnretained(self).toOpaque(), objectInputRead, nil, objectInputSeek)
        guard context != nil else {
            av_free(buffer)
            throw .outOfMemory("I/O context")
        }
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
    }

    fileprivate func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        guard position < size else { return cff_AVERROR_EOF() }
        let index = position / Self.blockSize
        guard let data = fetch(index) else { return cff_AVERROR(EIO) }
        let offset = position - index * Self.blockSize
        let n = min(count, data.count - offset)
        guard n > 0 else { return cff_AVERROR_EOF() }  // shorter than listed: it changed since
        data.withUnsafeBytes { bytes in
            buffer.update(from: bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: n)
        }
        position += n
        return Int32(n)
    }

    fileprivate func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return Int64(size) }
        let target: Int
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = Int(offset)
        case SEEK_CUR: target = position + Int(offset)
        case SEEK_END: target = size + Int(offset)
        default: return Int64(cff_AVERROR_EINVAL())
        }
        guard target >= 0 else { return Int64(cff_AVERROR_EINVAL()) }
        position = target
        return Int64(target)
    }

    private func fetch(_ index: Int) -> Data? {
        if let block, block.index == index { return block.data }
        do {
            let data = try (ahead?.index == index ? ahead!.call : get(index)).wait()
            block = (index, data)
            ahead = (index + 1) * Self.blockSize < size ? (index + 1, get(index + 1)) : nil
            return data
        } catch {
            let failure = S3Error(error, location: location.description)
            self.failure = failure
            objects.recordFailure(failure)
            return nil
        }
    }

    private func get(_ index: Int) -> S3Call<Data> {
        let start = index * Self.blockSize
        return objects.client.get(location, range: start...(min(size, start + Self.blockSize) - 1), maxBytes: Self.blockSize)
    }
}

private func objectInputRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    Unmanaged<ObjectInput>.fromOpaque(opaque!).takeUnretainedValue().read(into: buffer!, count: Int(count))
}

private func objectInputSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    Unmanaged<ObjectInput>.fromOpaque(opaque!).takeUnretainedValue().seek(to: offset, whence: whence)
}
