import MemoCore

/// How long a token lasts when it is made to expire: `30d`, `12h`, `2w`,
/// `90m` (`--expires` on the command line, `expires_in` over the API), also
/// spelled out (`30 days`) or in Korean (`30일`, `12시간`, `2주`, `90분`).
/// One number and one unit, always a unit: a bare `30` could be minutes (as
/// a countdown reads it) or days, and a token that dies a thousand times too
/// early or lives that much too long is a mistake nobody sees until it bites.
/// Pure: no clock.
public enum TokenLifetime {
    /// The shortest: a minute.
    public static let minimumSeconds = 60.0
    /// The longest: ten years. Longer is a typo; without `--expires` a token
    /// lasts until it is revoked.
    public static let maximumSeconds = 3650 * 86400.0

    /// The number of seconds `text` names.
    /// - Throws: `MemoError(.usage)` naming the forms, for text that is not
    ///   one of them or a length outside a minute to ten years.
    public static func seconds(in text: String) throws -> Double {
        let words = TokenLifetime.trimmed(text)
        let digits = words.prefix { $0.isASCII && $0.isNumber }
        let unitName = TokenLifetime.trimmed(words.dropFirst(digits.count)).lowercased()
        guard !digits.isEmpty, digits.count <= 9, let count = Double(digits), let unit = units[unitName] else {
            throw refused(text)
        }
        return try checked(count * unit, text)
    }

    /// `seconds` given as a number (the API's `expires_in`), checked against
    /// the same bounds.
    public static func checked(_ seconds: Double, _ text: String? = nil) throws -> Double {
        guard seconds.isFinite, seconds >= minimumSeconds, seconds <= maximumSeconds else {
            throw refused(text ?? String(seconds))
        }
        return seconds
    }

    private static let units: [String: Double] = [
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "분": 60,
        "h": 3600, "hour": 3600, "hours": 3600, "시간": 3600,
        "d": 86400, "day": 86400, "days": 86400, "일": 86400,
        "w": 604_800, "week": 604_800, "weeks": 604_800, "주": 604_800,
    ]

    private static func refused(_ text: String) -> MemoError {
        let shown = String(text.unicodeScalars.prefix(40).map {
            $0.properties.generalCategory == .control ? "?" : Character($0)
        })
        return MemoError(.usage,
                         en: "a token's lifetime is a number and a unit, from a minute to ten years: 90m, 12h, 30d, 2w (not '\(shown)')",
                         ko: "토큰 유효 기간은 숫자와 단위로, 1분에서 10년까지입니다: 90m, 12h, 30d, 2w, 30일 ('\(shown)' 아님)")
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed<Text: StringProtocol>(_ text: Text) -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        return String(String(text.drop(while: isSpace).reversed()).drop(while: isSpace).reversed())
    }
}
