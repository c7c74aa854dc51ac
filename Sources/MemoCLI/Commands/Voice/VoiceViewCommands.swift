import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `voice list`, `voice show`, `voice peaks`, `voice waveform`: reading memos.
enum VoiceViewCommands {
    // MARK: - Declarations

    static let onlyTag = NotesArguments.tag(Localized(en: "only memos with this tag", ko: "이 태그가 있는 메모만"))
    static let peaksWidth = OptionKey<Int>("width", "N", range: 1...10_000_000,
                                           help: Localized(en: "at most N pixels over the whole memo", ko: "메모 전체를 N 픽셀 이하로"))
    static let samplesPerPixel = OptionKey<Int>("samples-per-pixel", "N", range: 1...Int(Int32.max),
                                                help: Localized(en: "frames per pixel (default 256)", ko: "픽셀당 프레임 (기본 256)"))
    static let bits = OptionKey<Int>("bits", "8|16", kind: .choice(["8", "16"]),
                                     help: Localized(en: "value resolution (default 16)", ko: "값의 해상도 (기본 16)")) { Int($0) ?? 16 }
    static let output = OptionKey<String>("output", "FILE.svg", kind: .path, required: true,
                                          help: Localized(en: "where to write ('-' is stdout)", ko: "저장할 파일 ('-'는 표준 출력)"))
    static let pictureFormat = OptionKey<String>("format", "svg", kind: .choice(["svg"]),
                                                 help: Localized(en: "format (the only one: svg; needed when FILE ends otherwise)",
                                                                 ko: "형식 (svg뿐; FILE이 다른 확장자로 끝날 때 필요)"))
    static let force = Flag("force", help: Localized(en: "replace an existing FILE", ko: "이미 있는 FILE을 바꿈"))
    static let pictureWidth = OptionKey<Int>("width", "PX", range: WaveformPicture.widths,
                                             help: Localized(en: "width (default 1200)", ko: "너비 (기본 1200)"))
    static let pictureHeight = OptionKey<Int>("height", "PX", range: WaveformPicture.heights,
                                              help: Localized(en: "height (default 200)", ko: "높이 (기본 200)"))

    static func makeList() -> Command {
        Command("list", abstract: Localized(en: "list voice memos: id, title, duration, format, size, date",
                                            ko: "음성 메모 목록: id, 제목, 길이, 형식, 크기, 날짜"),
                options: [onlyTag, NotesArguments.limit],
                body: runList)
    }

    static func runList(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try VoiceCommand.store(context)
        // The library is read whole either way (a row per memo, no audio): --limit
        // only stops the list.
        let memos = Array(try store.memos(taggedWith: arguments[onlyTag]).prefix(arguments[NotesArguments.limit] ?? Int.max))
        let text = memos.isEmpty
            ? TerminalText(context.text(en: "No voice memos.", ko: "음성 메모가 없습니다."))
            : VoiceCommand.table(memos, context)
        try context.emit(json: .array(memos.map { VoiceCommand.json($0, store: store) }), text: text)
    }

    static func makeShow() -> Command {
        Command("show", abstract: Localized(en: "all of a memo's metadata and its waveform in one line",
                                            ko: "메모의 모든 정보와 한 줄 파형"),
                positionals: [VoiceCommand.id],
                body: { context, arguments in
                    let store = try VoiceCommand.store(context)
                    let memo = try store.memo(id: arguments[VoiceCommand.id])
                    let width = max(10, context.terminalWidth ?? 80)
                    let waveform = BlockWaveform.line(peaks: try store.peaks(id: memo.id), width: width)
                    var json = VoiceCommand.json(memo, store: store)
                    if case let .object(members) = json { json = .object(members + [("waveform", .string(waveform))]) }
                    try context.emit(json: json, text: describe(memo, store: store, context) + "\n" + context.style.cyan(waveform))
                })
    }

