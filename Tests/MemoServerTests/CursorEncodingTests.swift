import MemoCore
@testable import MemoServer
import Notes
import XCTest

final class CursorEncodingTests: XCTestCase {
    func testPercentEncodingKeepsUnreservedCharactersAndEscapesEveryOtherByte() {
        XCTAssertEqual(Paging.percentEncoded("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(Paging.percentEncoded("a b/c?d=e&f"), "a%20b%2Fc%3Fd%3De%26f")
        XCTAssertEqual(Paging.percentEncoded("한\u{0}%"), "%ED%95%9C%00%25")
        XCTAssertEqual(Paging.percentEncoded(""), "")
    }

    func testATodoCursorIsBase64URLWithoutPadding() {
        // "t:due:1.5::7" and "t:created:::12345" in base64 are
        // "dDpkdWU6MS41Ojo3" and "dDpjcmVhdGVkOjo6MTIzNDU=".
        let dated = Todo(id: 7, title: "a", due: Due(instant: Timestamp(secondsSince1970: 1.5), hasTime: true),
                         createdAt: Timestamp(secondsSince1970: 0), updatedAt: Timestamp(secondsSince1970: 0))
        XCTAssertEqual(Paging.todoCursor(dated, sort: .due), "dDpkdWU6MS41Ojo3")
        let plain = Todo(id: 12345, title: "b", createdAt: Timestamp(secondsSince1970: 0), updatedAt: Timestamp(secondsSince1970: 0))
        XCTAssertEqual(Paging.todoCursor(plain, sort: .created), "dDpjcmVhdGVkOjo6MTIzNDU")
    }
}
