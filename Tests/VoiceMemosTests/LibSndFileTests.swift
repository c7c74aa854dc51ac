import MemoCore
import XCTest
@testable import VoiceMemos

final class LibSndFileTests: XCTestCase {
    func testTheInstalledLibraryLoadsAndAnswers() throws {
        let sndfile = try LibSndFile.loaded()
        // sf_command(SFC_GET_LIB_VERSION) went through a resolved pointer.
        XCTAssertTrue(sndfile.version.hasPrefix("libsndfile-"), sndfile.version)
    }

    func testResolvedFunctionsReadAFixture() throws {
        let stream = TeeStream(source: try FileByteSource(path: Fixtures.path("tone-mono-16k.wav")), copyDescriptor: nil)
        let file = try SoundFile.open(reading: stream, io: TeeStream.virtualIO).get()
        XCTAssertEqual(file.channels, 1)
        XCTAssertEqual(file.sampleRate, 16000)
        var samples = [Int16](repeating: 0, count: 20000)
        let count = samples.withUnsafeMutableBufferPointer { file.readFrames($0.baseAddress!, count: $0.count) }
        XCTAssertEqual(count, 16000)
        XCTAssertNotEqual(samples.prefix(count).max(), 0)
    }

    func testAMissingLibraryIsAnErrorNamingItAndItsDebianPackage() {
        let error = failure(of: LibSndFile.load("libsndfile-absent.so.1"))
        XCTAssertEqual(error?.kind, .internalFailure)
        for text in [error?.message.en ?? "", error?.message.ko ?? ""] {
            XCTAssertTrue(text.contains("libsndfile-absent.so.1"), text)
            XCTAssertTrue(text.contains("libsndfile1"), text)
        }
        XCTAssertTrue(error?.message.en.contains("cannot be loaded") ?? false)
    }

    func testALibraryWithoutTheFunctionsIsAnErrorNamingTheFirstMissing() {
        // libm is loaded in every process and has none of libsndfile's functions.
        let error = failure(of: LibSndFile.load("libm.so.6"))
        XCTAssertEqual(error?.kind, .internalFailure)
        for text in [error?.message.en ?? "", error?.message.ko ?? ""] {
            XCTAssertTrue(text.contains("libm.so.6"), text)
            XCTAssertTrue(text.contains("sf_open"), text)
            XCTAssertTrue(text.contains("libsndfile1"), text)
        }
    }

    private func failure(of result: Result<LibSndFile, MemoError>,
                         file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        guard case let .failure(error) = result else {
            XCTFail("the library loaded", file: file, line: line)
            return nil
        }
        return error
    }
}
