import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Notes
import VoiceMemos

/// `/api/v1/voice`: the command line's `voice` commands as routes, with the
/// audio itself served by byte range.
extension MemoRoutes {
    static let voiceWord = Localized(en: "voice memo", ko: "음성 메모")
    static func addVoice(to router: inout Router, _ services: ServerServices) {
        router.upload(.post, "/api/v1/voice", bodyLimit: services.maximumUpload, RouteDescription(
            "Upload audio as the raw body (any format libsndfile reads, or MP3)",
            query: [.init("title", DocumentSchema.string), .init("tag", DocumentSchema.string, "a tag", repeatable: true),
                    .init("filename", DocumentSchema.string, "the original name"),
                    .init("allow_duplicate", Describe.flag, "keep it though the same audio is stored")],
            headers: [Describe.idempotencyKey],
            // Any type: the audio is known by what it holds, not by its label.
            body: RouteDescription.Body("audio/*", audioBytes, or: ["application/octet-stream"]),
            answers: [Describe.json(201, "stored", DocumentSchema.ref("VoiceMemo"),
                                    headers: [Describe.etag, Describe.location, Describe.undoStep]),
                      Describe.json(409, "the same audio is stored already (allow_duplicate keeps it)",
                                    DocumentSchema.ref("Error")),
                      Describe.json(422, "not audio it can read", DocumentSchema.ref("Error"))]
        )) { request in
            try VoiceUpload(services: services, request: request)
        }
        router.route(.get, "/api/v1/voice", Describe.list("Voice memos, oldest first", "VoiceMemo",
                                                          query: [.init("tag", DocumentSchema.string, "a tag they hold")])) { request in
            let tag = try request.queryValue("tag").map(Tags.normalized(_:))
            let limit = try listLimit(request)
            let after = try Paging.voiceAfter(request) ?? 0
            return try services.read { workspace in
                let store = try workspace.voiceStore()
                // In id order, so the cursor is the last id. The store reads
                // the whole list (voice memos number in the hundreds, not millions).
                let memos = Array(try store.memos(taggedWith: tag).lazy.filter { $0.id > after }.prefix(limit))
                return Paging.linking(.json(.array(memos.map { WireFormat.voiceMemo($0) })), request,
                                      itemCount: memos.count, limit: limit) { memos.last.map { Paging.voiceCursor($0.id) } }
            }
        }
        router.route(.get, "/api/v1/voice/{id}", Describe.item("One voice memo", "VoiceMemo")) { request in
            let id = try request.itemID(.voice, services)
            return try services.read { workspace in
                let store = try workspace.voiceStore()
                return Items.response(WireFormat.voiceMemo(try store.memo(id: id)), for: request)
            }
        }
        router.json(.patch, "/api/v1/voice/{id}", Describe.change("Change a voice memo's title or tags", "VoiceMemo", body: voiceChangesSchema,
                                       isPost: false)) { request, body in
            let id = try request.itemID(.voice, services)
            let document = try JSONBody.object(body, allowedKeys: Set(voiceChangesSchema.propertyNames))
            let title = try document.optionalString("title")
            // The note tags' rules, as the command line's `voice edit` cleans them.
            let tags = try document.tagChanges(clean: Tags.normalized(_:))
            guard title != nil || !tags.isEmpty else {
                throw MemoError(.usage, en: "nothing to change: give title, tags, add_tags or remove_tags",
                                ko: "바꿀 것이 없습니다: title, tags, add_tags, remove_tags 중 하나 이상을 주세요")
            }
            return try services.apply(EditVoiceMemo(id: id, title: title, tags: tags), for: request, before: { workspace in
                try checkVoicePrecondition(request, id: id, workspace)
            }, answer: { memo, _ in Items.response(WireFormat.voiceMemo(memo), for: request) })
        }
        router.route(.delete, "/api/v1/voice/{id}",
                     Describe.change("Remove a voice memo and its audio", "VoiceMemo",
                                     answer: DocumentSchema.removed("VoiceMemo"), isPost: false)) { request in
            let id = try request.itemID(.voice, services)
            return try services.write { workspace in
                try checkVoicePrecondition(request, id: id, workspace)
                let (removed, step) = try workspace.applyNamingStep(RemoveVoiceMemos(ids: [id]), origin: request.changeOrigin)
                RequestReads.current?.undoStep = step
                return .json(WireFormat.removed(removed.map { WireFormat.voiceMemo($0) }))
            }
        }
        router.route(.get, "/api/v1/voice/{id}/audio", RouteDescription(
            "The stored audio; one byte range (Range) gives 206, or 416 past its end",
            headers: [.init("Range", DocumentSchema.string, "bytes=first-last, bytes=first- or bytes=-count"),
                      Describe.ifNoneMatch],
            answers: audioAnswers
        )) { request in
            let id = try request.itemID(.voice, services)
            let (memo, path) = try services.read { workspace -> (VoiceMemo, String) in
                let store = try workspace.voiceStore()
                let memo = try store.memo(id: id)
                return (memo, store.path(of: memo))
            }
            let tag = "\"" + memo.checksum + "\""
            if let wanted = request.headers["If-None-Match"], EntityTag.list(wanted, names: tag) {
                return Response(status: 304, headers: ["ETag": tag])
            }
            var response = Response.file(try OpenFile(path: path), contentType: audioType(memo.container), for: request)
            if response.status == 416 {
                // In the error envelope, as every refusal of the API is
                // (HTTPServer's own 416 is plain text), with its Content-Range.
                throw HTTPError(status: 416, en: "the range starts past the end of the audio (\(memo.size) bytes)",
                                ko: "범위가 오디오의 끝(\(memo.size)바이트) 뒤에서 시작합니다",
                                headers: ["Content-Range": response.headers["Content-Range"] ?? "bytes */\(memo.size)",
                                          "Accept-Ranges": "bytes"])
            }
            response.headers.set("ETag", tag)
            return response
        }
        router.route(.get, "/api/v1/voice/{id}/peaks", RouteDescription(
            "Waveform peaks, audiowaveform's JSON v2",
            query: [.init("width", Describe.minimumInteger(1, maximum: 10_000_000),
                          "the number of peaks (default: one per 256 samples)")],
            answers: [Describe.json(200, "the peaks", DocumentSchema.type("object")),
                      Describe.json(404, "no such voice memo", DocumentSchema.ref("Error"))]
        )) { request in
            let id = try request.itemID(.voice, services)
            let width = try request.queryInt("width", in: 1...10_000_000)
            let document = try services.read { workspace -> PeaksDocument in
                let store = try workspace.voiceStore()
                let memo = try store.memo(id: id)
                let stored = try store.peaks(id: id)
                let peaks = width.map { stored.resampled(toWidth: $0) } ?? stored.resampled(toSamplesPerPixel: 256)
                return PeaksDocument(peaks: peaks, sampleRate: memo.sampleRate)
            }
            return .bytes(Array(document.jsonText.utf8), contentType: "application/json")
        }
        router.route(.get, "/api/v1/voice/{id}/waveform.svg", RouteDescription(
            "The waveform as a picture",
            query: [.init("width", Describe.minimumInteger(WaveformPicture.widths.lowerBound,
                                                           maximum: WaveformPicture.widths.upperBound), "default 1200"),
                    .init("height", Describe.minimumInteger(WaveformPicture.heights.lowerBound,
                                                            maximum: WaveformPicture.heights.upperBound), "default 200")],
            answers: [RouteDescription.Answer(200, "SVG", mediaType: "image/svg+xml"),
                      Describe.json(404, "no such voice memo", DocumentSchema.ref("Error"))]
        )) { request in
            let id = try request.itemID(.voice, services)
            let width = try request.queryInt("width", in: WaveformPicture.widths) ?? 1200
            let height = try request.queryInt("height", in: WaveformPicture.heights) ?? 200
            let svg = try services.read { try $0.voiceStore().waveformPicture(id: id, width: width, height: height) }
            var response = Response.text(svg, contentType: "image/svg+xml")
            // A picture of the user's data, never a document that runs anything.
            response.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
            return response
        }
        router.json(.post, "/api/v1/voice/{id}/trim", Describe.change("Keep start to end (seconds) of the audio", "VoiceMemo",
                                       body: trimSchema)) { request, body in
            try services.idempotency.perform(request, body: body) {
                let id = try request.itemID(.voice, services)
                let document = try JSONBody.object(body, allowedKeys: Set(trimSchema.propertyNames))
                let start = try document.double("start")
                let end = try document.double("end")
                // Its own connection, as an upload: the audio is rewritten before the commit.
                let workspace = try dedicatedWorkspace(services)
                try checkVoicePrecondition(request, id: id, workspace)
                let (memo, step) = try workspace.applyNamingStep(TrimVoiceMemo(id: id, start: start, end: end),
                                                                 origin: request.changeOrigin)
                RequestReads.current?.undoStep = step
                services.afterCommit?()
                return Items.response(WireFormat.voiceMemo(memo), for: request)
            }
        }
    }

