import MemoCore

/// How a word that names no subcommand is read: a unique abbreviation of one
/// (Taskwarrior's rule, at least two letters: `memoapp todo li` is `list`),
/// or an unknown command, with the names it most likely meant.
enum CommandSuggestion {
    /// The shortest abbreviation accepted: one letter is too easily a typo.
    static let shortestAbbreviation = 2

    /// The one name `word` abbreviates, if exactly one.
    static func expansion(of word: String, among names: [String]) -> String? {
        guard word.count >= shortestAbbreviation else { return nil }
        let matches = names.filter { $0.hasPrefix(word) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// `unknown command 'lsit'; did you mean 'list'?`: the names `word`
    /// abbreviates, else those within two edits of it (the closest ones).
    static func unknownCommand(_ word: String, among names: [String]) -> Localized {
        let base = Localized(en: "unknown command '\(word)'", ko: "알 수 없는 명령 '\(word)'")
        let candidates = self.candidates(for: word, among: names)
        guard !candidates.isEmpty else { return base }
        let quoted = candidates.map { "'\($0)'" }
        return Localized(en: base.en + "; did you mean " + quoted.joined(separator: " or ") + "?",
                         ko: base.ko + " — " + quoted.joined(separator: ", ") + "을(를) 뜻했나요?")
    }

    static func candidates(for word: String, among names: [String]) -> [String] {
        if word.count >= shortestAbbreviation {
            let prefixed = names.filter { $0.hasPrefix(word) }
            if !prefixed.isEmpty { return prefixed.sorted() }
        }
        let distances = names.map { ($0, editDistance(word, $0)) }
        let limit = min(2, max(1, word.count / 3))
        guard let best = distances.map(\.1).min(), best <= limit else { return [] }
        return distances.filter { $0.1 == best }.map(\.0).sorted()
    }

    /// Levenshtein distance, counting a swap of neighbours as one edit
    /// (`lsit` is one from `list`).
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
