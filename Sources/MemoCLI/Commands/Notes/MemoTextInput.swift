import CommandLineKit
import MemoCore
import MemoKit
#if canImport(Glibc)
import Glibc
#endif

/// Where `memo add` and `memo edit` get text when it is not on the command
/// line: standard input when it is not a terminal, else the user's editor.
enum MemoTextInput {
    /// Standard input to its end, which must be UTF-8 (kept byte for byte).
    static func readStandardInput(_ context: CommandContext) throws -> String {
        try decode(context.readAllInput(), source: Localized(en: "standard input", ko: "표준 입력"))
    }

    /// Opens `$VISUAL`, else `$EDITOR`, else `vi` on a temporary file holding
    /// `initialText`, and hands what the user saved to `save`. The file lives
    /// in the data home (mode 0600; memoapp writes nowhere else) and is
    /// removed once `save` has stored it. When `save` fails (the memo changed
    /// meanwhile, a text too long, a full disk), the file stays and the error
    /// names it, so that what the user wrote is never lost.
    /// The file ends with a line break, as a text file does (so a line the
    /// editor, or `cat >>`, appends starts a line of its own); when
    /// `initialText` had none, one final line break is dropped from the result.
    static func edit<Result>(_ initialText: String, _ context: CommandContext,
                             save: (String) throws -> Result) throws -> Result {
        let editor = ["VISUAL", "EDITOR"].lazy.compactMap { context.environment[$0] }.first { !$0.isEmpty } ?? "vi"
        try context.home.create()  // the editor's file goes in the data home
        var template = Array((context.home.path + "/\(EditorFileName.prefix)\(getpid())-XXXXXX.txt").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else {
            throw MemoError(.storage, en: "cannot make a temporary file in \(context.home.path)",
                            ko: "\(context.home.path)에 임시 파일을 만들 수 없습니다")
        }
        let path = String(cString: template)
        var keepsFile = false
        defer { if !keepsFile { unlink(path) } }
        let hasFinalLineBreak = initialText.isEmpty || initialText.utf8.last == 0x0A
        var bytes = Array(initialText.utf8) + (hasFinalLineBreak ? [] : [0x0A])
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)

        try context.flush()
        // Through the shell, as git does, so EDITOR may hold arguments ("code -w").
        let status = try ChildProgram.run(["/bin/sh", "-c", editor + " \"$1\"", "sh", path],
                                          name: Localized(en: "the editor", ko: "편집기"))
        guard status == 0 else {
            throw MemoError(.internalFailure, en: "the editor (\(editor)) exited with status \(status); nothing changed",
                            ko: "편집기(\(editor))가 상태 \(status)로 끝났습니다. 아무것도 바꾸지 않았습니다")
        }
        // Read back as every input file is: an editor may have left anything
        // under that name, and a FIFO must not hang the command.
        bytes = try InputFile.read(path).bytes
        if bytes.last == 0x0A, !hasFinalLineBreak || initialText.isEmpty { bytes.removeLast() }
        let text = try decode(bytes, source: Localized(en: "the edited file", ko: "편집한 파일"))
        do {
            return try save(text)
        } catch {
            keepsFile = true
            let failure = Failure(error)
            throw MemoError(failure.kind, Localized(
                en: failure.message.en + ". What you wrote is kept in \(path)",
                ko: failure.message.ko + ". 작성한 내용은 \(path)에 남겨 두었습니다"), hint: failure.hint)
        }
    }

    // MARK: - Private

    /// Text must be valid UTF-8: anything else would be changed on the way in.
    static func decode(_ bytes: [UInt8], source: Localized) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw MemoError(.badInput, en: "\(source.en) is not UTF-8 text; nothing was stored",
                            ko: "\(source.ko)이 UTF-8 텍스트가 아닙니다. 아무것도 저장하지 않았습니다")
        }
        return text
    }
}
