import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp restore DIR [--force]`: brings a backup back into the data home
/// (see `VerifiedBackup` for the checks and `Restorer` for the order).
///
/// Runs before onboarding too: a new machine restores before anything else,
/// and the backup carries its own onboarding state.
enum RestoreCommand {
    static let force = Flag("force", help: Localized(en: "replace a data home that has data",
                                                     ko: "데이터가 있는 데이터 폴더도 바꿈"))
    static let backupFolder = Argument<String>("DIR", kind: .path, help: Localized(en: "the backup folder", ko: "백업 폴더"))

    static func make() -> Command {
        Command(
            "restore",
            abstract: Localized(en: "bring a backup made by 'memoapp backup' back into the data home",
                                ko: "'memoapp backup'으로 만든 백업을 데이터 폴더로 되돌리기"),
            options: [force],
            positionals: [backupFolder],
            access: .alwaysRuns,
            discussion: Localized(
                en: """
                    Every file MANIFEST lists is checked first (present, same checksum; the database opens, is \
                    memoapp's, not from a newer memoapp, passes PRAGMA integrity_check, and holds only the tables, \
                    indexes, triggers and views memoapp's migrations make); on any problem \
                    nothing is changed. A data home with to-dos, memos, voice memos or timers is replaced only \
                    with --force; the onboarding state comes from the backup. Exit status: 0 restored; 5 the data \
                    home has data and --force was not given; 65 DIR is not a good backup (the message names the \
                    file); 66 DIR does not exist; 74 writing failed before anything was replaced (nothing \
                    changed); 1 the backup was restored, but a step after its data was in place failed (opening \
                    or migrating it, flushing the folder, removing the replaced audio): the report is printed, \
                    the problem is on stderr (with --json, in "problem"); run 'memoapp doctor'.
                    """,
                ko: """
                    먼저 MANIFEST의 모든 파일을 확인합니다 (존재, 체크섬 일치; 데이터베이스가 열리고 memoapp의 것이며 \
                    더 새로운 버전이 만든 것이 아니고 PRAGMA integrity_check 통과, memoapp의 마이그레이션이 만드는 테이블, 인덱스, \
                    트리거, 뷰만 있음). 문제가 있으면 아무것도 바꾸지 \
                    않습니다. 할 일, 메모, 음성 메모, 타이머가 있는 데이터 폴더는 --force가 있을 때만 바꿉니다. 온보딩 \
                    상태는 백업의 것을 따릅니다. 종료 코드: 0 복원함; 5 데이터 폴더에 데이터가 있는데 --force가 없음; \
                    65 DIR이 온전한 백업이 아님 (메시지에 파일 이름); 66 DIR이 없음; 74 무엇도 바꾸기 전에 쓰기 실패 (바뀐 것 없음); \
                    1 복원은 했지만 데이터를 넣은 뒤의 단계(열기나 마이그레이션, 폴더 기록, 바뀐 오디오 지우기)가 실패함: \
                    보고를 출력하고 문제는 표준 오류에 씁니다 (--json이면 "problem"). 'memoapp doctor'를 실행하세요.
                    """),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let checking = ProgressBar(context: context, label: context.text(en: "checking the backup", ko: "백업 확인하는 중"))
        let backup = try checking.showing { try VerifiedBackup.verify(arguments[backupFolder], progress: checking.update) }
        let restoring = ProgressBar(context: context, label: context.text(en: "restoring", ko: "복원하는 중"))
        let restorer = Restorer(workspace: context.workspace, backup: backup, force: arguments[force])
        let result = try restoring.showing { try restorer.run(progress: restoring.update) }
        try context.emit(json: WireFormat.restore(result, in: context.language), text: text(result, context))
        if let problem = result.problem {
            // Restored, so not the exit code that says nothing changed.
            context.exitStatus = 1
            if !context.isJSON {
                try context.flush()
                try context.warn(context.text(
                    en: "the backup was restored, but then: \(problem.message.en); run 'memoapp doctor'",
                    ko: "백업은 복원했지만 그다음에 문제가 생겼습니다: \(problem.message.ko). 'memoapp doctor'를 실행하세요"))
            }
        }
    }

    private static func text(_ result: RestoreResult, _ context: CommandContext) -> TerminalText {
        guard let contents = result.contents else {
            return TerminalText(context.text(en: "Restored \(result.backup.path) into \(result.home).",
                                             ko: "\(result.backup.path)을(를) \(result.home)에 복원했습니다."))
        }
        let onboarding = contents.isOnboarded
            ? context.text(en: "onboarding completed", ko: "온보딩 완료")
            : context.text(en: "onboarding not completed yet: run 'memoapp onboard'", ko: "온보딩 미완료: 'memoapp onboard'를 실행하세요")
        var lines = [TerminalText(context.text(
            en: "Restored \(result.backup.path) into \(result.home): \(BackupCommand.contents(contents, in: .en)); \(onboarding).",
            ko: "\(result.backup.path)을(를) \(result.home)에 복원했습니다: \(BackupCommand.contents(contents, in: .ko)). \(onboarding)."))]
        if let access = result.access, let line = accessLine(access, context) {
            lines.append(TerminalText(line))
        }
        if result.replacedData {
            let removed = result.removedFiles.count
            lines.append(context.style.dim(context.text(
                en: "The data that was there was replaced\(removed > 0 ? "; \(removed) audio file\(removed == 1 ? "" : "s") no restored memo names removed" : "").",
                ko: "있던 데이터를 바꿨습니다\(removed > 0 ? ". 복원된 메모가 쓰지 않는 오디오 파일 \(removed)개를 지웠습니다" : "").")))
        }
        return lines.joined(separator: "\n")
    }

    /// What became of the server's tokens and sessions, when there is
    /// something to say: a person who revoked a token must read that the
    /// restore did not bring it back.
    private static func accessLine(_ access: RestoredAccess, _ context: CommandContext) -> String? {
        func tokens(_ count: Int) -> String { count == 1 ? "1 API token" : "\(count) API tokens" }
        func sessions(_ count: Int) -> String { count == 1 ? "1 web session" : "\(count) web sessions" }
        switch access {
        case let .fromBackup(t, s):
            guard t + s > 0 else { return nil }
            return context.text(en: "Restored the backup's \(tokens(t)) and \(sessions(s)) (this home had no database).",
                                ko: "백업의 API 토큰 \(t)개와 웹 세션 \(s)개를 복원했습니다 (이 폴더에는 데이터베이스가 없었습니다).")
        case let .keptHome(t, s, bt, bs):
            return context.text(
                en: "Kept this home's \(tokens(t)) and \(sessions(s)); the backup's \(tokens(bt)) and \(sessions(bs)) "
                    + "were not restored, so nothing revoked since comes back.",
                ko: "이 폴더의 API 토큰 \(t)개와 웹 세션 \(s)개를 그대로 두었습니다. 백업의 API 토큰 \(bt)개와 웹 세션 \(bs)개는 "
                    + "복원하지 않았으므로 그 뒤에 폐기한 것이 되살아나지 않습니다.")
        case let .neither(bt, bs):
            return context.text(
                en: "This home's database could not be read, so its tokens are unknown: the backup's \(tokens(bt)) and "
                    + "\(sessions(bs)) were not restored either; make new ones with 'memoapp token create NAME'.",
                ko: "이 폴더의 데이터베이스를 읽을 수 없어 토큰을 알 수 없습니다. 백업의 API 토큰 \(bt)개와 웹 세션 \(bs)개도 "
                    + "복원하지 않았습니다. 'memoapp token create NAME'으로 새로 만드세요.")
        }
    }
}
