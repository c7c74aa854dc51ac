import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp memo export [--format md] [--force] DIR`: every memo as its own
/// Markdown file, which `memo import` reads back as it was.
enum MemoExportCommand {
    static let format = OptionKey<String>("format", "md", help: Localized(en: "the files' format (only md so far)",
                                                                      ko: "파일 형식 (지금은 md만)"),
                                          decode: { text in
                                              guard text.lowercased() == MemoMarkdownExport.markdown.name else {
                                                  throw MemoError(.usage, en: "unknown format '\(text)': expected md",
                                                                  ko: "알 수 없는 형식 '\(text)': md여야 합니다")
                                              }
                                              return MemoMarkdownExport.markdown.name
                                          })
    static let force = Flag("force", help: Localized(en: "replace files of the same name in DIR",
                                                     ko: "DIR에 같은 이름의 파일이 있으면 바꿈"))
    static let folder = Argument<String>("DIR", kind: .path, help: Localized(en: "the folder to write into (made when missing)",
                                                                             ko: "쓸 폴더 (없으면 만듦)"))

    static let command = Command(
        "export", abstract: Localized(en: "write every memo as a Markdown file into DIR", ko: "모든 메모를 DIR에 Markdown 파일로 쓰기"),
        options: [format, force],
        positionals: [folder],
        discussion: Localized(
            en: """
                Each memo becomes DIR/ID-SLUG.md: front matter (title, tags, created, updated, pinned, uid), then \
                the text exactly as stored. `memo import` reads such files back unchanged (a file whose uid is \
                stored already is not added again). A file of the same name in DIR is replaced only with --force; \
                nothing is written when one would be refused. DIR may not be in the data home.
                """,
            ko: """
                메모마다 DIR/ID-SLUG.md 파일이 됩니다: 앞머리(title, tags, created, updated, pinned, uid) 다음에 \
                저장된 내용 그대로. `memo import`는 이 파일을 바뀐 것 없이 다시 읽습니다 (uid가 이미 있는 파일은 다시 \
                추가하지 않음). DIR에 같은 이름의 파일이 있으면 --force일 때만 바꾸며, 하나라도 거부되면 아무것도 \
                쓰지 않습니다. DIR은 데이터 폴더 안일 수 없습니다.
                """),
        body: { context, arguments in
            let result = try MemoMarkdownExport.export(to: arguments[folder], mayReplace: arguments[force],
                                                       from: context.workspace)
            let count = result.fileNames.count
            try context.emit(json: WireFormat.memoExport(result), text: context.text(
                en: "Wrote \(count) memo\(count == 1 ? "" : "s") into \(line: result.folder)",
                ko: "메모 \(count)개를 \(line: result.folder)에 썼습니다"))
        })
}
