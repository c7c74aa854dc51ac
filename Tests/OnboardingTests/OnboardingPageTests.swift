import MemoCore
import Onboarding
import XCTest

/// The four pages as the app's design gives them.
final class OnboardingPageTests: XCTestCase {
    func testThereAreFourPagesNumberedInOrder() {
        XCTAssertEqual(OnboardingPage.all.map(\.number), [1, 2, 3, 4])
        XCTAssertEqual(OnboardingFlow().pageCount, OnboardingPage.all.count)
    }

    func testTitlesInBothLanguages() {
        XCTAssertEqual(OnboardingPage.all.map(\.title.ko), ["오늘의 할일", "똑똑한 나만의 기록장", "하나라도 놓치지 않도록", "정확한 시간의 경과"])
        XCTAssertEqual(OnboardingPage.all.map(\.title.en),
                       ["Today's to-dos", "Your own smart notebook", "Miss nothing", "Time, precisely"])
    }

    func testSubtitlesInBothLanguages() {
        XCTAssertEqual(OnboardingPage.all.map(\.subtitle.ko), [
            "To do list로 언제 어디서든 해야할일을 한눈에",
            "메모장으로 생각나는 기록은 언제든지",
            "음성메모 기능으로 놓치고 싶지않은 기록까지",
            "타이머 기능으로 원하는 시간을 확인",
        ])
        XCTAssertEqual(OnboardingPage.all.map(\.subtitle.en), [
            "Everything you have to do, at a glance, anywhere",
            "Write down whatever comes to mind, whenever",
            "Voice memos keep what you don't want to lose",
            "Timers show exactly the time you want",
        ])
    }
}
