import Foundation
import MemoCore
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A document read a member or an element at a time must mean what the same
/// text parsed whole means, fail where it fails, and name the same places.
final class JSONObjectStreamTests: XCTestCase {
    private let folder = TemporaryDirectory()

    /// Members and streamed elements, gathered back into one value.
    private func read(_ source: JSONObjectStream.Source, streamed: Set<String> = ["items"]) throws -> JSON {
        var members: [(String, JSON)] = []
        var elements: [String: [JSON]] = [:]
        try JSONObjectStream(source, name: "doc.json").scan(streamedArrays: streamed) { event in
            switch event {
            case let .member(key, value): members.append((key, value.value))
            case let .arrayStarted(key):
                members.append((key, .null))
                elements[key] = []
            case let .element(key, value): elements[key, default: []].append(value.value)
            }
        }
        if streamed.contains(""), let top = elements[""] { return .array(top) }
        return .object(members.map { key, value in (key, elements[key].map(JSON.array) ?? value) })
    }

    private func file(_ text: String) throws -> (JSONObjectStream.Source, Int32) {
        let path = folder.appending("doc.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        return (.file(descriptor: descriptor, path: path), descriptor)
    }

    private func failure(_ text: String, streamed: Set<String> = ["items"]) -> String? {
        do {
            _ = try read(.bytes(Array(text.utf8)), streamed: streamed)
            XCTFail("read \(text)")
            return nil
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput)
            return error.message.en
        } catch {
            XCTFail("unexpected \(error)")
            return nil
        }
    }

    func testMembersAndElementsAreTheWholeParsesValues() throws {
        let text = """
            {"format": "x", "n": -1.5e3, "flag": true, "none": null,
             "items": [{"a": "b \\" ] } [ {"}, [1, [2, {"c": []}]], "plain", 3, false, null, {}],
             "nested": {"items": [1, 2]}, "empty": [], "last": "회의 👩‍💻 \\u0000"}
            """
        XCTAssertEqual(try read(.bytes(Array(text.utf8))), try JSON.parse(Array(text.utf8)))
        let (source, descriptor) = try file(text)
        defer { close(descriptor) }
        XCTAssertEqual(try read(source), try JSON.parse(Array(text.utf8)))
        // A second scan of the same file starts again from its beginning.
        XCTAssertEqual(try read(source), try JSON.parse(Array(text.utf8)))
    }

    func testElementsLargerThanTheReadBufferAndAcrossItsEdges() throws {
        var generator = SplitMix(seed: 20261202)
        print("JSONObjectStreamTests seed 20261202")
        var items: [JSON] = []
        var size = 0
        while size < 3 << 20 {
            let length = Int.random(in: 0...5000, using: &generator)
            let text = String((0..<length).map { _ in "a\"\\{[}]한\n".randomElement(using: &generator)! })
            items.append(.object([("text", .string(text)), ("n", .int(Int64(length)))]))
            size += length * 2
        }
        items.append(.string(String(repeating: "큰", count: 1 << 20)))
        let document = JSON.object([("head", .int(1)), ("items", .array(items)), ("tail", .strings(["z"]))])
        let (source, descriptor) = try file(document.prettySerialized)
        defer { close(descriptor) }
        XCTAssertEqual(try read(source), document)
    }

    func testATopLevelArrayStreamsUnderTheEmptyKeyOrIsRefused() throws {
        XCTAssertEqual(try read(.bytes(Array(" [1, {\"a\": 2}, []] ".utf8)), streamed: [""]),
                       .array([.int(1), .object([("a", .int(2))]), .array([])]))
        XCTAssertEqual(failure("[1, 2]"), "doc.json: $: expected an object, found an array")
        XCTAssertEqual(failure("3"), "doc.json: $: expected an object, found an integer")
    }

    func testSyntaxErrorsNameTheLineAndColumnOfTheWholeDocument() throws {
        let broken = "{\"a\": 1,\n \"items\": [\n  {\"b\": 2},\n  {\"c\": tru}\n ]}"
        let whole: String
        do {
            _ = try JSON.parse(Array(broken.utf8))
            return XCTFail("parsed")
        } catch let error as JSONSyntaxError {
            whole = error.memoError(source: "doc.json").message.en
        }
        XCTAssertEqual(failure(broken), whole)
        XCTAssertEqual(failure("{\"items\": [1,, 2]}"), "doc.json: invalid JSON at line 1, column 14: value expected")
        XCTAssertEqual(failure("{\"items\": [1 2]}"), "doc.json: invalid JSON at line 1, column 14: ',' or ']' expected")
        XCTAssertEqual(failure("{\"a\": 1}\n x"), "doc.json: invalid JSON at line 2, column 2: end of file expected")
        XCTAssertEqual(failure("{\"items\": [1, 2"), "doc.json: invalid JSON at line 1, column 16: ',' or ']' expected")
        XCTAssertEqual(failure("{\"items\": [\"open"), "doc.json: invalid JSON at line 1, column 17: premature end of input")
        XCTAssertEqual(failure("{\"a\": 1, \"a\": 2}"), "doc.json: invalid JSON at line 1, column 9: duplicate object key")
        XCTAssertEqual(failure("{\"a\" 1}"), "doc.json: invalid JSON at line 1, column 6: ':' expected")
        XCTAssertEqual(failure(""), "doc.json: invalid JSON at line 1, column 1: premature end of input")
    }

    func testASkippingScanStillChecksTheStructure() throws {
        var elements = 0
        try JSONObjectStream(.bytes(Array("{\"items\": [{\"x\": [1, \"]\"]}, 2]}".utf8)), name: "doc.json")
            .scan(streamedArrays: ["items"], parseElements: false) { event in
                if case .element = event { elements += 1 }
            }
        XCTAssertEqual(elements, 0, "skipped elements are not handed over")
        XCTAssertThrowsError(try JSONObjectStream(.bytes(Array("{\"items\": [1,, 2]}".utf8)), name: "doc.json")
            .scan(streamedArrays: ["items"], parseElements: false) { _ in })
    }

    func testOneScanCanSkipOneArrayAndReadAnother() throws {
        let text = "{\"big\": [{\"x\": 1}, 2], \"small\": [\"a\", {\"b\": null}], \"n\": 3}"
        var events: [String] = []
        try JSONObjectStream(.bytes(Array(text.utf8)), name: "doc.json")
            .scan(streamedArrays: ["big", "small"], skippingElementsOf: ["big"]) { event in
                switch event {
                case let .member(key, value): events.append("\(key)=\(value.value.serialized)")
                case let .arrayStarted(key): events.append("[\(key)")
                case let .element(key, value): events.append("\(key)\(value.path)=\(value.value.serialized)")
                }
            }
        XCTAssertEqual(events, ["[big", "[small", "small$.small[0]=\"a\"", "small$.small[1]={\"b\":null}", "n=3"])
        // A skipped array's broken element is still a syntax error.
        XCTAssertThrowsError(try JSONObjectStream(.bytes(Array("{\"big\": [1,, 2], \"small\": []}".utf8)), name: "doc.json")
            .scan(streamedArrays: ["big", "small"], skippingElementsOf: ["big"]) { _ in })
    }
}
