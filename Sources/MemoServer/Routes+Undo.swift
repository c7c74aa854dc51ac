import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `/api/v1/undo`: the data home's one undo history, shared by every front
/// end: a change made on the web page can be undone from the command line
/// and the other way round, each step saying where it came from.
extension MemoRoutes {
    static func addUndo(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/undo", Describe.list("The undo history, newest first, each step with its origin",
                                                         "UndoStep", paged: false)) { _ in
            let steps = try services.read { try $0.undoHistory().steps() }
            return .json(.array(steps.map(WireFormat.undoStep)))
        }
        router.action("/api/v1/undo", services, Describe.action(
            "Revert the newest step, whoever made it", DocumentSchema.ref("UndoStep"),
            conflicts: "no step, or what it changed was changed since outside the history")) { _ in
            .json(WireFormat.undoStep(try services.write { try $0.undoHistory().undo() }))
        }
        router.action("/api/v1/undo/{id}", services, undoStepDescription) { request in
            guard let text = request.parameters["id"], text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let id = Int64(text), id >= 1 else {
                throw MemoError(.notFound, en: "the undo history has no such step", ko: "되돌리기 기록에 그런 단계가 없습니다")
            }
            return .json(WireFormat.undoStep(try services.write { try $0.undoHistory().undo(step: id) }))
        }
    }
}

extension MemoRoutes {
    static let undoStepDescription: RouteDescription = {
        var about = Describe.action("Revert one step when no later step touched its items", DocumentSchema.ref("UndoStep"),
                                    conflicts: "a later step touched its items (named in the message)")
        about.path = [.init("id", Describe.minimumInteger(1, maximum: Int(Int64.max)), "the step's id")]
        about.answers.append(Describe.json(404, "the history holds no such step", DocumentSchema.ref("Error")))
        return about
    }()
}
