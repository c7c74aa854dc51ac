import MemoCore

/// One thing `memoapp doctor` looked at and what it found.
struct DoctorCheck {
    enum Status: String {
        /// Looked, found nothing wrong.
        case ok
        /// Found something wrong (listed in `findings`).
        case problem
        /// Could not look, because an earlier check found the ground missing
        /// (no database, a database that does not open); `summary` says why.
        case skipped
    }

    /// A stable English word for scripts: `data_home`, `permissions`, …
    let name: String
    /// What the check is about, for people.
    let title: Localized
    private(set) var status: Status
    /// One line: what was checked (ok), or why it was skipped.
    var summary: Localized?
    private(set) var findings: [DoctorFinding] = []

    init(_ name: String, title: Localized, summary: Localized? = nil) {
        self.name = name
        self.title = title
        self.status = .ok
        self.summary = summary
    }

    /// Records a problem; the check is then a problem whatever else it found.
    mutating func add(_ finding: DoctorFinding) {
        findings.append(finding)
        status = .problem
    }

    /// Marks the check as not run, with the reason.
    mutating func skip(because reason: Localized) {
        status = .skipped
        summary = reason
    }
}

/// What is wrong, and what the user can do about it.
struct DoctorFinding {
    let problem: Localized
    let fix: Localized

    init(problem: Localized, fix: Localized) {
        self.problem = problem
        self.fix = fix
    }

    init(en: String, ko: String, fixEn: String, fixKo: String) {
        self.init(problem: Localized(en: en, ko: ko), fix: Localized(en: fixEn, ko: fixKo))
    }
}

/// Every check of one doctor run, and how the run ends.
struct DoctorReport {
    let home: String
    var checks: [DoctorCheck] = []
    /// The database exists but memoapp cannot use it at all (not SQLite,
    /// another program's, a newer memoapp's, or SQLite refuses to open it):
    /// every other command fails with exit 74 on it, and so does doctor.
    var isDatabaseUnusable = false

    var problemCount: Int { checks.reduce(0) { $0 + $1.findings.count } }

    /// 0 when all is well, 74 when the database cannot be used, else 1.
    var exitStatus: Int32 {
        if isDatabaseUnusable { return ErrorKind.storage.exitCode }
        return problemCount == 0 ? 0 : 1
    }

    func json(in language: Language) -> JSON {
        .object([
            ("ok", .bool(problemCount == 0)),
            ("home", .string(home)),
            ("problem_count", .int(problemCount)),
            ("checks", .array(checks.map { check in
                var members: [(String, JSON)] = [
                    ("name", .string(check.name)),
                    ("status", .string(check.status.rawValue)),
                    ("title", .string(check.title.text(in: language))),
                ]
                members.append(("summary", .optional(check.summary?.text(in: language))))
                members.append(("problems", .array(check.findings.map { finding in
                    .object([("message", .string(finding.problem.text(in: language))),
                             ("fix", .string(finding.fix.text(in: language)))])
                })))
                return .object(members)
            })),
        ])
    }

    func text(in language: Language, style: TextStyle) -> String {
        func text(_ en: String, _ ko: String) -> String { language == .ko ? ko : en }
        let titleWidth = checks.map { TimerRendering.displayWidth($0.title.text(in: language)) }.max() ?? 0
        var lines = [style.bold("memoapp doctor") + " — " + home]
        for check in checks {
            let word: String
            switch check.status {
            case .ok: word = style.green(text("ok     ", "정상   "))
            case .problem: word = style.red(text("PROBLEM", "문제   "))
            case .skipped: word = style.yellow(text("skipped", "건너뜀 "))
            }
            let title = check.title.text(in: language)
            if let summary = check.summary?.text(in: language) {
                let padding = String(repeating: " ", count: titleWidth - TimerRendering.displayWidth(title))
                lines.append("\(word)  \(title)\(padding)  \(summary)")
            } else {
                lines.append("\(word)  \(title)")
            }
            for finding in check.findings {
                lines.append("         - " + finding.problem.text(in: language))
                lines.append("           " + style.dim(text("fix: ", "해결: ") + finding.fix.text(in: language)))
            }
        }
        let count = problemCount
        lines.append(count == 0
            ? text("All is well.", "모두 정상입니다.")
            : text(count == 1 ? "1 problem found." : "\(count) problems found.", "문제 \(count)개를 찾았습니다."))
        return lines.joined(separator: "\n") + "\n"
    }
}
