import MemoCore

/// One thing a person can do to an item, as a value: its input already
/// typed (dates parsed, tags cleaned by the store), ready to be applied by
/// any front end. The command line and the HTTP API only translate (argv or
/// JSON into a change, its outcome into text or JSON); what a change does
/// is written once, here and in the stores it calls.
///
/// `Workspace.apply` is the one door: it runs the change in one write
/// transaction with its undo step, whose triggers bump the items' revisions
/// and log the change for the event feed (`Revisions`, `ChangeLog`), and
/// returns the stored items with their new revisions.
public protocol ItemChange {
    /// What applying the change gives back: the stored item or items.
    associatedtype Outcome

    /// The change in words, as the undo history lists it when the front end
    /// has none of its own (the command line names a step as typed).
    var summary: String { get }

    /// Writes the change. Runs inside the step's transaction; throws to
    /// change nothing.
    func write(in workspace: Workspace) throws -> Outcome
}

extension Workspace {
    /// Applies `change` as one step of the undo history made through
    /// `origin`, named `description` (else the change's summary).
    @discardableResult
    public func apply<Change: ItemChange>(_ change: Change, origin: ChangeOrigin,
                                          describedAs description: String? = nil) throws -> Change.Outcome {
        try applyNamingStep(change, origin: origin, describedAs: description).outcome
    }

    /// `apply`, with the id of the undo step it recorded (nil when the
    /// change changed nothing, which leaves no step): a client undoes its
    /// own change by it, whatever others did since.
    public func applyNamingStep<Change: ItemChange>(_ change: Change, origin: ChangeOrigin,
                                                    describedAs description: String? = nil)
        throws -> (outcome: Change.Outcome, step: Int64?) {
        let history = try undoHistory()
        let outcome = try history.record(description ?? change.summary, origin: origin) { try change.write(in: self) }
        return (outcome, history.lastRecordedStep)
    }
}

/// A summary's words for the items it names: `3`, `3 4 7`.
func idWords(_ ids: [Int64]) -> String {
    ids.map(String.init).joined(separator: " ")
}

/// A title quoted for a summary, cut to a line of reasonable length.
func quotedTitle(_ title: String) -> String {
    let line = title.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return "“" + (line.count > 60 ? String(line.prefix(59)) + "…" : line) + "”"
}
