/// The languages memoapp speaks. Every text a user reads exists in both.
public enum Language: String, CaseIterable, Sendable {
    case en
    case ko

    /// Chooses by the contract's order: an explicit choice, then `$MEMOAPP_LANG`,
    /// then the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set (Korean when
    /// it starts with `ko`), else English.
    public static func resolve(explicit: String?, environment: [String: String]) -> Language {
        if let explicit, let language = Language(rawValue: explicit) { return language }
        if let chosen = environment["MEMOAPP_LANG"], let language = Language(rawValue: chosen) {
            return language
        }
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                return value.hasPrefix("ko") ? .ko : .en
            }
        }
        return .en
    }
}

/// A text in both languages; the CLI picks one when it prints.
public struct Localized: Sendable, Equatable {
    public let en: String
    public let ko: String

    public init(en: String, ko: String) {
        self.en = en
        self.ko = ko
    }

    /// The same text in both languages: for names, numbers and other untranslated text.
    public init(verbatim: String) {
        self.init(en: verbatim, ko: verbatim)
    }

    public func text(in language: Language) -> String {
        switch language {
        case .en: return en
        case .ko: return ko
        }
    }
}
