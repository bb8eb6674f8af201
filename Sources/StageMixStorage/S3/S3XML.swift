import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the few XML documents S3 answers with (a listing, an error) with Foundation's XMLParser:
/// the root element's name, each element's text by name, and the repeated entries of a listing
/// (`Contents` of objects, `Upload` of multipart uploads).
final class S3XML: NSObject, XMLParserDelegate {
    private(set) var root: String?
    private(set) var values: [String: String] = [:]
    private(set) var contents: [[String: String]] = []
    private let entryName: String
    private var path: [String] = []
    private var text = ""
    private var entry: [String: String]?

    private init(entryName: String) { self.entryName = entryName }

    static func parse(_ data: Data, entries entryName: String = "Contents") -> S3XML {
        let reader = S3XML(entryName: entryName)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        _ = parser.parse()
        return reader
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        path.append(name)
        text = ""
        if name == entryName { entry = [:] }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        if name == entryName, let entry {
            contents.append(entry)
            self.entry = nil
        } else if entry != nil {
            entry?[name] = text
        } else if values[name] == nil {
            values[name] = text
        }
        text = ""
    }
}
