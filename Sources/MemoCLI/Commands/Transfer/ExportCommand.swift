import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp export [--output FILE]`: everything in the data home as one JSON
/// document (see `ExportDocument`), to stdout or to a file written whole.
enum ExportCommand {
    static let output = OptionKey<String>("output", short: "o", "FILE", kind: .path,
                                          help: Localized(en: "write to FILE instead of stdout ('-' is stdout)",
                                                          ko: "표준 출력 대신 FILE에 쓰기 ('-'는 표준 출력)"))
    static let format = OptionKey<String>("format", "json", kind: .choice(["json"]),
                                          help: Localized(en: "format (the only one: json; needed when FILE ends otherwise)",
                                                          ko: "형식 (json뿐; FILE이 다른 확장자로 끝날 때 필요)"))
    static let force = Flag("force", help: Localized(en: "replace an existing FILE", ko: "이미 있는 FILE을 바꿈"))

    static func make() -> Command {
        Command(
            "export",
            abstract: Localized(en: "write everything (but the audio) as one JSON document",
                                ko: "모든 데이터(오디오 제외)를 JSON 문서 하나로 내보내기"),
            options: [output, format, force],
            discussion: Localized(
                en: "The document holds to-dos, memos, voice memo details and waveforms, timers with their spans "
                    + "and laps, the onboarding state and the schema version. Audio files are not in it: each voice "
                    + "memo names its file and checksum, and 'memoapp import' finds the audio in a folder "
                    + "(--audio DIR). Times are RFC 3339 with the digits needed to restore them exactly. "
                    + "With --output nothing is printed; add --json for a summary. An existing FILE is replaced "
                    + "only with --force; FILE may not be in the data home, nor a folder, device or FIFO.",
                ko: "문서에는 할 일, 메모, 음성 메모 정보와 파형, 구간과 랩을 포함한 타이머, 온보딩 상태, 스키마 버전이 "
                    + "들어갑니다. 오디오 파일은 들어가지 않습니다. 음성 메모마다 파일 이름과 체크섬이 적혀 있어 "
                    + "'memoapp import'가 폴더(--audio DIR)에서 오디오를 찾습니다. 시각은 정확히 되살릴 수 있는 자릿수의 "
                    + "RFC 3339입니다. --output을 쓰면 아무것도 출력하지 않으며, --json을 더하면 요약을 출력합니다. "
                    + "이미 있는 FILE은 --force가 있을 때만 바꿉니다. FILE은 데이터 폴더 안이나 폴더, 장치, FIFO일 수 없습니다."),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        // The destination is checked before the document is made (which may
        // give hand-inserted rows their uids): a refused one changes nothing.
        let destination = try OutputFile.choose(arguments[output] ?? "-", format: arguments[format], among: [.json],
                                                home: context.home, mayReplace: arguments[force])
        let workspace = context.workspace
        let connection = try workspace.database()
        let exportedAt = workspace.clock.now()
        guard !destination.isStandardOutput else {
            // The document is JSON already: --json changes nothing here.
            try ExportDocument.write(connection: connection, exportedAt: exportedAt) { try context.writeDocument($0) }
            return
        }
        var counts: ExportCounts?
        let bytes = try destination.write { descriptor in
            counts = try ExportDocument.write(connection: connection, exportedAt: exportedAt) { piece in
                var piece = piece
                try piece.withUTF8 { buffer in
                    guard let start = buffer.baseAddress else { return }
                    try FileSystem.writeAll(descriptor, start, count: buffer.count, path: destination.given)
                }
            }
        }
        if context.isJSON, let counts {
            try context.emit(json: WireFormat.exportSummary(output: destination.given, bytes: Int(bytes), counts: counts),
                             text: "")
        }
    }
}
