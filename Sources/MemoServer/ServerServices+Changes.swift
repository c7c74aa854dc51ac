import HTTPServer
import MemoKit

extension Request {
    /// The front end a request came through, as the undo history records
    /// it: the web page signs in with its session cookie, every other
    /// client sends a Bearer token (the access hook refused the rest).
    var changeOrigin: ChangeOrigin {
        headers["Authorization"] == nil ? .web : .api
    }
}

extension ServerServices {
    /// Applies `change` through MemoKit's one door (`Workspace.apply`) on
    /// the writer, as a step of the undo history made through the request's
    /// front end; `before` runs first in the same transaction (an
    /// `If-Match` check), `after` makes the answer's document there too.
    func apply<Change: ItemChange, Answer>(_ change: Change, for request: Request,
                                           before: (Workspace) throws -> Void = { _ in },
                                           answer: (Change.Outcome, Workspace) throws -> Answer) throws -> Answer {
        try write { workspace in
            try before(workspace)
            let (outcome, step) = try workspace.applyNamingStep(change, origin: request.changeOrigin)
            RequestReads.current?.undoStep = step
            return try answer(outcome, workspace)
        }
    }

    /// `apply` answering the change's outcome itself.
    func apply<Change: ItemChange>(_ change: Change, for request: Request,
                                   before: (Workspace) throws -> Void = { _ in }) throws -> Change.Outcome {
        try apply(change, for: request, before: before) { outcome, _ in outcome }
    }
}
