#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import XCTest

final class JSONMembersTests: XCTestCase {
    private let hostile = "\"quoted\" back\\slash\n\r\t\u{0}\u{1F}\u{7F} \u{2028}\u{2029} 회의 🙂"

    /// Every kind of member, added to both sinks in the same order.
    private func describe<Members: JSONMemberSink>(to object: inout Members) {
        object.add("int", int: Int64.min)
        object.add("zero", int: 0)
        object.add("string", string: hostile)
        object.add("empty", string: "")
        object.add("missing", string: nil)
        object.add("yes", bool: true)
        object.add("no", bool: false)
        object.add("time", time: Timestamp(secondsSince1970: -0.5))
        object.add("no_time", time: nil)
        object.add("strings", strings: [hostile, "", "b"])
        object.add("no_strings", strings: [])
        object.add("value", .object([("nested", .array([.double(1.5), .double(.nan), .null]))]))
    }

    func testTheWriterWritesTheBuiltObjectsBytes() {
        var builder = JSONObjectBuilder()
        describe(to: &builder)
        let bytes = JSONByteWriter.collect(capacity: 0) { JSONObjectWriter.write(to: &$0) { describe(to: &$0) } }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), builder.object.serialized)
        XCTAssertEqual(bytes, builder.object.serializedBytes)
    }

    func testTheWriterAppendsAfterWhatTheBufferHolds() {
        let bytes = JSONByteWriter.collect(capacity: 0) { out in
            out.append(ascii: "[1,")
            JSONObjectWriter.write(to: &out) { $0.add("a", int: 2) }
            JSONObjectWriter.write(to: &out) { _ in }
        }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"[1,{"a":2}{}"#)
    }

    func testTheByteWriterGrowsPastItsFirstCapacity() {
        // Pieces of every size, far past the 64 bytes it starts with.
        var expected: [UInt8] = []
        let bytes = JSONByteWriter.collect(capacity: 1) { out in
            for length in 0..<300 {
                let piece = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
                piece.withUnsafeBufferPointer { out.append(utf8: $0) }
                out.append(UInt8(truncatingIfNeeded: length))
                expected += piece + [UInt8(truncatingIfNeeded: length)]
            }
            out.append(text: "끝")
            out.append(ascii: "end")
        }
        XCTAssertEqual(bytes, expected + Array("끝end".utf8))
        XCTAssertEqual(JSONByteWriter.collect(capacity: 0) { _ in }, [])
    }

    private enum Value {
        case time(Timestamp)
        case bool(Bool)
    }

    private func add<Sink: JSONMemberSink>(_ members: [(StaticString, Value)], to sink: inout Sink) {
        for (key, value) in members {
            switch value {
            case let .time(time): sink.add(key, time: time)
            case let .bool(flag): sink.add(key, bool: flag)
            }
        }
    }

    /// `members` written in place after `padding` spaces, into a buffer that
    /// starts at one byte and grows under them, are the builder's object.
    private func assertWrittenInPlace(_ members: [(StaticString, Value)], after padding: Int,
                                      file: StaticString = #filePath, line: UInt = #line) {
        var builder = JSONObjectBuilder()
        add(members, to: &builder)
        let bytes = JSONByteWriter.collect(capacity: 1) { out in
            for _ in 0..<padding { out.append(UInt8(ascii: " ")) }
            JSONObjectWriter.write(to: &out) { object in add(members, to: &object) }
        }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(repeating: " ", count: padding) + builder.object.serialized,
                       "after \(padding) bytes", file: file, line: line)
    }

    func testKeysAndTimesWrittenInPlaceSurviveTheBufferGrowingUnderThem() {
        // Keys and times are written after one capacity check each: start them
        // at every offset around the first 64 bytes' end and the next growth's.
        let time = Timestamp(secondsSince1970: 1_795_000_000.25)
        for padding in 0..<140 {
            assertWrittenInPlace([("a_longer_member_key", .time(time)), ("k", .bool(true)), ("t", .time(time))],
                                 after: padding)
        }
    }

    func testARepeatedTimeIsWrittenAsTheFirstWas() {
        let times = [Timestamp(secondsSince1970: 1_795_000_000.25), Timestamp(secondsSince1970: 0),
                     Timestamp(secondsSince1970: -0.0), Timestamp(secondsSince1970: .nan), Timestamp(secondsSince1970: 1e300)]
        for first in times {
            for second in times {
                for padding in [0, 20, 40, 60] {
                    assertWrittenInPlace([("a", .time(first)), ("b", .time(second)), ("c", .time(second)), ("d", .time(first))],
                                         after: padding)
                }
            }
        }
    }

    func testTheBuilderMakesTheObjectOfItsMembers() {
        var builder = JSONObjectBuilder()
        builder.add("time", time: Timestamp(secondsSince1970: 0))
        builder.add("tags", strings: ["a"])
        builder.add("note", string: nil)
        XCTAssertEqual(builder.object, .object([("time", .string("1970-01-01T00:00:00.000Z")), ("tags", .array([.string("a")])),
                                                ("note", .null)]))
    }
}

final class TimestampArithmeticTests: XCTestCase {
    /// The milliseconds rendering works the date out itself (gmtime_r takes
    /// a process-wide lock); it must agree with gmtime_r everywhere.
    func testTheDateAgreesWithGmtimeAcrossTheSupportedRange() {
        var seconds: [Int64] = [0, -1, 1, 59, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_102_444_799,
                                Int64(Timestamp.earliestSupported.secondsSince1970),
                                Int64(Timestamp.latestSupported.secondsSince1970)]
        // Every day boundary and a time inside each of 12,000 days spread
        // over years 1 to 9999, leap years and centuries among them.
        let first = Int64(Timestamp.earliestSupported.secondsSince1970)
        let span = Int64(Timestamp.latestSupported.secondsSince1970) - first
        for step in Int64(0)..<12_000 {
            let day = first + span / 12_000 * step
            seconds += [day - day % 86_400, day - day % 86_400 - 1, day + 37_777]
        }
        for value in seconds where Timestamp(secondsSince1970: Double(value)).isSupported {
            var time = time_t(value)
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(format4(Int(parts.tm_year) + 1900)) + "-" + format2(Int(parts.tm_mon) + 1) + "-"
                + format2(Int(parts.tm_mday)) + "T" + format2(Int(parts.tm_hour)) + ":" + format2(Int(parts.tm_min)) + ":"
                + format2(Int(parts.tm_sec)) + ".000Z"
            XCTAssertEqual(Timestamp(secondsSince1970: Double(value)).rfc3339Milliseconds, expected, "\(value)")
        }
    }

    func testTheBytesAreTheString() {
        for value in [-62_135_596_800.0, -0.001, 0, 1_795_958_644.25, 253_402_300_799.5, .infinity, -.infinity, .nan] {
            let time = Timestamp(secondsSince1970: value)
            XCTAssertEqual(time.withRFC3339Milliseconds { Array($0) }, Array(time.rfc3339Milliseconds.utf8), "\(value)")
        }
        XCTAssertEqual(Timestamp(secondsSince1970: 1_795_958_644.25).rfc3339Milliseconds, "2026-11-29T13:24:04.250Z")
        XCTAssertEqual(Timestamp(secondsSince1970: -0.5).rfc3339Milliseconds, "1969-12-31T23:59:59.500Z")
    }

    private func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private func format4(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
}
