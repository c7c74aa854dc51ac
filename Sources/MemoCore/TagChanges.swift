/// A change of an item's tags, as `todo edit`, `memo edit` and `voice edit`
/// and the API's PATCHes give it: a whole new list, or tags added and tags
/// taken away. Pure list arithmetic on tags each store has already cleaned by
/// its own rules; tags that differ only in case are the same tag (as
/// `Tags.normalized` compares them).
public struct TagChanges: Sendable, Equatable {
    /// The new list, replacing the old one; nil keeps the old one.
    public var replacement: [String]?
    /// Tags to add after the others, when not there yet.
    public var added: [String]
    /// Tags to take away (any case); taking away an absent tag is no error.
    public var removed: [String]

    /// No change by default.
    public init(replacement: [String]? = nil, added: [String] = [], removed: [String] = []) {
        self.replacement = replacement
        self.added = added
        self.removed = removed
    }

    /// True when applying the changes could not change anything.
    public var isEmpty: Bool {
        replacement == nil && added.isEmpty && removed.isEmpty
    }

    /// The same changes with every tag passed through `clean` (a store's own
    /// rules, which throw on a bad tag).
    public func cleaned(by clean: ([String]) throws -> [String]) rethrows -> TagChanges {
        TagChanges(replacement: try replacement.map(clean), added: try clean(added), removed: try clean(removed))
    }

    /// `tags` after the change: the replacement (or `tags`) without the
    /// removed ones, then the added ones not already present; each tag once.
    /// An added tag is added even when also removed (`--tag a --untag a`
    /// keeps `a`), as `todo edit` has always done.
    public func applied(to tags: [String]) -> [String] {
        let removedKeys = Set(removed.map { $0.lowercased() })
        var result: [String] = []
        var present = Set<String>()
        for tag in replacement ?? tags where !removedKeys.contains(tag.lowercased()) {
            if present.insert(tag.lowercased()).inserted { result.append(tag) }
        }
        for tag in added where present.insert(tag.lowercased()).inserted {
            result.append(tag)
        }
        return result
    }
}
