import MemoCore

/// A memo as a Markdown file, as `memo export --format md` writes it and
/// `memo import` reads it back: a front matter block of the memo's fields,
/// then the text exactly as stored (no line end added or taken away).
///
///     ---
///     title: "장보기"
///     tags: ["home", "errand"]
///     created: 2026-11-29T13:24:04.1234567Z
///     updated: 2026-11-29T13:30:00Z
///     pinned: false
///     uid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77
///     ---
///     The text…
///
/// The values are YAML a static site generator or Obsidian reads (strings
/// and lists in JSON's syntax, which YAML's flow style includes), and exact:
/// times carry every digit the store has, so an import restores them bit for
/// bit. The `uid` key is what marks a file as memoapp's: a front matter
/// without one is a foreign file's and stays part of that memo's text.
public enum MemoMarkdown {
    /// The keys memoapp writes, in the order it writes them.
    public static let keys = ["title", "tags", "created", "updated", "pinned", "uid"]

    /// The whole file of `memo`.
    public static func document(of memo: Memo) -> String {
        var out = "---\ntitle: "
        if let title = memo.title { JSON.writeEscaped(title, to: &out) } else { out += "null" }
        out += "\ntags: [" + memo.tags.map { tag in
            var quoted = ""
            JSON.writeEscaped(tag, to: &quoted)
            return quoted
        }.joined(separator: ", ") + "]"
        out += "\ncreated: " + memo.createdAt.exactRFC3339
        out += "\nupdated: " + memo.updatedAt.exactRFC3339
        out += "\npinned: " + (memo.isPinned ? "true" : "false")
        out += "\nuid: " + memo.uid
        out += "\n---\n"
        return out + memo.text
    }

    /// `<id>-<slug>.md`: the id keeps names apart (and in order), the slug of
    /// the title (or of the first line, for a memo without one) says which
    /// memo it is.
    public static func fileName(id: Int64, title: String?, preview: String) -> String {
        "\(id)-\(slug(title ?? preview)).md"
    }

    /// Up to `slugLength` characters of `text` safe in a file name on any
    /// system: letters (any script, ASCII ones in lower case), digits and
    /// single `-` for everything else, none at either end; `memo` when
    /// nothing is left. No slash, dot, control or format character, space
    /// or quote can pass, so a name made from it stays in its folder and
    /// needs no quoting in a shell.
    public static func slug(_ text: String) -> String {
        var slug = ""
        var bytes = 0
        var pendingDash = false
        for character in text {
            guard isWordCharacter(character) else {
                pendingDash = !slug.isEmpty
                continue
            }
            let kept = character.isASCII ? Character(character.lowercased()) : character
            let width = String(kept).utf8.count + (pendingDash ? 1 : 0)
            // Whole characters only, and far below the 255 bytes a name may have.
            if slug.count + (pendingDash ? 2 : 1) > slugLength || bytes + width > slugBytes { break }
            if pendingDash { slug.append("-") }
            slug.append(kept)
            bytes += width
            pendingDash = false
        }
        return slug.isEmpty ? "memo" : slug
    }

    /// The most characters of a slug.
    public static let slugLength = 60
    /// The most UTF-8 bytes of a slug (Hangul takes three a character).
    public static let slugBytes = 120

    // MARK: - Private

    /// A letter or digit, with any marks it carries (한, é, ٣), and nothing
    /// else in the same character (no joiner, no direction override).
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first,
              first.properties.isAlphabetic || first.properties.numericType != nil else { return false }
        return character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }
}
