/// An AWS CLI shared file (`~/.aws/credentials`, `~/.aws/config`) read as the CLI reads it: sections
/// `[name]` (`[profile name]` in the config file), `key = value` lines, `#` and `;` comments, and a
/// key with no value followed by indented `key = value` lines as a nested block (`s3 =` then
/// `  addressing_style = path`).
public struct AWSConfigFile: Sendable, Hashable {
    /// Section name to its keys; a nested block's keys are `block.key` (`s3.addressing_style`).
    public private(set) var sections: [String: [String: String]] = [:]

    public init(text: String) {
        var section: String?
        var block: String?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                section = String(trimmed.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                block = nil
                if let section, sections[section] == nil { sections[section] = [:] }
                continue
            }
            guard let section, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let indented = line.first == " " || line.first == "\t"
            if indented, let block {
                sections[section]?["\(block).\(key)"] = value
            } else if value.isEmpty {
                block = key
            } else {
                block = nil
                sections[section]?[key] = value
            }
        }
    }

    /// The profiles the file has, sorted: section names, less `profile ` in the config file.
    public func profileNames(isConfigFile: Bool) -> [String] {
        sections.keys.compactMap { name -> String? in
            guard isConfigFile, name != "default" else { return name }
            return name.hasPrefix("profile ") ? String(name.dropFirst("profile ".count)).trimmingCharacters(in: .whitespaces) : nil
        }.sorted()
    }

    /// A profile's keys: `[name]` in the credentials file; `[profile name]`, or `[default]`, in the config file.
    public func profile(_ name: String, isConfigFile: Bool) -> [String: String] {
        if isConfigFile, name != "default" { return sections["profile \(name)"] ?? [:] }
        return sections[name] ?? [:]
    }
}
