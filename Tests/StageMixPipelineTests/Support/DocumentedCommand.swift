import Foundation

/// A `stagemix ...` command line as a document shows it in a code block (fenced, or indented four
/// spaces after a blank line): where it is, its words as a shell would split them, the variables
/// its block set before it, and whether it is a synopsis (placeholders such as `CAPTURE`, `<dir>`,
/// `[--json]`, `a|b`) or a line to be typed as it stands.
struct DocumentedCommand: CustomStringConvertible {
    var file: String
    var line: Int
    var text: String
    /// `NAME=value` before the program (`AWS_PROFILE=recorder stagemix ...`).
    var environment: [String: String]
    /// Variables the block assigned on earlier lines (`demo=~/stagemix-demo`), unexpanded.
    var variables: [String: String]
    /// The words after the program, unquoted.
    var words: [String]
    var isSynopsis: Bool

    var description: String { "\(file):\(line): \(text)" }

    /// Every command line of the Markdown files under `root` named by `paths`.
    static func all(in root: URL, files paths: [String]) throws -> [DocumentedCommand] {
        try paths.flatMap { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return codeBlocks(text).flatMap { commands(in: $0, file: path) }
        }
    }

    /// The lines of each code block, with their numbers (1-based). Fences of another language than a
    /// shell's (`mermaid`, `json`, `python`) hold no command lines.
    static func codeBlocks(_ text: String) -> [[(Int, String)]] {
        var blocks: [[(Int, String)]] = []
        var current: [(Int, String)] = []
        var fence: String?
        var previousBlank = true
        for (offset, raw) in text.components(separatedBy: "\n").enumerated() {
            let number = offset + 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix("```") {
                    if ["", "sh", "bash", "shell", "console"].contains(open) { blocks.append(current) }
                    current = []
                    fence = nil
                } else {
                    current.append((number, raw))
                }
                previousBlank = false
                continue
            }
            if trimmed.hasPrefix("```") {
                if !current.isEmpty { blocks.append(current) }
                current = []
                fence = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces).lowercased()
                continue
            }
            let indented = raw.hasPrefix("    ") && !trimmed.isEmpty
            if indented && (previousBlank || !current.isEmpty) {
                current.append((number, raw))
            } else if !trimmed.isEmpty, !current.isEmpty {
                blocks.append(current)
                current = []
            }
            previousBlank = trimmed.isEmpty
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    /// The block's logical lines (a trailing `\`, or a synopsis's next line starting `[`, continues
    /// one), each split at `;` into simple commands: assignments are remembered, `stagemix` lines kept.
    static func commands(in block: [(Int, String)], file: String) -> [DocumentedCommand] {
        var logical: [(Int, String)] = []
        var continuing = false
        for (number, raw) in block {
            // A comment ends its own line, not the command a next line continues.
            let trimmed = withoutComment(raw).trimmingCharacters(in: .whitespaces)
            if continuing || (trimmed.hasPrefix("[") && !logical.isEmpty), let last = logical.popLast() {
                logical.append((last.0, last.1 + " " + trimmed))
            } else {
                logical.append((number, trimmed))
            }
            continuing = trimmed.hasSuffix("\\")
            if continuing, let last = logical.popLast() { logical.append((last.0, String(last.1.dropLast()))) }
        }
        var variables: [String: String] = [:]
        var found: [DocumentedCommand] = []
        for (number, line) in logical {
            for simple in split(line, at: ";") {
                var words = shellWords(simple)
                var environment: [String: String] = [:]
                // `TOKEN=$(stagemix token ...)`: the command inside.
                if let first = words.first?.text, let open = first.range(of: "=$("), isName(String(first[..<open.lowerBound])) {
                    words[0].text = String(first[open.upperBound...])
                    if let last = words.indices.last, words[last].text.hasSuffix(")") { words[last].text.removeLast() }
                }
                while let first = words.first, !first.quoted, let equals = first.text.firstIndex(of: "="),
                      isName(String(first.text[..<equals])), !first.text.hasPrefix("-") {
                    environment[String(first.text[..<equals])] = String(first.text[first.text.index(after: equals)...])
                    words.removeFirst()
                }
                guard let program = words.first?.text else {
                    variables.merge(environment) { $1 }
                    continue
                }
                guard program == "stagemix" || program.hasSuffix("/stagemix") else { continue }
                words.removeFirst()
                if words.last?.text == "&" { words.removeLast() }
                let synopsis = words.contains { word in
                    !word.quoted && (word.text.contains { "[]<>|".contains($0) } || word.text.allSatisfy { $0.isUppercase || $0 == "_" })
                }
                found.append(DocumentedCommand(file: file, line: number, text: simple.trimmingCharacters(in: .whitespaces),
                                               environment: environment, variables: variables, words: words.map(\.text), isSynopsis: synopsis))
            }
        }
        return found
    }

    /// `line` up to a `#` that starts a word outside quotes.
    private static func withoutComment(_ line: String) -> String {
        var kept = "", quote: Character?, previous: Character = " "
        for character in line {
            if let open = quote { if character == open { quote = nil } } else if character == "'" || character == "\"" { quote = character }
            if quote == nil && character == "#" && previous == " " { break }
            kept.append(character)
            previous = character
        }
        return kept
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `line` split at `separator` outside quotes.
    private static func split(_ line: String, at separator: Character) -> [String] {
        var parts: [String] = [], current = "", quote: Character?
        for character in line {
            if let open = quote { if character == open { quote = nil } } else if character == "'" || character == "\"" { quote = character }
            if quote == nil && character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        return parts + [current]
    }

    struct Word { var text: String; var quoted: Bool }

    /// Words as a shell splits them: quotes removed (a quoted word is never a placeholder), `#` at the
    /// start of a word ending the line; `$(...)` inside a word is kept whole.
    static func shellWords(_ line: String) -> [Word] {
        var words: [Word] = []
        var current = "", quoted = false, started = false, quote: Character?, depth = 0
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                quoted = true
                started = true
            } else if character == " " && depth == 0 {
                if started { words.append(Word(text: current, quoted: quoted)) }
                current = ""
                quoted = false
                started = false
            } else if character == "#" && !started {
                break
            } else {
                if character == "(" && current.hasSuffix("$") { depth += 1 } else if character == ")" && depth > 0 { depth -= 1 }
                current.append(character)
                started = true
            }
        }
        if started { words.append(Word(text: current, quoted: quoted)) }
        return words
    }

    /// `text` with `~` (at the start of a word), `$HOME` and the block's variables put in.
    func expanding(_ text: String, home: String) -> String {
        var result = Self.homeExpanded(text, home: home)
        for (name, value) in variables {
            let expanded = Self.homeExpanded(value, home: home)
            result = result.replacingOccurrences(of: "${\(name)}", with: expanded).replacingOccurrences(of: "$\(name)", with: expanded)
        }
        return result
    }

    private static func homeExpanded(_ text: String, home: String) -> String {
        (text.hasPrefix("~") ? home + text.dropFirst() : text).replacingOccurrences(of: "$HOME", with: home)
    }
}
