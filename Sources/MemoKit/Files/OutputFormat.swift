import MemoCore

/// One kind of file a command writes, and the name endings that say it.
public struct OutputFormat: Hashable, Sendable {
    /// The word a user names it by (`svg`, `flac`).
    public let name: String
    /// Lowercase endings without the dot; the first is the usual one.
    public let fileExtensions: [String]

    public init(_ name: String, fileExtensions: [String]) {
        precondition(!fileExtensions.isEmpty, "a format needs a name ending")
        self.name = name
        self.fileExtensions = fileExtensions
    }

    public static let json = OutputFormat("json", fileExtensions: ["json"])
    public static let svg = OutputFormat("svg", fileExtensions: ["svg"])

    /// The format to write to a file named `fileName` (nil for standard
    /// output), among the ones a command writes:
    /// - a name ending in one of `formats`' extensions is that format, and a
    ///   format asked for that differs is an error;
    /// - otherwise the format asked for, or the command's only format when the
    ///   name has no ending (`notes`, standard output);
    /// - a name that ends in something else (`w.png` for a picture written as
    ///   SVG) is an error unless the format is asked for.
    /// - Throws: `.usage` saying which, with the hint to name the format.
    public static func choose(for fileName: String?, asked: String?, among formats: [OutputFormat]) throws -> OutputFormat {
        precondition(!formats.isEmpty, "a command writes at least one format")
        var askedFormat: OutputFormat?
        if let asked {
            guard let known = formats.first(where: { $0.name == asked.lowercased() }) else {
                let names = formats.map(\.name).joined(separator: ", ")
                throw MemoError(.usage, en: "unknown format '\(asked)': expected one of \(names)",
                                ko: "알 수 없는 형식 '\(asked)': \(names) 중 하나여야 합니다")
            }
            askedFormat = known
        }
        let ending = fileName.flatMap(OutputFormat.ending)
        let named = ending.flatMap { ending in formats.first { $0.fileExtensions.contains(ending) } }
        switch (named, askedFormat) {
        case let (named?, asked?) where named != asked:
            throw MemoError(.usage, en: "\(fileName ?? "") names a \(named.name) file, but \(asked.name) was asked for",
                            ko: "\(fileName ?? "")은(는) \(named.name) 파일 이름인데 \(asked.name) 형식을 요청했습니다")
        case let (named?, _):
            return named
        case let (nil, asked?):
            return asked
        case (nil, nil):
            if ending == nil, formats.count == 1 { return formats[0] }
            let endings = formats.flatMap(\.fileExtensions).map { "." + $0 }
            let list = endings.count == 1 ? endings[0] : endings.dropLast().joined(separator: ", ") + " or " + endings.last!
            guard let fileName else {
                throw MemoError(.usage, hint: .chooseFormat,
                                en: "standard output has no name to tell the format by",
                                ko: "표준 출력에는 형식을 알 수 있는 이름이 없습니다")
            }
            throw MemoError(.usage, hint: .chooseFormat,
                            en: "cannot tell the format from \(fileName): it does not end in \(list)",
                            ko: "\(fileName)에서 형식을 알 수 없습니다: 이름이 \(list)(으)로 끝나지 않습니다")
        }
    }

    // MARK: - Private

    /// The lowercase text after the last dot of the file's own name, when
    /// there is one (`.profile` and `notes` have none).
    static func ending(of path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ending = name[name.index(after: dot)...]
        return ending.isEmpty ? nil : ending.lowercased()
    }
}

extension MemoError.Hint {
    /// The format to write cannot be told from the destination's name: the
    /// front end says how to name it.
    public static let chooseFormat = MemoError.Hint(rawValue: "choose_format")
}
