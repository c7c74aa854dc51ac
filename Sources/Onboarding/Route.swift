/// Where bare `memoapp` goes after the splash, as the original app's root view
/// decides between the onboarding and the main screen.
public enum Route: Equatable, Sendable {
    case onboarding
    case main

    public init(isOnboardingCompleted: Bool) {
        self = isOnboardingCompleted ? .main : .onboarding
    }
}
