import MemoCore

/// The flags every command accepts, before or after the command name.
public struct GlobalOptions: Sendable, Equatable {
    public var home: String?
    public var isJSON = false
    public var language: String?
    public var isColorDisabled = false
    public var wantsHelp = false
    public var wantsVersion = false

    public init() {}

    static let declarations: [Option] = [
        .value("home", "DIR", kind: .path, help: Localized(en: "use DIR as the data home", ko: "DIR을 데이터 폴더로 사용")),
        .flag("json", help: Localized(en: "print JSON", ko: "JSON으로 출력")),
        .value("lang", "ko|en", kind: .choice(["ko", "en"]),
               help: Localized(en: "language of messages", ko: "메시지 언어")),
        .flag("no-color", help: Localized(en: "no colour", ko: "색 없이 출력")),
        .flag("help", short: "h", help: Localized(en: "show this help", ko: "도움말 보기")),
        .flag("version", help: Localized(en: "show the version", ko: "버전 보기")),
    ]

    mutating func set(_ name: String, value: String?) {
        switch name {
        case "home": home = value
        case "json": isJSON = true
        case "lang": language = value
        case "no-color": isColorDisabled = true
        case "help": wantsHelp = true
        case "version": wantsVersion = true
        default: preconditionFailure("undeclared global option \(name)")
        }
    }
}
