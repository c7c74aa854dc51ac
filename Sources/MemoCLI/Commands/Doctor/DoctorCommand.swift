import MemoCore

/// `memoapp doctor`: checks the data home, the database and the voice library,
/// says what is wrong and how to fix it. Runs before onboarding too (a broken
/// database is often why onboarding cannot finish), and creates nothing.
enum DoctorCommand {
    static func make() -> Command {
        Command(
            "doctor",
            abstract: Localized(en: "check the data home, the database and the voice library",
                                ko: "데이터 폴더, 데이터베이스, 음성 라이브러리 점검"),
            access: .alwaysRuns,
            discussion: Localized(
                en: "Checks: the data home exists and is private (0700, database 0600); the database opens, "
                    + "passes PRAGMA integrity_check and foreign_key_check and has every migration; every voice "
                    + "memo's file is there and intact, with no file left over; no temporary file is left behind. "
                    + "Changes nothing. Exit status: 0 all is well, 1 problems found, 74 the database cannot be "
                    + "opened at all.",
                ko: "점검 항목: 데이터 폴더가 있고 본인 전용인지(0700, 데이터베이스 0600), 데이터베이스가 열리고 "
                    + "PRAGMA integrity_check와 foreign_key_check를 통과하며 모든 마이그레이션이 적용되었는지, 음성 메모마다 "
                    + "파일이 있고 온전하며 남는 파일이 없는지, 임시 파일이 남지 않았는지. 아무것도 바꾸지 않습니다. "
                    + "종료 코드: 0 모두 정상, 1 문제 있음, 74 데이터베이스를 전혀 열 수 없음."),
            body: { context, _ in run(context) })
    }

    static func run(_ context: CommandContext) {
        let report = DoctorExamination(home: context.home).run()
        context.emit(json: report.json(in: context.language),
                     text: report.text(in: context.language, style: context.style))
        context.exitStatus = report.exitStatus
    }
}
