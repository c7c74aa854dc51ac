import HTTPServer
import MemoAPI
import MemoCore
import MemoKit

/// `/api/v1/undo`: the data home's one undo history, shared by every front
/// end: a change made on the web page can be undone from the command line
/// and the other way round, each step saying where it came from.
extension MemoRoutes {
    static func addUndo(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/undo") { _ in
            let steps = try services.read { try $0.undoHistory().steps() }
            return .json(.array(steps.map(WireFormat.undoStep)))
        }
        router.action("/api/v1/undo", services) { _ in
            .json(WireFormat.undoStep(try services.write { try $0.undoHistory().undo() }))
        }
        router.action("/api/v1/undo/{id}", services) { request in
            guard let text = request.parameters["id"], text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let id = Int64(text), id >= 1 else {
                throw MemoError(.notFound, en: "the undo history has no such step", ko: "되돌리기 기록에 그런 단계가 없습니다")
            }
            return .json(WireFormat.undoStep(try services.write { try $0.undoHistory().undo(step: id) }))
        }
    }
}
