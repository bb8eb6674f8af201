/// An object or a prefix in a bucket, as users write it: `s3://bucket/prefix/key`.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    public var bucket: String
    /// The key or prefix, without a leading `/`; empty for the whole bucket.
    public var key: String

    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// Parses `s3://bucket[/key]`; nil for anything else. Bucket names follow S3's rules (3 to 63
    /// lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit).
    public init?(_ text: String) {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = rest.prefix { $0 != "/" }
        guard (3...63).contains(bucket.count),
              bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }),
              bucket.first!.isLetter || bucket.first!.isNumber, bucket.last!.isLetter || bucket.last!.isNumber
        else { return nil }
        self.bucket = String(bucket)
        self.key = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
    }

    /// The location of `relative` under this prefix: `s3://b/out` + `hls/index.m3u8`.
    public func appending(_ relative: String) -> S3Location {
        S3Location(bucket: bucket, key: key.isEmpty ? relative : (key.hasSuffix("/") ? key : key + "/") + relative)
    }

    public var description: String { "s3://\(bucket)/\(key)" }
}
