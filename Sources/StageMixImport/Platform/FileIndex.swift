import Foundation

/// The files under an import's folder, found by the trailing path a platform's document or playlist
/// gives them. A document names a file by a bucket key, a path on the platform's storage or a URL
/// (`https://bucket.s3.amazonaws.com/rec/2026/a/b/c.ts?X-Amz-...`), while the folder may hold any
/// downloaded prefix of the bucket (`…/a/b/c.ts`, or `c.ts` alone): the file whose path ends with
/// the most of the reference's trailing components wins; two that tie are a warning, and the first
/// in path order is used.
struct FileIndex: Sendable {
    let directory: URL
    /// Paths relative to `directory`, sorted.
    let paths: [String]
    private let byName: [String: [String]]

    /// What a reference resolved to.
    struct Match: Sendable {
        /// The file's path relative to the folder; nil when no file has the reference's name.
        var relative: String?
        var url: URL?
        /// Set when more than one file ended the same way.
        var warning: String?
    }

    init(directory: URL, paths: [String]) {
        self.directory = directory
        self.paths = paths.sorted()
        byName = Dictionary(grouping: self.paths) { ($0 as NSString).lastPathComponent }
    }

    /// The file a key, path or URL names, matched by its trailing path.
    func match(_ reference: String) -> Match {
        let wanted = Self.components(of: reference)
        guard let name = wanted.last, let candidates = byName[name] else { return Match() }
        let scored = candidates.map { path -> (path: String, score: Int) in
            let have = path.split(separator: "/").map(String.init)
            var score = 0
            while score < min(have.count, wanted.count), have[have.count - 1 - score] == wanted[wanted.count - 1 - score] { score += 1 }
            return (path, score)
        }
        let best = scored.map(\.score).max() ?? 0
        let winners = scored.filter { $0.score == best }.map(\.path)
        let chosen = winners[0]
        let warning = winners.count > 1
            ? "\(reference): \(winners.count) files end the same way (\(winners.prefix(3).joined(separator: ", "))\(winners.count > 3 ? ", ..." : "")); \(chosen) is used"
            : nil
        return Match(relative: chosen, url: directory.appendingPathComponent(chosen), warning: warning)
    }

    /// Files whose name satisfies `test`, in path order.
    func files(where test: (String) -> Bool) -> [String] {
        paths.filter { test(($0 as NSString).lastPathComponent) }
    }

    /// A reference's path components: a URL's path (no scheme, host or query), percent-decoded.
    static func components(of reference: String) -> [String] {
        var path = reference
        if let scheme = path.range(of: "://") {
            let rest = path[scheme.upperBound...]
            path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        return path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }.filter { $0 != "." && !$0.isEmpty }
    }
}
