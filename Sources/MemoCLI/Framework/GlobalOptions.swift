import CommandLineKit
import MemoCore

/// The options every command accepts, before or after the command name.
public struct GlobalOptions: Sendable, Equatable {
    public var home: String?
    public var isJSON = false
    public var language: String?
    /// `--color`; `--no-color` is `never`. Nil: not given, which is `auto`.
    public var color: ColorChoice?
    public var wantsHelp = false
    public var wantsVersion = false

    public init() {}

    static let homeOption = OptionKey<String>("home", "DIR", kind: .path,
                                              help: Localized(en: "use DIR as the data home", ko: "DIR을 데이터 폴더로 사용")) { value in
        // Empty is a mistake (an unset variable), never the default data home.
        guard !value.isEmpty else {
            throw MemoError(.usage, en: "--home needs a folder; it is empty", ko: "--home에 폴더가 필요합니다. 비어 있습니다")
        }
        return value
    }
    static let jsonFlag = Flag("json", help: Localized(en: "print JSON", ko: "JSON으로 출력"))
    static let languageOption = OptionKey<Language>("lang", "ko|en", kind: .choice(["ko", "en"]),
                                                    help: Localized(en: "language of messages", ko: "메시지 언어")) {
        Language(rawValue: $0) ?? .en
    }
    static let colorOption = OptionKey<ColorChoice>(
        "color", "auto|always|never", kind: .choice(ColorChoice.allCases.map(\.rawValue)),
        help: Localized(en: "colour: on a terminal (auto), always (for less -R) or never",
                        ko: "색: 터미널에서만(auto), 항상(less -R용), 안 함(never)")) { value in
        guard let choice = ColorChoice(rawValue: value) else {
            throw MemoError(.usage, en: "--color takes auto, always or never, not '\(value)'",
                            ko: "--color에는 auto, always, never 중 하나를 주세요 ('\(value)'이(가) 아님)")
        }
        return choice
    }
    static let noColorFlag = Flag("no-color", help: Localized(en: "no colour (--color=never)",
                                                              ko: "색 없이 출력 (--color=never)"))
    static let helpFlag = Flag("help", short: "h", help: Localized(en: "show this help", ko: "도움말 보기"))
    static let versionFlag = Flag("version", help: Localized(en: "show the version", ko: "버전 보기"))

    static let declarations: [any OptionDeclaration] = [homeOption, jsonFlag, languageOption, colorOption,
                                                         noColorFlag, helpFlag,
                                                         versionFlag]

    /// The values the parser read.
    init(_ parsed: ParsedArguments) {
        home = parsed[GlobalOptions.homeOption]
        isJSON = parsed[GlobalOptions.jsonFlag]
        language = parsed[GlobalOptions.languageOption]?.rawValue
        // `--no-color` can only mean no, so it wins over any `--color`.
        color = parsed[GlobalOptions.noColorFlag] ? .never : parsed[GlobalOptions.colorOption]
        wantsHelp = parsed[GlobalOptions.helpFlag]
        wantsVersion = parsed[GlobalOptions.versionFlag]
    }
}
