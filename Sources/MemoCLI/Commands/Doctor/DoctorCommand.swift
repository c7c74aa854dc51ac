import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `memoapp doctor`: what is wrong with the data home and how to fix it
/// (see `DoctorExamination`).
enum DoctorCommand {
    static func make() -> Command {
        Command(
            "doctor",
            abstract: Localized(en: "check the data home, the database and the voice library",
                                ko: "데이터 폴더, 데이터베이스, 음성 라이브러리 점검"),
            access: .alwaysRuns,
            discussion: Localized(
                en: "Checks: the data home exists and is private (0700, database 0600); the database opens, "
                    + "passes PRAGMA integrity_check and foreign_key_check and has every migration, and its tables, "
                    + "indexes, triggers and views are exactly those its migrations make; every stored value is in "
                    + "range (titles one line, times in the years 1 to 9999, timer figures, id counters); every voice "
                    + "memo's file is there and intact, with no file left over; no temporary file is left behind. "
                    + "Changes nothing. Exit status: 0 all is well, 1 problems found, 74 the database cannot be "
                    + "opened at all.",
                ko: "점검 항목: 데이터 폴더가 있고 본인 전용인지(0700, 데이터베이스 0600), 데이터베이스가 열리고 "
                    + "PRAGMA integrity_check와 foreign_key_check를 통과하며 모든 마이그레이션이 적용되었는지, 테이블, 인덱스, "
                    + "트리거, 뷰가 마이그레이션이 만드는 것과 정확히 같은지, 저장된 값이 범위 안에 있는지(제목은 한 줄, "
                    + "시각은 1~9999년, 타이머 값, id 카운터), 음성 메모마다 "
                    + "파일이 있고 온전하며 남는 파일이 없는지, 임시 파일이 남지 않았는지. 아무것도 바꾸지 않습니다. "
                    + "종료 코드: 0 모두 정상, 1 문제 있음, 74 데이터베이스를 전혀 열 수 없음."),
            body: { context, _ in try run(context) })
    }

    static func run(_ context: CommandContext) throws {
        // The voice check silences fd 2 for the codecs; the bar draws on the real one.
        let report = try CodecWarnings.silenced { realError in
            let bar = ProgressBar(context: context, label: context.text(en: "checking", ko: "점검하는 중"), descriptor: realError)
            return try bar.showing { DoctorExamination.run(home: context.home, progress: bar.update) }
        }
        try context.emit(json: WireFormat.doctor(report, in: context.language), text: text(report, context))
        context.exitStatus = report.isDatabaseUnusable ? ErrorReport.exitCode(for: .storage)
            : report.problemCount == 0 ? 0 : 1
    }

    /// A line per check (its word, title and summary), its problems with their
    /// fixes beneath, and a closing count.
    static func text(_ report: DoctorReport, _ context: CommandContext) -> TerminalText {
        let style = context.style
        let titleWidth = report.checks.map { TerminalText.displayWidth(context.text($0.title)) }.max() ?? 0
        var lines: [TerminalText] = [style.bold("memoapp doctor") + " — " + TerminalText(line: report.home)]
        for check in report.checks {
            let word: TerminalText
            switch check.status {
            case .ok: word = style.green(context.text(en: "ok     ", ko: "정상   "))
            case .problem: word = style.red(context.text(en: "PROBLEM", ko: "문제   "))
            case .skipped: word = style.yellow(context.text(en: "skipped", ko: "건너뜀 "))
            }
            let title = context.text(check.title)
            if let summary = check.summary.map(context.text) {
                let padding = String(repeating: " ", count: titleWidth - TerminalText.displayWidth(title))
                lines.append("\(word)  \(title)\(padding)  \(line: summary)")
            } else {
                lines.append("\(word)  \(title)")
            }
            for finding in check.findings {
                lines.append("         - " + TerminalText(line: context.text(finding.problem)))
                lines.append("           " + style.dim(TerminalText(line: context.text(en: "fix: ", ko: "해결: ")
                                                                        + context.text(finding.fix))))
            }
        }
        let count = report.problemCount
        lines.append(TerminalText(count == 0
            ? context.text(en: "All is well.", ko: "모두 정상입니다.")
            : context.text(en: count == 1 ? "1 problem found." : "\(count) problems found.", ko: "문제 \(count)개를 찾았습니다.")))
        return lines.joined(separator: "\n") + "\n"
    }
}