    static func makePeaks() -> Command {
        Command("peaks", abstract: Localized(en: "waveform peaks as BBC audiowaveform JSON (version 2)",
                                             ko: "파형 피크를 BBC audiowaveform JSON(버전 2)으로"),
                options: [peaksWidth, samplesPerPixel, bits],
                positionals: [VoiceCommand.id],
                exclusiveOptions: [[peaksWidth, samplesPerPixel]],
                discussion: Localized(
                    en: "Always prints JSON. samples_per_pixel says what you got: never finer than what is stored.",
                    ko: "항상 JSON을 출력합니다. samples_per_pixel은 실제 값이며, 저장된 해상도보다 촘촘하지 않습니다."),
                body: { context, arguments in
                    let store = try VoiceCommand.store(context)
                    let memo = try store.memo(id: arguments[VoiceCommand.id])
                    let stored = try store.peaks(id: memo.id)
                    let peaks = arguments[peaksWidth].map { stored.resampled(toWidth: $0) }
                        ?? stored.resampled(toSamplesPerPixel: arguments[samplesPerPixel] ?? 256)
                    let document = PeaksDocument(peaks: peaks, sampleRate: memo.sampleRate, bits: arguments[bits] ?? 16)
                    // Written directly: an hour's peaks are a million numbers.
                    try context.writeDocument(document.jsonText)
                    try context.writeDocument("\n")
                })
    }

    static func makeWaveform() -> Command {
        Command("waveform", abstract: Localized(en: "draw the waveform as an SVG file", ko: "파형을 SVG 파일로 그리기"),
                options: [output, pictureFormat, force, pictureWidth, pictureHeight],
                positionals: [VoiceCommand.id],
                discussion: Localized(
                    en: "An existing FILE is replaced only with --force; FILE may not be in the data home, nor a "
                        + "folder, device or FIFO. With '-' the picture goes to stdout and nothing else is printed.",
                    ko: "이미 있는 FILE은 --force가 있을 때만 바꿉니다. FILE은 데이터 폴더 안이나 폴더, 장치, FIFO일 수 "
                        + "없습니다. '-'이면 그림을 표준 출력으로 보내고 다른 것은 출력하지 않습니다."),
                body: { context, arguments in
                    guard let given = arguments[output] else { preconditionFailure("--output is required") }
                    let destination = try OutputFile.choose(given, format: arguments[pictureFormat], among: [.svg],
                                                            home: context.home, mayReplace: arguments[force])
                    let store = try VoiceCommand.store(context)
                    let id = arguments[VoiceCommand.id]
                    let width = arguments[pictureWidth] ?? 1200
                    let height = arguments[pictureHeight] ?? 200
                    let svg = try store.waveformPicture(id: id, width: width, height: height)
                    if destination.isStandardOutput { return try context.writeDocument(svg) }
                    try destination.write(text: svg)
                    try context.emit(json: WireFormat.waveformPicture(id: id, output: given, width: width, height: height),
                                     text: context.text(en: "Wrote \(line: given)", ko: "\(line: given) 저장함"))
                })
    }

    static func describe(_ memo: VoiceMemo, store: VoiceStore, _ context: CommandContext) -> TerminalText {
        let peak = memo.peakLevel > 0 ? "\((memo.peakDecibels * 10).rounded() / 10) dBFS" : "silent"
        let rows: [(String, String, TerminalText)] = [
            ("Title", "제목", context.style.bold(TerminalText(line: memo.title))),
            ("ID", "ID", "\(memo.id)"),
            ("Duration", "길이", TerminalText(context.text(en: "\(VoiceCommand.duration(memo)) (\(memo.frames) frames)",
                                                           ko: "\(VoiceCommand.duration(memo)) (\(memo.frames)프레임)"))),
            ("Format", "형식", "\(line: memo.container), \(line: memo.encoding)"),
            ("Audio", "오디오", "\(memo.sampleRate) Hz, \(memo.channels) ch"),
            ("Size", "크기", TerminalText(ByteSize.text(memo.size))),
            ("Peak", "최대 레벨", TerminalText(peak)),
            ("Original", "원본", TerminalText(line: memo.originalName)),
            ("Imported", "가져온 시각", TerminalText(memo.importedAt.localMinute)),
            ("Updated", "수정 시각", TerminalText(memo.updatedAt?.localMinute ?? "—")),
            ("Tags", "태그", memo.tags.isEmpty ? "—" : TerminalText(line: memo.tags.joined(separator: ", "))),
            ("Checksum", "체크섬", "xxh3-128 \(memo.checksum)"),
            ("File", "파일", TerminalText(line: store.path(of: memo))),
        ]
        // Labels padded by display width: a Korean label takes two columns a letter.
        let width = rows.map { TerminalText.displayWidth(context.text(en: $0.0, ko: $0.1)) }.max() ?? 0
        return rows.map { en, ko, value in
            context.style.dim(TerminalText(context.text(en: en, ko: ko)).padded(toWidth: width)) + " " + value
        }.joined(separator: "\n")
    }
}
