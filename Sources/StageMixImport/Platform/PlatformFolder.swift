public import Foundation
import StageMixJSON

/// A platform's recording as a user holds it: a folder (a downloaded bucket prefix, or the bucket
/// mounted in place) with the platform's media wherever it wrote them and its JSON as the user saved
/// it (API responses, webhook bodies, event logs) as `.json` files, one document each (or an array of
/// them), or `.jsonl` files, one per line, anywhere under it. Scanning parses every document strictly
/// and indexes every other file; the platform then recognises its documents by their shape, never by
/// their names. A document that is not JSON is a problem naming its file and place (exit 65).
public struct PlatformFolder: Sendable {
    public let directory: URL
    var documents: [FoundDocument]
    var files: FileIndex

    static let maxDocumentBytes = 64 << 20
    static let maxDocuments = 200_000
    static let maxFiles = 1_000_000

    public init(scanning directory: URL) throws {
        self.directory = directory.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.directory.path, isDirectory: &isFolder), isFolder.boolValue,
              let walk = FileManager.default.enumerator(at: self.directory, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles]) else {
            throw ImportError(problems: [JSONProblem(file: directory.path, path: "", expected: "a folder of the platform's recordings", found: "no such folder")])
        }
        var paths: [String] = []
        var documents: [FoundDocument] = []
        var problems: [JSONProblem] = []
        let base = self.directory.path.hasSuffix("/") ? self.directory.path : self.directory.path + "/"
        for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : url.lastPathComponent
            switch url.pathExtension.lowercased() {
            case "json": documents += Self.documents(inFile: url, named: relative, &problems)
            case "jsonl": documents += Self.documents(inLines: url, named: relative, &problems)
            default: paths.append(relative)
            }
            guard paths.count <= Self.maxFiles, documents.count <= Self.maxDocuments else {
                throw ImportError(problems: [JSONProblem(file: directory.path, path: "", expected: "at most \(Self.maxFiles) files and \(Self.maxDocuments) JSON documents",
                                                         found: "more")])
            }
        }
        if !problems.isEmpty { throw ImportError(problems: problems) }
        self.documents = documents.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        files = FileIndex(directory: self.directory, paths: paths)
    }

    /// A `.json` file: one object, or an array of objects (a log saved whole).
    private static func documents(inFile url: URL, named name: String, _ problems: inout [JSONProblem]) -> [FoundDocument] {
        guard let bytes = contents(url, named: name, &problems) else { return [] }
        do {
            switch try JSONTextParser.parse(bytes) {
            case .object(let object):
                return [FoundDocument(name: name, root: .root, object: object)]
            case .array(let elements):
                return elements.enumerated().compactMap { index, element in
                    guard case .object(let object) = element else {
                        problems.append(JSONProblem(file: name, path: JSONPath.root.index(index).description, expected: "a JSON object (one document of the array)",
                                                    found: element.summary))
                        return nil
                    }
                    return FoundDocument(name: name, root: JSONPath.root.index(index), object: object)
                }
            case let other:
                problems.append(JSONProblem(file: name, path: "$", expected: "a JSON object or an array of them", found: other.summary))
                return []
            }
        } catch {
            problems.append(JSONProblem(file: name, syntax: error))
            return []
        }
    }

    /// A `.jsonl` file: one object a line, blank lines skipped, each line named by its number.
    private static func documents(inLines url: URL, named name: String, _ problems: inout [JSONProblem]) -> [FoundDocument] {
        guard let bytes = contents(url, named: name, &problems) else { return [] }
        var documents: [FoundDocument] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            if text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            let lineName = "\(name) line \(index + 1)"
            do {
                guard case .object(let object) = try JSONTextParser.parse(Array(text)) else {
                    problems.append(JSONProblem(file: lineName, path: "$", expected: "a JSON object (one document a line)", found: "another JSON value"))
                    continue
                }
                documents.append(FoundDocument(name: lineName, root: .root, object: object))
            } catch {
                problems.append(JSONProblem(file: lineName, syntax: error))
            }
        }
        return documents
    }

    private static func contents(_ url: URL, named name: String, _ problems: inout [JSONProblem]) -> [UInt8]? {
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
        guard size <= maxDocumentBytes else {
            problems.append(JSONProblem(file: name, path: "", expected: "at most \(maxDocumentBytes >> 20) MiB of JSON", found: "\(size) bytes"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problems.append(JSONProblem(file: name, path: "", expected: "a readable file", found: "one that cannot be read"))
            return nil
        }
        return Array(data)
    }

    /// A file's path under the folder, for messages.
    func relative(_ url: URL) -> String {
        let base = directory.path + "/", path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : url.lastPathComponent
    }
}
