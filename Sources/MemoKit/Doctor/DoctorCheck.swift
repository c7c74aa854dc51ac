import MemoCore

/// One thing `memoapp doctor` looked at and what it found.
public struct DoctorCheck: Sendable {
    public enum Status: String, Sendable {
        /// Looked, found nothing wrong.
        case ok
        /// Found something wrong (listed in `findings`).
        case problem
        /// Could not look, because an earlier check found the ground missing
        /// (no database, a database that does not open); `summary` says why.
        case skipped
    }

    /// A stable English word for scripts: `data_home`, `permissions`, …
    public let name: String
    /// What the check is about, for people.
    public let title: Localized
    public private(set) var status: Status
    /// One line: what was checked (ok), or why it was skipped.
    public var summary: Localized?
    public private(set) var findings: [DoctorFinding] = []

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

    /// The check, not run, with the reason.
    func skipped(because reason: Localized) -> DoctorCheck {
        var check = self
        check.skip(because: reason)
        return check
    }

    /// Marks the check as not run, with the reason.
    mutating func skip(because reason: Localized) {
        status = .skipped
        summary = reason
    }
}

/// What is wrong, and what the user can do about it.
public struct DoctorFinding: Sendable {
    public let problem: Localized
    public let fix: Localized

    init(problem: Localized, fix: Localized) {
        self.problem = problem
        self.fix = fix
    }

    init(en: String, ko: String, fixEn: String, fixKo: String) {
        self.init(problem: Localized(en: en, ko: ko), fix: Localized(en: fixEn, ko: fixKo))
    }
}

/// Every check of one doctor run, and how the run ends.
public struct DoctorReport: Sendable {
    public let home: String
    public internal(set) var checks: [DoctorCheck] = []
    /// The database exists but memoapp cannot use it at all (not SQLite,
    /// another program's, a newer memoapp's, or SQLite refuses to open it):
    /// every other command fails with exit 74 on it, and so does doctor.
    public internal(set) var isDatabaseUnusable = false

    public var problemCount: Int { checks.reduce(0) { $0 + $1.findings.count } }
}
