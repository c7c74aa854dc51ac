import Foundation
import MemoKit
import TestSupport
import XCTest

final class HelperThreadTests: XCTestCase {
    /// Owns a thread and joins it when it goes, as ExportStream does.
    private final class Owner: @unchecked Sendable {
        var thread: HelperThread?
        deinit { thread?.join() }
    }

    func testAThreadThatDropsTheLastReferenceToItsOwnerIsDetachedNotLeftJoinable() {
        // The thread ends holding the only reference to its owner, so the
        // owner's deinit joins the thread from the thread itself. pthread_join
        // fails there (EDEADLK), and the thread's 8 MiB stack was kept for good.
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        // pthread_detach of the thread itself, once its owner went: EINVAL
        // when the owner's join had already detached it, 0 when it was left
        // joinable (this probe then detaches it, too late to tell otherwise).
        let probe = Locked<Int32?>(nil)
        var owner: Owner? = Owner()
        nonisolated(unsafe) var held = owner
        owner?.thread = HelperThread {
            release.wait()
            held = nil  // the last reference: the deinit runs here
            probe.withValue { $0 = pthread_detach(pthread_self()) }
            ended.signal()
        }
        owner = nil
        release.signal()
        ended.wait()
        XCTAssertEqual(probe.withValue { $0 }, EINVAL, "already detached by the owner's join on its own thread")
    }

    func testAnotherThreadsJoinWaitsForTheEnd() {
        let done = Locked(false)
        let thread = HelperThread { done.withValue { $0 = true } }
        thread.join()
        XCTAssertTrue(done.withValue { $0 })
    }
}
