import MemoCore
import MemoKit

extension WireFormat {
    /// `{"ok", "home", "problem_count", "checks": [{"name", "status", "title",
    /// "summary", "problems": [{"message", "fix"}]}]}`.
    public static func doctor(_ report: DoctorReport, in language: Language) -> JSON {
        .object([
            ("ok", .bool(report.problemCount == 0)),
            ("home", .string(report.home)),
            ("problem_count", .int(report.problemCount)),
            ("checks", .array(report.checks.map { check in
                .object([
                    ("name", .string(check.name)),
                    ("status", .string(check.status.rawValue)),
                    ("title", .string(check.title.text(in: language))),
                    ("summary", .optional(check.summary?.text(in: language))),
                    ("problems", .array(check.findings.map { finding in
                        .object([("message", .string(finding.problem.text(in: language))),
                                 ("fix", .string(finding.fix.text(in: language)))])
                    })),
                ])
            })),
        ])
    }
}