    /// Refuses a change whose `If-Match` names another revision of voice
    /// memo `id` than the stored one (412 with the current memo).
    static func checkVoicePrecondition(_ request: Request, id: Int64, _ workspace: Workspace) throws {
        guard request.headers["If-Match"] != nil else { return }
        let store = try workspace.voiceStore()
        try Items.checkPrecondition(request, current: WireFormat.voiceMemo(store.memo(id: id)))
    }

    /// The media type of a stored container (its name as `AudioFormat`
    /// gives it). WAVE_FORMAT_EXTENSIBLE is WAV to a player; CAF has its
    /// own type (Apple's `audio/x-caf`).
    static func audioType(_ container: String) -> String {
        switch container.lowercased() {
        case "wav", "wavex", "w64", "rf64": return "audio/wav"
        case "flac": return "audio/flac"
        case "ogg", "opus": return "audio/ogg"
        case "mp3", "mpeg": return "audio/mpeg"
        case "aiff": return "audio/aiff"
        // RFC 4337's type for audio in MP4 (.m4a), what Safari records and plays.
        case "mp4": return "audio/mp4"
        case "caf": return "audio/x-caf"
        case "au": return "audio/basic"
        default: return "application/octet-stream"
        }
    }

    static let voiceChangesSchema = DocumentSchema.changes([("title", DocumentSchema.nullable(DocumentSchema.string))]
                                                           + tagChangeMembers)
    static let trimSchema = DocumentSchema.object([("start", DocumentSchema.number), ("end", DocumentSchema.number)])

    static let audioAnswers: [RouteDescription.Answer] = [
        RouteDescription.Answer(200, "the whole file", mediaType: "audio/*", schema: audioBytes,
                                headers: [Describe.etag]),
        RouteDescription.Answer(206, "the range asked for", mediaType: "audio/*", schema: audioBytes,
                                headers: [(name: "Content-Range", schema: DocumentSchema.string, isRequired: true)]),
        RouteDescription.Answer(304, "not modified", headers: [Describe.etag]),
        Describe.json(404, "no such voice memo", DocumentSchema.ref("Error")),
        Describe.json(416, "a range that starts past the end", DocumentSchema.ref("Error"),
                      headers: [(name: "Content-Range", schema: DocumentSchema.string, isRequired: true)]),
    ]
    static let audioBytes = JSON.object([("type", .string("string")), ("format", .string("binary"))])
}
