/// What must be true of a key for a conditional PUT to write it (S3's conditional writes).
public enum S3WriteCondition: Sendable, Hashable {
    /// No object has the key (`If-None-Match: *`): the first writer wins, the others get 412.
    case absent
    /// The object has this ETag (`If-Match`), unquoted: nobody wrote it since it was read.
    case matching(String)
}
