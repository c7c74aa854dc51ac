import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `GET /api/v1/export`, `POST /api/v1/import`, `GET /api/v1/doctor`: the
/// application layer's use cases, as the command line runs them. All three
/// are slow routes (see HandlerPool): they read or write the whole data home.
extension MemoRoutes {
    static func addTransfer(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/export", RouteDescription(
            "The export document, sent while it is written",
            answers: [Describe.json(200, "docs/json.md's export", DocumentSchema.type("object"),
                                    headers: [(name: "Content-Disposition", schema: DocumentSchema.string, isRequired: true)])]
        ), slow: true) { _ in
            // A connection of its own: the export reads everything in one
            // snapshot, sent while it is written (see ExportStream). Rows
            // inserted by hand get their uids here, before the response
            // starts: a stream that waited that long could time out.
            // Each export holds a thread and a read snapshot (which keeps
            // the WAL from being reset) for as long as its client takes to
            // read it: a few at a time, so clients that never read cannot
            // use up the threads or grow the WAL without end.
            guard let slot = services.exportSlots.take() else {
                throw HTTPError(status: 503, en: "too many exports are being sent; try again shortly",
                                ko: "내보내기를 너무 많이 보내는 중입니다. 잠시 뒤에 다시 시도하세요",
                                headers: ["Retry-After": "5"])
            }
            let workspace = try dedicatedWorkspace(services)
            try ExportDocument.giveMissingUIDs(connection: workspace.database())
            let stream = try ExportStream(workspace, slot: slot)
            var response = Response.stream(contentType: "application/json") { buffer in try stream.read(into: buffer) }
            // A file named by its day, for a browser's download (the page's
            // Export link) and `curl -OJ`, in the server's time zone as the
            // to-dos' local dates are.
            let day = SystemLocalCalendar().date(at: services.clock.now())
            response.headers.set("Content-Disposition", "attachment; filename=\"memoapp-export-\(day).json\"")
            return response
        }
        // As large as an audio upload may be: the document goes to disk, not memory.
        router.upload(.post, "/api/v1/import", bodyLimit: services.maximumUpload, RouteDescription(
            "Import an export document", headers: [Describe.idempotencyKey],
            body: RouteDescription.Body("application/json", DocumentSchema.type("object")),
            answers: [Describe.json(200, "what was imported", DocumentSchema.type("object")),
                      Describe.json(422, "not an export document, or one with values memoapp cannot take",
                                    DocumentSchema.ref("Error"))])) { request in
            try ImportUpload(services: services, request: request)
        }
        router.route(.get, "/api/v1/doctor", RouteDescription(
            "Examine the data home, as memoapp doctor",
            answers: [Describe.json(200, "docs/json.md's doctor report", DocumentSchema.type("object"))]),
            slow: true) { request in
            .json(WireFormat.doctor(DoctorExamination.run(home: services.home), in: request.language))
        }
    }

    /// A workspace on a connection of its own, for use cases that run long
    /// or copy files before they write (they must not hold the pool's writer).
    static func dedicatedWorkspace(_ services: ServerServices) throws -> Workspace {
        // The request's shared snapshot is not held through such work.
        services.endRequestReads()
        return Workspace(home: services.home, connection: try MemoDatabase.connect(services.home.databasePath), clock: services.clock)
    }
}
