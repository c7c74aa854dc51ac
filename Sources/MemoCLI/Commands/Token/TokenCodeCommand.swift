import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp token code NAME [--expires 30d]`: a phone app signs in without
/// a terminal. The code, 8 symbols a person types (`K7QM-2XHD`), is
/// exchanged once by the app (`POST /api/v1/device-codes/exchange`) for a token
/// named NAME, lasting `--expires` if given; the same as a signed-in page
/// makes with `POST /api/v1/device-codes` (see `DeviceCodes`).
extension TokenCommand {
    static let expires = OptionKey<String>("expires", "DURATION", help: Localized(
        en: "the token expires this long after it is made: 90m, 12h, 30d, 2w (default: until revoked)",
        ko: "토큰이 만들어진 뒤 이만큼 지나면 만료: 90m, 12h, 30d, 2w, 30일 (기본: 폐기할 때까지)"))

    static func code(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let made = try context.parsingArgument(arguments) {
            let lifetime = try arguments[expires].map(TokenLifetime.seconds(in:))
            return try DeviceCodes(connection: context.workspace.database())
                .create(tokenName: arguments[name], tokenLifetime: lifetime, at: context.clock.now())
        }
        let minutes = Int(DeviceCodes.codeLifetime / 60)
        try context.emit(
            json: WireFormat.deviceCode(made),
            text: context.text(
                en: "Type this code into the app within \(minutes) minutes (it works once) to give it the token '\(made.tokenName)':\n\(made.code)",
                ko: "\(minutes)분 안에 이 코드를 앱에 입력하면 토큰 '\(made.tokenName)'을(를) 받습니다 (한 번만 쓸 수 있습니다):\n\(made.code)"))
    }
}
