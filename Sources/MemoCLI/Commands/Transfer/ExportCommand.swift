import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp export [--output FILE]`: everything in the data home as one JSON
/// document (see `ExportDocument`), to stdout or to a file written whole.
enum ExportCommand {
    static let output = OptionKey<String>("output", short: "o", "FILE", kind: .path,
                                          help: Localized(en: "write to FILE (replaced whole) instead of stdout",
                                                          ko: "표준 출력 대신 FILE에 쓰기 (통째로 바꿈)"))

    static func make() -> Command {
        Command(
            "export",
            abstract: Localized(en: "write everything (but the audio) as one JSON document",
                                ko: "모든 데이터(오디오 제외)를 JSON 문서 하나로 내보내기"),
            options: [output],
            discussion: Localized(
                en: "The document holds to-dos, memos, voice memo details and waveforms, timers with their spans "
                    + "and laps, the onboarding state and the schema version. Audio files are not in it: each voice "
                    + "memo names its file and checksum, and 'memoapp import' finds the audio in a folder "
                    + "(--audio DIR). Times are RFC 3339 with the digits needed to restore them exactly. "
                    + "With --output nothing is printed; add --json for a summary.",
                ko: "문서에는 할 일, 메모, 음성 메모 정보와 파형, 구간과 랩을 포함한 타이머, 온보딩 상태, 스키마 버전이 "
                    + "들어갑니다. 오디오 파일은 들어가지 않습니다. 음성 메모마다 파일 이름과 체크섬이 적혀 있어 "
                    + "'memoapp import'가 폴더(--audio DIR)에서 오디오를 찾습니다. 시각은 정확히 되살릴 수 있는 자릿수의 "
                    + "RFC 3339입니다. --output을 쓰면 아무것도 출력하지 않으며, --json을 더하면 요약을 출력합니다."),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let document = try ExportDocument.make(from: context.workspace)
        let text = document.prettySerialized
        guard let output = arguments[output], output != "-" else {
            // The document is JSON already: --json changes nothing here.
            try context.writeDocument(text)
            return
        }
        try AtomicFile.write(text, to: output)
        if context.isJSON {
            try context.emit(json: WireFormat.exportSummary(output: output, bytes: text.utf8.count, document: document),
                         text: "")
        }
    }
}
