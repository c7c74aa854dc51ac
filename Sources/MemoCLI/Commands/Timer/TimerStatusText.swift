import CommandLineKit
import MemoAPI
import MemoCore
import Timers

/// The human text of `timer status`, of the action commands, and of the main
/// screen's timers section.
enum TimerStatusText {
    /// `timer status`: every figure on its own line.
    static func render(_ snapshot: TimerSnapshot, _ context: CommandContext) -> TerminalText {
        let timer = snapshot.timer
        let now = snapshot.reading.wall
        let heading = context.style.bold(context.text(en: "Timer \(timer.id)", ko: "\(timer.id)번 타이머"))
        var lines: [TerminalText] = [heading + " · " + context.text(timer.kind.name) + " · " + context.text(timer.state.name)]
        var fields: [(Localized, String)] = []
        if let label = timer.label { fields.append((Localized(en: "Label", ko: "이름"), label)) }
        if let duration = timer.duration {
            fields.append((Localized(en: "Duration", ko: "길이"), TimerRendering.clock(duration, roundingUp: true)))
        }
        fields.append((Localized(en: "Elapsed", ko: "경과"),
                       TimerRendering.clock(snapshot.elapsed.seconds, tenths: timer.kind == .stopwatch)))
        if let remaining = snapshot.remaining {
            fields.append((Localized(en: "Remaining", ko: "남은 시간"), TimerRendering.clock(remaining.seconds, roundingUp: true)))
        }
        if timer.state == .running, let end = snapshot.endTime {
            fields.append((Localized(en: "Ends at", ko: "종료 예정"), TimerRendering.localTime(end, now: now)))
        }
        fields.append((Localized(en: "Started", ko: "시작"), TimerRendering.localTime(timer.createdAt, now: now)))
        if let ended = timer.endedAt {
            let label = timer.state == .finished ? Localized(en: "Finished at", ko: "완료 시각")
                : timer.state == .stopped ? Localized(en: "Stopped at", ko: "정지 시각")
                : Localized(en: "Cancelled at", ko: "취소 시각")
            fields.append((label, TimerRendering.localTime(ended, now: now)))
        }
        if timer.spans.count > 1 {
            fields.append((Localized(en: "Pauses", ko: "일시정지"), String(timer.spans.count - 1)))
        }
        let width = fields.map { TerminalText.displayWidth(context.text($0.0)) }.max() ?? 0
        for (name, value) in fields {
            let label = context.text(name) + ":"
            let padding = String(repeating: " ", count: width + 2 - TerminalText.displayWidth(label))
            lines.append(TerminalText(label + padding) + TerminalText(line: value))
        }
        if !timer.laps.isEmpty {
            lines.append(TerminalText(context.text(en: "Laps:", ko: "랩:")))
            var previous = 0.0
            for lap in timer.laps {
                let total = TimerRendering.clock(lap.elapsed, tenths: true)
                let split = TimerRendering.clock(lap.elapsed - previous, tenths: true)
                lines.append(TerminalText("  #\(lap.number)  \(total)  (+\(split))"))
                previous = lap.elapsed
            }
        }
        if snapshot.isEstimated {
            lines.append(context.style.dim(context.text(
                en: "~ estimated: the machine restarted while it ran, so part was measured on the wall clock.",
                ko: "~ 추정치: 실행 중에 컴퓨터가 다시 시작되어 일부를 벽시계로 쟀습니다.")))
        }
        return lines.joined(separator: "\n")
    }

    /// One line confirming an action.
    static func confirmation(_ action: TimerAction, _ snapshot: TimerSnapshot, _ context: CommandContext) -> TerminalText {
        let name = TimerRendering.name(snapshot.timer)
        let figure = TimerRendering.mainFigure(snapshot, context)
        let elapsed = TimerRendering.clock(snapshot.elapsed.seconds, tenths: true)
        switch action {
        case .pause:
            return context.text(en: "Paused timer \(name) at \(figure).", ko: "타이머 \(name) 일시정지: \(figure).")
        case .resume:
            return context.text(en: "Resumed timer \(name): \(figure).", ko: "타이머 \(name) 재개: \(figure).")
        case .cancel:
            return context.text(en: "Cancelled timer \(name).", ko: "타이머 \(name)을(를) 취소했습니다.")
        case .lap:
            let number = snapshot.timer.laps.last?.number ?? 0
            return context.text(en: "Lap \(number) of timer \(name): \(elapsed).",
                                ko: "타이머 \(name) 랩 \(number): \(elapsed).")
        case .stop:
            return context.text(en: "Stopped timer \(name) at \(elapsed).", ko: "타이머 \(name) 정지: \(elapsed).")
        }
    }
}

extension MainScreen {
    /// The running and paused timers, for the main screen.
    static func timersSection(_ context: CommandContext) throws -> Section {
        // Running and paused timers, then finished countdowns not yet seen.
        let store = try TimerCommand.store(context)
        let snapshots = try store.snapshots(includingEnded: false) + store.unseenFinished()
        let title = context.style.bold(context.text(en: "Timers", ko: "타이머"))
        let body = snapshots.isEmpty
            ? TerminalText(context.text(en: "No timers running. Start one: memoapp timer start 25m",
                                        ko: "실행 중인 타이머가 없습니다. 시작하기: memoapp timer start 25m"))
            : TimerRendering.table(snapshots, context)
        return Section(key: "timers", json: .array(snapshots.map(WireFormat.timer)), text: "\n" + title + "\n" + body)
    }
}
