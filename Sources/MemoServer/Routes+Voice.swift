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
        router.upload(.post, "/api/v1/voice", bodyLimit: services.maximumUpload) { request in
            try VoiceUpload(services: services, request: request)
        }
        router.route(.get, "/api/v1/voice") { request in
            let tag = try request.queryValue("tag").map(Tags.normalized(_:))
            let limit = try listLimit(request)
            let after = try Paging.voiceAfter(request) ?? 0
            return try services.read { workspace in
                let store = try workspace.voiceStore()
                // In id order, so the cursor is the last id. The store reads
                // the whole list (voice memos number in the hundreds, not millions).
                let memos = Array(try store.memos(taggedWith: tag).lazy.filter { $0.id > after }.prefix(limit))
                return Paging.linking(.json(.array(memos.map { WireFormat.voiceMemo($0, in: store) })), request,
                                      itemCount: memos.count, limit: limit) { memos.last.map { Paging.voiceCursor($0.id) } }
            }
        }
        router.route(.get, "/api/v1/voice/{id}") { request in
            let id = try request.itemID(.voice, services)
            return try services.read { workspace in
                let store = try workspace.voiceStore()
                return Items.response(WireFormat.voiceMemo(try store.memo(id: id), in: store), for: request)
            }
        }
        router.collect(.patch, "/api/v1/voice/{id}", bodyLimit: JSONBody.limit) { request, body in
            let id = try request.itemID(.voice, services)
            let document = try JSONBody.object(body, allowedKeys: JSONBody.tagKeys.union(["title"]))
            let title = try document.optionalString("title")
            // The note tags' rules, as the command line's `voice edit` cleans them.
            let tags = try document.tagChanges(clean: Tags.normalized(_:))
            guard title != nil || !tags.isEmpty else {
                throw MemoError(.usage, en: "nothing to change: give title, tags, add_tags or remove_tags",
                                ko: "바꿀 것이 없습니다: title, tags, add_tags, remove_tags 중 하나 이상을 주세요")
            }
            return try services.apply(EditVoiceMemo(id: id, title: title, tags: tags), for: request, before: { workspace in
                try checkVoicePrecondition(request, id: id, workspace)
            }, answer: { memo, workspace in
                Items.response(WireFormat.voiceMemo(memo, in: try workspace.voiceStore()), for: request)
            })
        }
        router.route(.delete, "/api/v1/voice/{id}") { request in
            let id = try request.itemID(.voice, services)
            return try services.write { workspace in
                try checkVoicePrecondition(request, id: id, workspace)
                let store = try workspace.voiceStore()
                let (removed, step) = try workspace.applyNamingStep(RemoveVoiceMemos(ids: [id]), origin: request.changeOrigin)
                RequestReads.current?.undoStep = step
                return .json(WireFormat.removed(removed.map { WireFormat.voiceMemo($0, in: store) }))
            }
        }
        router.route(.get, "/api/v1/voice/{id}/audio") { request in
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
            response.headers.set("ETag", tag)
            return response
        }
        router.route(.get, "/api/v1/voice/{id}/peaks") { request in
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
        router.route(.get, "/api/v1/voice/{id}/waveform.svg") { request in
            let id = try request.itemID(.voice, services)
            let width = try request.queryInt("width", in: WaveformPicture.widths) ?? 1200
            let height = try request.queryInt("height", in: WaveformPicture.heights) ?? 200
            let svg = try services.read { try $0.voiceStore().waveformPicture(id: id, width: width, height: height) }
            var response = Response.text(svg, contentType: "image/svg+xml")
            // A picture of the user's data, never a document that runs anything.
            response.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
            return response
        }
        router.collect(.post, "/api/v1/voice/{id}/trim", bodyLimit: JSONBody.limit) { request, body in
            try services.idempotency.perform(request, body: body) {
                let id = try request.itemID(.voice, services)
                let document = try JSONBody.object(body, allowedKeys: ["start", "end"])
                let start = try document.double("start")
                let end = try document.double("end")
                // Its own connection, as an upload: the audio is rewritten before the commit.
                let workspace = try dedicatedWorkspace(services)
                try checkVoicePrecondition(request, id: id, workspace)
                let (memo, step) = try workspace.applyNamingStep(TrimVoiceMemo(id: id, start: start, end: end),
                                                                 origin: request.changeOrigin)
                RequestReads.current?.undoStep = step
                services.afterCommit?()
                return Items.response(WireFormat.voiceMemo(memo, in: try workspace.voiceStore()), for: request)
            }
        }
    }

    /// Refuses a change whose `If-Match` names another revision of voice
    /// memo `id` than the stored one (412 with the current memo).
    static func checkVoicePrecondition(_ request: Request, id: Int64, _ workspace: Workspace) throws {
        guard request.headers["If-Match"] != nil else { return }
        let store = try workspace.voiceStore()
        try Items.checkPrecondition(request, current: WireFormat.voiceMemo(store.memo(id: id), in: store))
    }

    /// The media type of a stored container.
    static func audioType(_ container: String) -> String {
        switch container.lowercased() {
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        case "ogg", "opus": return "audio/ogg"
        case "mp3", "mpeg": return "audio/mpeg"
        case "aiff": return "audio/aiff"
        // RFC 4337's type for audio in MP4 (.m4a), what Safari records and plays.
        case "mp4": return "audio/mp4"
        case "caf": return "audio/x-caf"
        default: return "application/octet-stream"
        }
    }
}
