import MemoCore

/// One page of the first-run onboarding: a title and a subtitle, as in the
/// original app's design (four pages, one per feature).
public struct OnboardingPage: Sendable, Equatable {
    /// 1-based position, as the page indicator shows it.
    public let number: Int
    public let title: Localized
    public let subtitle: Localized
}

extension OnboardingPage {
    /// The four pages, in order: to-dos, memos, voice memos, timers.
    public static let all: [OnboardingPage] = [
        OnboardingPage(
            number: 1,
            title: Localized(en: "Today's to-dos", ko: "오늘의 할일"),
            subtitle: Localized(en: "Everything you have to do, at a glance, anywhere",
                                ko: "To do list로 언제 어디서든 해야할일을 한눈에")),
        OnboardingPage(
            number: 2,
            title: Localized(en: "Your own smart notebook", ko: "똑똑한 나만의 기록장"),
            subtitle: Localized(en: "Write down whatever comes to mind, whenever",
                                ko: "메모장으로 생각나는 기록은 언제든지")),
        OnboardingPage(
            number: 3,
            title: Localized(en: "Miss nothing", ko: "하나라도 놓치지 않도록"),
            subtitle: Localized(en: "Voice memos keep what you don't want to lose",
                                ko: "음성메모 기능으로 놓치고 싶지않은 기록까지")),
        OnboardingPage(
            number: 4,
            title: Localized(en: "Time, precisely", ko: "정확한 시간의 경과"),
            subtitle: Localized(en: "Timers show exactly the time you want",
                                ko: "타이머 기능으로 원하는 시간을 확인")),
    ]
}
