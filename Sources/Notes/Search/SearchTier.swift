/// How well an item matches, best first: where its words are. Known from the
/// item alone, so ranking by it needs no other hit scored (see `NoteSearch`).
enum SearchTier: Int, CaseIterable {
    /// Every word in the title (with `.any`: some word in the title).
    case title
    /// Every word in the title or the tags, some only in the tags (`.any`:
    /// some word in the tags, none in the title).
    case tags
    /// Found, but not as above: some word only in the text or note (`.any`:
    /// only in the text or note).
    case body

    /// The tier of an item with these fields (folded by `TextMatcher.folded`;
    /// nil for an absent one), or nil when it does not hold the query.
    static func of(title: [UInt32]?, body: [UInt32]?, tags: [UInt32]?, matchers: [TextMatcher],
                   combination: SearchQuery.Combination) -> SearchTier? {
        func holds(_ field: [UInt32]?) -> [Bool] {
            guard let field else { return matchers.map { _ in false } }
            return matchers.map { $0.occurs(in: field) }
        }
        let inTitle = holds(title)
        let inTags = holds(tags)
        switch combination {
        case .all:
            if !inTitle.contains(false) { return .title }
            let inHead = zip(inTitle, inTags).map { $0 || $1 }
            if !inHead.contains(false) { return .tags }
            let inBody = holds(body)
            return zip(inHead, inBody).contains { !$0 && !$1 } ? nil : .body
        case .any:
            if inTitle.contains(true) { return .title }
            if inTags.contains(true) { return .tags }
            return holds(body).contains(true) ? .body : nil
        }
    }
}
